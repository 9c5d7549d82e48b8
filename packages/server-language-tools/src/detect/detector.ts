import { DETECTION_LANGUAGES, type DetectionLanguage } from '@glossa/protocol';
import type { LanguageIdentifier } from 'cld3-asm';
import { createEld, type EldModel } from './eld-data.js';

export type { EldModel } from './eld-data.js';

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
  /** eld's n-gram database: `large` (default), `medium` or `small` (less memory; see docs/benchmarks.md). */
  readonly model?: EldModel;
}

export interface LanguageDetector {
  detect(text: string): DetectionResult;
  close(): void;
}

/** eld's codes that differ from ours: eld names Norwegian `no`; it has no Indonesian, and puts it on Malay. */
const FROM_ELD: Readonly<Record<string, string>> = { no: 'nb', ms: 'id' };
/**
 * cld3's codes that differ from ours (old ISO codes for Hebrew and Norwegian; Malay, which it cannot tell from
 * Indonesian on short texts, read as Indonesian).
 */
const FROM_CLD3: Readonly<Record<string, string>> = {
  iw: 'he',
  no: 'nb',
  ms: 'id',
  'zh-Latn': 'zh',
  'ja-Latn': 'ja',
};
const SUPPORTED = new Set<string>(DETECTION_LANGUAGES);
const LETTER = /\p{L}/gu;
/** Scripts where two letters already make a word: Han, kana, Hangul, Thai. */
const DENSE_SCRIPT = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}]/u;
/**
 * Fewer letters than this (two in dense scripts) and no language is called: "x" or "Hi" fit many languages
 * equally well.
 */
const MIN_LETTERS = 4;

/** Letters some close languages never use: a text holding one is not in those languages. */
const EXCLUDING_LETTERS: readonly (readonly [RegExp, readonly string[]])[] = [
  [/[ыэё]/iu, ['uk', 'bg']],
  [/[іїєґ]/iu, ['ru', 'bg']],
  [/[ñ¿¡]/iu, ['pt', 'it', 'fr']],
  [/[ãõ]/iu, ['es', 'it', 'fr']],
  // Persian's own letters (and its yeh and keheh): not Arabic.
  [/[پچژگیک]/u, ['ar']],
  // Croatian and Serbian Latin letters: not Slovene.
  [/[ćđ]/iu, ['sl']],
  // Afrikaans words Dutch does not have (its negation, "I", "very", "you", "this"): not Dutch.
  [/(?:^|\P{L})(?:nie|ek|baie|jy|hierdie)(?:\P{L}|$)/iu, ['nl']],
];
/**
 * Letters none of the 33 languages writes: Esperanto's circumflexed consonants, Azerbaijani's schwa,
 * Belarusian's short u, Macedonian's and Serbian's own Cyrillic letters.
 */
const FOREIGN_LETTERS = /[ĉĝĥĵŝŭəўѓќѕћђ]/giu;

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
/**
 * Spellings where Danish and Norwegian Bokmål differ: -tion / -sjon, the participles -eret / -ert, -hed / -het,
 * soft / hard consonants (bruge / bruke, søge / søke, nøgle / nøkkel), æ / e (ændre / endre), op- / opp-, and
 * the small words af / av, efter / etter, hvad / hva, mig / meg, nu / nå, blev / ble, fejl / feil.
 */
const DANISH =
  /(?<!\p{L})(?:\p{L}+tion(?:en|er|erne)?|\p{L}+eret|\p{L}+erede|\p{L}+hed(?:en|er)?|bruge[rn]?|søge|nøgle[nr]?|ændr\p{L}*|opdat\p{L}*|af|efter|hvad|mig|dig|sig|nu|blev|fejl|købe)(?!\p{L})/iu;
const NORWEGIAN =
  /(?<!\p{L})(?:\p{L}+sjon(?:en|er|ene)?|\p{L}+ert|\p{L}+erte|\p{L}+het(?:en|er)?|bruke[rn]?|søke|nøkkel(?:en)?|nøkler|endr\p{L}*|oppdat\p{L}*|av|etter|hva|meg|deg|seg|nå|ble|feil|kjøpe|ikkje)(?!\p{L})/iu;

/** URLs, e-mail addresses and @handles carry no language. */
const NOISE = /\bhttps?:\/\/\S+|\bwww\.\S+|\S+@\S+\.\S+|@\w+/gu;
/**
 * Nor do identifiers, in any language's text (Latin letters, digits, `_ . -`): a token with a digit or an
 * underscore (`v850e1`, `file_name`), one with a capital after a small letter (`OpenOffice`,
 * `PrevTimeLineID`), a call (`tkill(`).
 */
const IDENTIFIER =
  /[\p{sc=Latin}\d_.-]*[\d_][\p{sc=Latin}\d_.-]*|(?<![\p{L}\d_])\p{sc=Latin}*\p{Ll}\p{Lu}[\p{sc=Latin}\d_]*|\p{sc=Latin}+(?=\()/gu;
/** An acronym in capitals (`DNS`, `NOTZONE`), taken out only where the text also has words in small letters. */
const ACRONYM = /(?<![\p{L}\d_])[A-Z]{2,}(?![\p{L}\d_])/gu;
const SMALL_WORD = /\p{Ll}{2,}/u;

/** The scripts of the 33 languages; a script that writes only one of them names it. */
const SCRIPT_OF_ONE: readonly (readonly [RegExp, DetectionLanguage])[] = [
  [/[\p{sc=Hiragana}\p{sc=Katakana}]/gu, 'ja'],
  [/\p{sc=Hangul}/gu, 'ko'],
  [/\p{sc=Greek}/gu, 'el'],
  [/\p{sc=Thai}/gu, 'th'],
  [/\p{sc=Hebrew}/gu, 'he'],
];
/** Letters of the scripts the 33 languages write besides Latin. */
const OUR_OTHER_SCRIPTS =
  /[\p{sc=Cyrillic}\p{sc=Greek}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Arabic}\p{sc=Hebrew}\p{sc=Thai}]/gu;
const LATIN = /\p{sc=Latin}/gu;
/** Yiddish's double vav, vav yod, double yod, and alef with patah or kamats: not Hebrew. */
const YIDDISH = /[\u05f0-\u05f2\ufb1f\ufb2e\ufb2f]|\u05d0[\u05b7\u05b8]/u;
/** A run of Latin letters (a word, in a text without spaces a part of it). */
const LATIN_WORD = /\p{sc=Latin}[\p{sc=Latin}\p{M}'’-]*/gu;

/**
 * Loads the detectors once (eld's large n-gram database and the cld3 WebAssembly module) and returns a
 * synchronous detector. Both detectors rank all the languages they know, not only our 33: a text whose best
 * match lies outside the 33 (Persian, Croatian, Catalan for eld; Afrikaans, Esperanto, Galician, Welsh for
 * cld3) is `unsupported_language`, never its nearest supported neighbour. Among the 33, eld decides and cld3
 * breaks its ties and covers Indonesian, which eld lacks.
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
  // eld's database is read as JSON (eld-data.ts): a third of the memory of importing its module.
  const full = await createEld(options.model ?? 'large');
  const { loadModule } = await import('cld3-asm');
  const cld3: LanguageIdentifier = (await loadModule()).create(0, 1000);

  function detect(text: string): DetectionResult {
    const withoutNoise = text.replace(NOISE, ' ');
    if ((withoutNoise.match(LETTER)?.length ?? 0) === 0) return { detection_status: 'no_language_detected' };
    let cleaned = withoutNoise.replace(IDENTIFIER, ' ');
    if (SMALL_WORD.test(cleaned)) cleaned = cleaned.replace(ACRONYM, ' ');
    const all = cleaned.match(LETTER)?.length ?? 0;
    const latin = cleaned.match(LATIN)?.length ?? 0;
    const ours = cleaned.match(OUR_OTHER_SCRIPTS)?.length ?? 0;
    // Letters of a script none of the 33 writes (Devanagari, Tamil, Georgian, Armenian...), and more of them
    // than of ours: the text is in a language outside them.
    if (all - latin - ours >= 2 && all - latin - ours >= ours) return unsupported();
    // A text in another script carries Latin words as names and terms ("ROM של Game Boy Advance", "сбой
    // assuaninquire"): the language is the other script's.
    if (ours >= 2 && latin > 0) cleaned = cleaned.replace(LATIN_WORD, ' ');
    for (const [script, language] of SCRIPT_OF_ONE) {
      const count = cleaned.match(script)?.length ?? 0;
      // Kana beside Han is Japanese however many kanji there are; the others must be most of the letters.
      // Hebrew letters may also be Yiddish, known by its own ligatures and pointed alef.
      if (count >= 2 && (language === 'ja' || count * 2 > ours)) {
        if (language === 'he' && YIDDISH.test(cleaned)) return unsupported();
        return success(language);
      }
    }
    const letters = cleaned.match(LETTER)?.length ?? 0;
    if (letters === 0) return insufficient();
    if (letters < (DENSE_SCRIPT.test(cleaned) ? 2 : MIN_LETTERS)) return insufficient();
    const foreign = cleaned.match(FOREIGN_LETTERS)?.length ?? 0;
    if (foreign > 0 && foreign * 60 >= letters) return unsupported();
    // eld's ranking over all its languages, Malay folded into Indonesian (the best score of the two).
    const scores = new Map<string, number>();
    for (const [code, score] of Object.entries(full.detect(cleaned).getScores())) {
      const language = FROM_ELD[code] ?? code;
      if (EXCLUDING_LETTERS.some(([chars, out]) => out.includes(language) && chars.test(cleaned))) continue;
      scores.set(language, Math.max(score, scores.get(language) ?? 0));
    }
    const ranked = [...scores].sort((a, b) => b[1] - a[1]);
    const supported = ranked.filter(([code]) => SUPPORTED.has(code));
    const wide = cld3.findLanguage(cleaned);
    const wideLanguage = FROM_CLD3[wide.language] ?? wide.language;
    const wideSure = wide.is_reliable && wide.probability >= 0.9;
    const [top, runnerUp] = ranked;
    const [best, second] = supported;
    const bestScore = best?.[1] ?? 0;
    const narrowConfident =
      best !== undefined && bestScore >= minScore && bestScore - (second?.[1] ?? 0) >= minMargin;

    // Outside the 33. eld's best match is another language it knows, clearly ahead, and cld3 does not
    // vouch for one of ours...
    if (
      top !== undefined &&
      !SUPPORTED.has(top[0]) &&
      top[1] >= minScore &&
      top[1] - (runnerUp?.[1] ?? 0) >= minMargin &&
      !(wideSure && SUPPORTED.has(wideLanguage))
    ) {
      return unsupported();
    }
    // ...or cld3 is sure of a language outside ours and eld finds no strong match among ours.
    if (wideSure && !SUPPORTED.has(wideLanguage) && !(narrowConfident && bestScore >= 0.75))
      return unsupported();
    // Neither is sure of one of ours, and cld3 leans to a language outside them.
    // (Not on one or two words: cld3 leans somewhere on any text, "hello world" included.)
    const wordCount = cleaned.split(/\s+/u).filter((word) => /\p{L}/u.test(word)).length;
    if (!narrowConfident && !SUPPORTED.has(wideLanguage) && wide.probability >= 0.7 && wordCount > 2) {
      return unsupported();
    }

    // Danish and Norwegian Bokmål share most words; their spellings tell them apart where they differ.
    // Only where the choice is between the two: eld ranks them first and second, or ranks one first and
    // cld3 names one of them.
    const pair = new Set(['da', 'nb']);
    const betweenTwo =
      best !== undefined &&
      pair.has(best[0]) &&
      ((second !== undefined && pair.has(second[0])) || pair.has(wideLanguage));
    if (betweenTwo) {
      const danish = DANISH.test(cleaned);
      const norwegian = NORWEGIAN.test(cleaned);
      if (danish !== norwegian) return success(danish ? 'da' : 'nb');
    }
    const narrow = best?.[0] as DetectionLanguage | undefined;
    // One word in an alphabet shared by many languages ("Hello", "Danke"): both detectors must agree.
    if (!DENSE_SCRIPT.test(cleaned) && !/\p{L}\P{L}+\p{L}/u.test(cleaned.trim())) {
      return narrow && narrowConfident && wideLanguage === narrow ? success(narrow) : insufficient();
    }
    if (narrow && narrowConfident && bestScore > 0.7) return success(narrow);
    if (wideLanguage === 'id' && wide.probability >= 0.5 && !(narrowConfident && bestScore > 0.7)) {
      return success('id');
    }
    if (narrow && narrowConfident) return success(narrow);
    // eld hesitates between close languages: cld3 naming its first choice settles it.
    if (narrow && wideLanguage === narrow && wide.probability >= 0.5) return success(narrow);
    if (wideSure && SUPPORTED.has(wideLanguage)) return success(wideLanguage as DetectionLanguage);
    if (!wideSure && looksIndonesian(cleaned)) return success('id');
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

function unsupported(): DetectionResult {
  return { detection_status: 'unsupported_language' };
}

function insufficient(): DetectionResult {
  return { detection_status: 'insufficient_confidence' };
}
