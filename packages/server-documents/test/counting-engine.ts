/**
 * The real Apertium engine, counting the texts it is given (what a resumed job sends again) and, for the
 * plain texts of the calls it answered, their code points (what the engine usage should hold).
 */
import { createApertiumEngine, type TranslationEngine } from '@glossa/server';

export function countingApertium(): {
  engine: TranslationEngine;
  texts: () => number;
  characters: () => number;
} {
  const apertium = createApertiumEngine();
  let texts = 0;
  let characters = 0;
  return {
    engine: {
      name: apertium.name,
      pairs: () => apertium.pairs(),
      fingerprint: (pair) => apertium.fingerprint(pair),
      supportsFormality: (target) => apertium.supportsFormality(target),
      async translate(input) {
        texts += input.texts.length;
        const outputs = await apertium.translate(input);
        if (!input.markup) for (const text of input.texts) characters += [...text].length;
        return outputs;
      },
      close: () => apertium.close(),
    },
    texts: () => texts,
    characters: () => characters,
  };
}
