import { DETECTION_LANGUAGES, type DetectionLanguage } from '@glossa/protocol';
import type { LanguageIdentifier } from 'cld3-asm';

export const DETECTION_STATUSES = [
  'success',
  'insufficient_confidence',
  'unsupported_language',
  'no_language_detected',
] as const;
export type DetectionStatus = (typeof DETECTION_STATUSES)[number];

/** One element of `results` in the detect response: the language only when the status is `success`. */
export type DetectionResult =
  | { readonly detection_status: 'success'; readonly detected_language: DetectionLanguage }
  | { readonly detection_status: Exclude<DetectionStatus, 'success'> };

export interface LanguageDetectorOptions {
  /**
   * Lowest eld score the winning language needs (0..1, default 0.5) and the lead it needs over the runner-up
   * (default 0.04). Below either, the answer is `insufficient_confidence`.
   */
  readonly minScore?: number;
  readonly minMargin?: number;
}

export interface LanguageDetector {
  detect(text: string): DetectionResult;
  close(): void;
}

/** eld's codes for our languages: eld names Norwegian `no` and has no Indonesian. */
const ELD_CODES = DETECTION_LANGUAGES.filter((code) => code !== 'id').map((code) =>
  code === 'nb' ? 'no' : code,
);
const FROM_ELD: Readonly<Record<string, DetectionLanguage>> = { no: 'nb' };
/** cld3's codes that differ from ours (cld3 writes old ISO codes for Hebrew and generic Norwegian). */
const FROM_CLD3: Readonly<Record<string, string>> = { iw: 'he', no: 'nb', 'zh-Latn': 'zh', 'ja-Latn': 'ja' };
const SUPPORTED = new Set<string>(DETECTION_LANGUAGES);
const LETTER = /\p{L}/u;

/** Letters some close languages never use: a text holding one is not in those languages. */
const EXCLUDING_LETTERS: readonly (readonly [RegExp, readonly string[]])[] = [
  [/[ыэё]/iu, ['uk', 'bg']],
  [/[іїєґ]/iu, ['ru', 'bg']],
  [/[ñ¿¡]/iu, ['pt', 'it', 'fr']],
  [/[ãõ]/iu, ['es', 'it', 'fr']],
];

/**
 * Frequent Indonesian function words. eld has no Indonesian and cld3 is unsure on short texts, so when
 * neither is sure of another language and most words are these, the text is Indonesian (or Malay).
 */
const INDONESIAN_WORDS = new Set(
  (
    'yang dan di ke dari ini itu dengan untuk tidak saya aku kamu anda kita kami mereka dia ada akan sudah ' +
    'belum bisa dapat juga atau pada dalam mana apa siapa kapan bagaimana mengapa terima kasih atas tolong ' +
    'lagi sangat hari jam rumah tutup buka beli makan minum pergi datang baru besar kecil semua harus mau ' +
    'sedang masih karena jika kalau tetapi tapi lebih sekali banyak selamat pagi siang malam nya'
  ).split(' '),
);
/** URLs, e-mail addresses and @handles carry no language. */
const NOISE = /\bhttps?:\/\/\S+|\bwww\.\S+|\S+@\S+\.\S+|@\w+/gu;

/**
 * Loads the detectors once (eld's large n-gram database and the cld3 WebAssembly module) and returns a
 * synchronous detector. eld decides among our 33 languages (restricted with its language subset); cld3
 * covers Indonesian, which eld lacks, and recognizes languages outside the 33 (`unsupported_language`).
 */
export async function createLanguageDetector(
  options: LanguageDetectorOptions = {},
): Promise<LanguageDetector> {
  const minScore = options.minScore ?? 0.5;
  const minMargin = options.minMargin ?? 0.04;
  if (!(minScore >= 0 && minScore <= 1)) throw new RangeError(`Expected minScore in 0..1, got ${minScore}.`);
  if (!(minMargin >= 0 && minMargin <= 1))
    throw new RangeError(`Expected minMargin in 0..1, got ${minMargin}.`);
  // eld's large n-gram database and cld3's WebAssembly build are big modules: imported here, on first use,
  // not when the server starts.
  const { eld } = await import('eld/large');
  const { loadModule } = await import('cld3-asm');
  const restricted = eld.newInstance();
  restricted.setLanguageSubset(ELD_CODES);
  const cld3: LanguageIdentifier = (await loadModule()).create(0, 1000);

  function detect(text: string): DetectionResult {
    const cleaned = text.replace(NOISE, ' ');
    if (!LETTER.test(cleaned)) return { detection_status: 'no_language_detected' };
    const ranked = Object.entries(restricted.detect(cleaned).getScores())
      .filter(
        ([code]) =>
          !EXCLUDING_LETTERS.some(([letters, ruledOut]) => ruledOut.includes(code) && letters.test(cleaned)),
      )
      .sort((a, b) => b[1] - a[1]);
    const [best, second] = ranked;
    const narrow = best && (FROM_ELD[best[0]] ?? (best[0] as DetectionLanguage));
    const narrowConfident =
      best !== undefined && best[1] >= minScore && best[1] - (second?.[1] ?? 0) >= minMargin;
    // eld sure and well above the Indonesian rule's bar: cld3 could not change the answer, so it is not run.
    if (narrow && narrowConfident && best![1] > 0.7) return success(narrow);
    const wide = cld3.findLanguage(cleaned);
    const wideLanguage = FROM_CLD3[wide.language] ?? wide.language;
    const wideSure = wide.is_reliable && wide.probability >= 0.9;
    // Indonesian is cld3's alone; eld, lacking it, puts such text on some other language.
    if (wideLanguage === 'id' && wide.probability >= 0.5 && !(narrowConfident && best![1] > 0.7)) {
      return success('id');
    }
    if (narrow && narrowConfident) return success(narrow);
    // eld hesitates between close languages: cld3 naming its first choice settles it.
    if (narrow && wideLanguage === narrow && wide.probability >= 0.5) return success(narrow);
    if (wideSure && SUPPORTED.has(wideLanguage)) return success(wideLanguage as DetectionLanguage);
    if (!wideSure && looksIndonesian(cleaned)) return success('id');
    // cld3 is sure of a language outside ours (Swahili, Basque, Hindi...) and eld finds no good match.
    if (wideSure && (best?.[1] ?? 0) < 0.6) return { detection_status: 'unsupported_language' };
    return insufficient();
  }

  return { detect, close: () => cld3.dispose() };
}

function looksIndonesian(text: string): boolean {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 2 || words.some((word) => !/^[a-z]+$/.test(word))) return false;
  const known = words.filter(
    (word) => INDONESIAN_WORDS.has(word) || INDONESIAN_WORDS.has(word.replace(/nya$/, '')),
  );
  return known.length * 2 >= words.length;
}

function success(language: DetectionLanguage): DetectionResult {
  return { detection_status: 'success', detected_language: language };
}

function insufficient(): DetectionResult {
  return { detection_status: 'insufficient_confidence' };
}
