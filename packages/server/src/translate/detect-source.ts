/**
 * Source-language detection for translate requests without `source_lang`: an offline n-gram detector
 * (`eld`, its smallest database, loaded on first use). Only languages that can reach the requested target
 * are candidates; the best-scoring candidate wins, and a text too short to judge is taken as English. `/v3/detect/language` has its own detector.
 */

export interface SourceDetector {
  /** The most likely of `candidates` (base codes) for `text`, or undefined when none scores. */
  detect(text: string, candidates: ReadonlySet<string>): Promise<string | undefined>;
}

/** Languages the detector's database knows (eld, extrasmall), as the interface's codes (`no` is `nb`). */
export const DETECTABLE_LANGUAGES: ReadonlySet<string> = new Set(
  (
    'am ar az be bg bn ca cs da de el en es et eu fa fi fr gu he hi hr hu hy is it ja ka kn ko ku lo lt lv ml mr ' +
    'ms nb nl or pa pl pt ro ru sk sl sq sr sv ta te th tl tr uk ur vi yo zh'
  ).split(' '),
);

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
      // Too little text to judge (a word or two): English, when it can reach the target, is the likeliest source.
      if (!result.isReliable() && candidates.has('en')) return 'en';
      let best: string | undefined;
      let bestScore = 0;
      for (const [eldCode, score] of Object.entries(result.getScores())) {
        const language = eldCode === 'no' ? 'nb' : eldCode;
        if (candidates.has(language) && score > bestScore) {
          best = language;
          bestScore = score;
        }
      }
      return best;
    },
  };
}
