import { type Static, Type } from '@sinclair/typebox';
import { LanguageCode, StringEnum, Uuid } from './common.js';

/** Issue categories of quality evaluation. */
export const QUALITY_CATEGORIES = [
  'accuracy',
  'untranslated',
  'terminology',
  'markup',
  'placeholder',
  'number',
  'punctuation',
  'whitespace',
  'spelling',
  'grammar',
  'length',
] as const;
export type QualityCategory = (typeof QUALITY_CATEGORIES)[number];

export const QUALITY_SEVERITIES = ['minor', 'major', 'critical'] as const;
export type QualitySeverity = (typeof QUALITY_SEVERITIES)[number];

/** POST /v3/quality/evaluate body. */
export const QualityEvaluateRequest = Type.Object(
  {
    source_lang: LanguageCode,
    target_lang: LanguageCode,
    segments: Type.Array(
      Type.Object({ source: Type.String(), translation: Type.String() }, { additionalProperties: false }),
      { minItems: 1 },
    ),
    glossary_id: Type.Optional(Uuid),
  },
  { $id: 'QualityEvaluateRequest', additionalProperties: false },
);
export type QualityEvaluateRequest = Static<typeof QualityEvaluateRequest>;

/**
 * An issue; `start`/`end` are code-point offsets into the translation (end exclusive); `check` names the
 * check that found it (`missing_tag`, `spelling`: the names of `@glossa/quality`, more may be added).
 */
export const QualityIssue = Type.Object({
  category: StringEnum(QUALITY_CATEGORIES),
  severity: StringEnum(QUALITY_SEVERITIES),
  message: Type.String(),
  start: Type.Integer({ minimum: 0 }),
  end: Type.Integer({ minimum: 0 }),
  check: Type.String({
    description: 'The check that found the issue, e.g. missing_tag (more may be added).',
  }),
});
export type QualityIssue = Static<typeof QualityIssue>;

/** One entry per request segment, in order. */
export const QualityEvaluateResponse = Type.Object(
  { segments: Type.Array(Type.Object({ issues: Type.Array(QualityIssue) })) },
  { $id: 'QualityEvaluateResponse' },
);
export type QualityEvaluateResponse = Static<typeof QualityEvaluateResponse>;
