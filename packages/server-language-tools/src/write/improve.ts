import { baseLanguage, canonicalLanguage, ERROR_CODES, withoutPreferPrefix } from '@glossa/protocol';
import { badRequest, ServiceError, unsupportedLanguage } from '@glossa/server/feature';
import { sharedLanguageDetector } from '../detect/shared.js';
import { startsSentence, words } from './edits.js';
import { correctEnglish } from './english.js';
import { correctFrench } from './french.js';
import { isLikelyEnglish } from './harper.js';
import { checkWords } from './hunspell.js';
import { type WriteLanguage, writeLanguage } from './languages.js';
import { convertPortuguese } from './portuguese-variants.js';
import { applyRewrite, TONE_REWRITES, WRITING_STYLE_REWRITES } from './rewrites.js';
import { correctSpelling } from './spelling.js';

export interface ImproveRequest {
  readonly texts: readonly string[];
  readonly targetLang: string;
  readonly mode: 'correct' | 'rephrase';
  readonly writingStyle?: string;
  readonly tone?: string;
}

export interface Improvement {
  text: string;
  detected_source_language: string;
  target_language: string;
}

/** Texts with fewer letters than this are too short to tell "another language" from "unsure". */
const MIN_LETTERS_FOR_LANGUAGE_CHECK = 20;

/**
 * Checks a write request against this server's languages and rules (400 otherwise) and returns the
 * rewrite to apply, before anything is billed.
 */
export function resolveWriteRequest(request: ImproveRequest): {
  language: WriteLanguage;
  rewrite: ReturnType<typeof pickRewrite>;
} {
  const code = canonicalLanguage(request.targetLang) ?? request.targetLang;
  const language = writeLanguage(code);
  // A style or tone where no rewrites exist is refused first, in the public wording, whether or not this
  // server corrects the language: `ja` with a tone is "Language ja does not support setting a tone".
  const rewrite = pickRewrite(request, code, language);
  if (!language) {
    throw unsupportedLanguage(
      `Value for 'target_lang' not supported by this server: '${request.targetLang}'. See GET /v3/languages?resource=write.`,
    );
  }
  return { language, rewrite };
}

/** `writing_style` / `tone` as the public service names them in its messages. */
const SETTING_NAMES = { writing_style: 'a writing style', tone: 'a tone' } as const;

function pickRewrite(request: ImproveRequest, code: string, language: WriteLanguage | undefined) {
  const [parameter, value, table] =
    request.writingStyle !== undefined
      ? (['writing_style', request.writingStyle, WRITING_STYLE_REWRITES] as const)
      : request.tone !== undefined
        ? (['tone', request.tone, TONE_REWRITES] as const)
        : (['writing_style', 'default', WRITING_STYLE_REWRITES] as const);
  const name = withoutPreferPrefix(value);
  if (language?.styles) return table[name];
  // `prefer_` values and `default` fall back to plain correction where styles are not supported.
  if (name === 'default' || value.startsWith('prefer_')) return undefined;
  throw badRequest(
    `Language ${code} does not support setting ${SETTING_NAMES[parameter]} ('${parameter}': '${value}'). Use a 'prefer_' value to fall back.`,
  );
}

/** Corrects (and for rephrase rewrites) each text, in request order. */
export async function improveTexts(request: ImproveRequest): Promise<Improvement[]> {
  const { language, rewrite } = resolveWriteRequest(request);
  const target = language.code;
  const detections = await (await sharedLanguageDetector()).detect(request.texts);
  for (const [index, text] of request.texts.entries()) {
    const result = detections[index]!;
    if (result.detection_status !== 'success' || result.detected_language === baseLanguage(target)) continue;
    const letters = text.match(/\p{L}/gu)?.length ?? 0;
    if (letters < MIN_LETTERS_FOR_LANGUAGE_CHECK) continue;
    // The checker's dictionary gets a say: short sentences and repeated short words can fool an n-gram
    // detector ("Tengo un familia grande." reads as Italian to it).
    if (language.checker === 'harper' && (await isLikelyEnglish(text))) continue;
    if (language.checker === 'hunspell' && (await mostlyKnownWords(text, target))) continue;
    throw badRequest(
      `The text is in '${result.detected_language}' but target_lang is '${target}': improving and translating in one request is not supported.`,
    );
  }
  const improved: Improvement[] = [];
  for (const text of request.texts) {
    let output = await correctText(text, language);
    if (rewrite && request.mode === 'rephrase') output = applyRewrite(output, rewrite);
    improved.push({ text: output, detected_source_language: baseLanguage(target), target_language: target });
  }
  return improved;
}

/**
 * Whether Hunspell of `language` knows at least four in five of the text's words (at least three words;
 * capitalized words inside a sentence, names mostly, are not counted): a learner's "Tengo un familia
 * grande." is Spanish, while Italian or Portuguese checked as Spanish stays far below ("Il governo ha
 * approvato una nuova legge": two of seven).
 */
async function mostlyKnownWords(text: string, language: string): Promise<boolean> {
  const counted = words(text)
    .filter(({ word, start }) => word[0] === word[0]?.toLowerCase() || startsSentence(text, start))
    .map(({ word }) => word);
  if (counted.length < 3) return false;
  const known = (await checkWords(language, counted)).filter((check) => check.correct).length;
  return known >= 0.8 * counted.length;
}

/** `correct` for one text in a write language, with that language's checker: what the route does per text. */
export async function correctText(text: string, language: WriteLanguage): Promise<string> {
  if (text.trim() === '') return text;
  try {
    switch (language.checker) {
      case 'harper':
        return await correctEnglish(text, language.code === 'en-GB' ? 'en-GB' : 'en-US');
      case 'grammalecte':
        return await correctFrench(text);
      case 'hunspell': {
        // Variant conversion first: the other variant's spellings are not misspellings to "correct".
        const converted = language.code.startsWith('pt-')
          ? await convertPortuguese(text, language.code as 'pt-BR' | 'pt-PT')
          : text;
        return await correctSpelling(converted, language.code);
      }
    }
  } catch (error) {
    throw new ServiceError(
      503,
      `Text improvement failed: ${(error as Error).message}`,
      ERROR_CODES.engineError,
      undefined,
      {
        cause: error,
      },
    );
  }
}
