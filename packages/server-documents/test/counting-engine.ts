/** The real Apertium engine, counting the texts it is given (what a resumed job sends again). */
import { createApertiumEngine, type TranslationEngine } from '@glossa/server';

export function countingApertium(): { engine: TranslationEngine; texts: () => number } {
  const apertium = createApertiumEngine();
  let texts = 0;
  return {
    engine: {
      name: apertium.name,
      pairs: () => apertium.pairs(),
      fingerprint: (pair) => apertium.fingerprint(pair),
      supportsFormality: (target) => apertium.supportsFormality(target),
      async translate(input) {
        texts += input.texts.length;
        return apertium.translate(input);
      },
      close: () => apertium.close(),
    },
    texts: () => texts,
  };
}
