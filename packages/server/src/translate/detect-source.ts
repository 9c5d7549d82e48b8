/**
 * Source-language detection for translate requests without `source_lang`: an offline n-gram detector
 * (`eld`, its smallest database, loaded on first use). The detector ranks every language it knows, not only
 * those that reach the target: German sent to Spanish is German, and the caller learns that no engine
 * translates it, rather than getting it back untranslated as "Portuguese". A text too short to judge is
 * taken as English when English reaches the target. `/v3/detect/language` has its own detector.
 */

export interface SourceDetector {
  /**
   * The language of `text` (a base code): one of `candidates` (the sources that reach the target) when the
   * text fits one of them about as well as any language; otherwise the language it is in, which no engine
   * translates to the target; undefined when nothing scores.
   */
  detect(text: string, candidates: ReadonlySet<string>): Promise<string | undefined>;
}

/** Languages the detector's database knows (eld, extrasmall), as the interface's codes (`no` is `nb`). */
export const DETECTABLE_LANGUAGES: ReadonlySet<string> = new Set(
  (
    'am ar az be bg bn ca cs da de el en es et eu fa fi fr gu he hi hr hu hy is it ja ka kn ko ku lo lt lv ml mr ' +
    'ms nb nl or pa pl pt ro ru sk sl sq sr sv ta te th tl tr uk ur vi yo zh'
  ).split(' '),
);

/**
 * How far (in eld's score) a language no engine serves must lead the best candidate before the text is
 * called that language. Close languages score near each other on short texts; a candidate within this
 * margin keeps the text.
 */
const LEAD = 0.08;

/**
 * Galician words that neither Spanish nor Portuguese writes. eld does not know Galician and puts it on
 * Spanish or Portuguese, whose engines garble it; one of these words in such a text makes it Galician.
 */
const GALICIAN_WORDS = new Set(
  'unha unhas dunha dunhas nunha nunhas coa coas tamén hoxe xente grazas vostede vostedes aínda ningunha xa'.split(
    ' ',
  ),
);

/** Where eld puts Galician text. */
const ROMANCE = new Set(['es', 'pt', 'it', 'ca']);

type Eld = { detect(text: string): { getScores(): Record<string, number>; isReliable(): boolean } };

export function createSourceDetector(): SourceDetector {
  let loading: Promise<Eld> | undefined;
  const load = () => {
    loading ??= import('eld/extrasmall').then((module) => module.eld as Eld);
    return loading;
  };
  return {
    async detect(text, candidates) {
      const eld = await load();
      const result = eld.detect(text);
      // Too little text to judge (a word or two) in the Latin alphabet: English, when it can reach the target,
      // is the likeliest source. (A short text in another script is not English.)
      const latin = !/[^\P{L}\p{sc=Latin}]/u.test(text);
      if (!result.isReliable() && latin && candidates.has('en')) return 'en';
      let best: string | undefined;
      let bestScore = 0;
      let top: string | undefined;
      let topScore = 0;
      for (const [eldCode, score] of Object.entries(result.getScores())) {
        const language = eldCode === 'no' ? 'nb' : eldCode;
        if (score > topScore) {
          top = language;
          topScore = score;
        }
        if (candidates.has(language) && score > bestScore) {
          best = language;
          bestScore = score;
        }
      }
      if (top !== undefined && ROMANCE.has(top) && !candidates.has('gl') && isGalician(text, top))
        return 'gl';
      if (top !== undefined && !candidates.has(top) && topScore - bestScore >= LEAD) return top;
      // eld does not know Welsh, Irish, Esperanto or Afrikaans and puts them on English: a longer "English"
      // text without a single English function word is not English.
      if (best === 'en' && !looksEnglish(text)) return undefined;
      return best;
    },
  };
}

/** The commonest English function words: eight words or more of English hold at least one. */
const ENGLISH_WORDS = new Set(
  (
    'the of to and with from for that this these those was were are have has been not will would can could ' +
    'should you your they their them what which when where there here how than then it its he she we my as be ' +
    'or on by at in'
  ).split(' '),
);

function looksEnglish(text: string): boolean {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return words.length < 8 || words.some((word) => ENGLISH_WORDS.has(word));
}

function isGalician(text: string, top: string): boolean {
  const words: readonly string[] = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.some((word) => GALICIAN_WORDS.has(word))) return true;
  if (top !== 'es' && top !== 'pt') return false;
  // Spanish's -ción with Portuguese's articles, or Spanish/Portuguese neighbours with `non`, `dun`: Galician.
  const articles = words.some((word) => word === 'o' || word === 'os');
  return (
    (articles && words.some((word) => /ci[óo]ns?$/.test(word))) ||
    words.includes('non') ||
    words.includes('dun')
  );
}
