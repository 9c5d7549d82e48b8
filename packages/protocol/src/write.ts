import { type Static, Type } from '@sinclair/typebox';
import { LanguageCodeIn, StringEnum } from './common.js';
import { WRITE_TARGET_LANGUAGES } from './languages.js';

/** Writing styles of `POST /v2/write/rephrase`; each has a `prefer_` form that falls back when unsupported. */
export const WRITING_STYLE_NAMES = ['default', 'simple', 'business', 'academic', 'casual'] as const;
export const WRITING_STYLES = [
  ...WRITING_STYLE_NAMES,
  ...WRITING_STYLE_NAMES.filter((name) => name !== 'default').map((name) => `prefer_${name}` as const),
] as const;
export type WritingStyle = (typeof WRITING_STYLES)[number];

/** Tones of `POST /v2/write/rephrase`; each has a `prefer_` form that falls back when unsupported. */
export const TONE_NAMES = ['default', 'enthusiastic', 'friendly', 'confident', 'diplomatic'] as const;
export const TONES = [
  ...TONE_NAMES,
  ...TONE_NAMES.filter((name) => name !== 'default').map((name) => `prefer_${name}` as const),
] as const;
export type Tone = (typeof TONES)[number];

/** `prefer_business` → `business`; a value without the prefix is returned as is. */
export function withoutPreferPrefix<T extends string>(value: T): string {
  return value.startsWith('prefer_') ? value.slice('prefer_'.length) : value;
}

const WriteText = Type.Array(Type.String(), {
  minItems: 1,
  description: 'improvements come in the same order',
});
const WriteTarget = LanguageCodeIn(WRITE_TARGET_LANGUAGES, 'same language as the text (variants may change)');

/** POST /v2/write/rephrase body. `writing_style` and `tone` exclude each other: `checkWriteRules`. */
export const RephraseRequest = Type.Object(
  {
    text: WriteText,
    target_lang: WriteTarget,
    writing_style: Type.Optional(StringEnum(WRITING_STYLES)),
    tone: Type.Optional(StringEnum(TONES)),
  },
  { $id: 'RephraseRequest', additionalProperties: false },
);
export type RephraseRequest = Static<typeof RephraseRequest>;

/**
 * POST /v2/write/correct body: corrections only, so no style or tone (Glossa's decision: 400 if sent, although
 * other unknown parameters are ignored).
 */
export const CorrectRequest = Type.Object(
  { text: WriteText, target_lang: WriteTarget },
  { $id: 'CorrectRequest', additionalProperties: false, 'x-refused-parameters': ['writing_style', 'tone'] },
);
export type CorrectRequest = Static<typeof CorrectRequest>;

/**
 * The rule a schema does not say well: `writing_style` and `tone` cannot both be sent, unless one of them is
 * `default` (the public service accepts `writing_style=default` with a tone, and the reverse). The wording is
 * the public service's, which its clients match on.
 */
export function checkWriteRules(request: { writing_style?: string; tone?: string }): string | undefined {
  const style = request.writing_style;
  const tone = request.tone;
  if (style !== undefined && tone !== undefined && style !== 'default' && tone !== 'default') {
    return 'Both writing_style and tone defined, currently only one of them can be used at a time.';
  }
  return undefined;
}

/** The one of `writing_style` and `tone` that applies: a `default` next to the other one says nothing. */
export function effectiveWriteStyle<T extends { writing_style?: string; tone?: string }>(
  request: T,
): { writing_style?: string; tone?: string } {
  const { writing_style: style, tone } = request;
  if (style !== undefined && tone !== undefined) {
    return style === 'default' ? { tone } : { writing_style: style };
  }
  return {
    ...(style !== undefined ? { writing_style: style } : {}),
    ...(tone !== undefined ? { tone } : {}),
  };
}

export const Improvement = Type.Object({
  text: Type.String(),
  detected_source_language: Type.String(),
  target_language: Type.String(),
});
export type Improvement = Static<typeof Improvement>;

/** Response of rephrase and correct. */
export const WriteResponse = Type.Object({ improvements: Type.Array(Improvement) }, { $id: 'WriteResponse' });
export type WriteResponse = Static<typeof WriteResponse>;
