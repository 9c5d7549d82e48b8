/**
 * Pseudo-localization, shared with the server's pseudo engine (`pseudoLocalize` lives in
 * @glossa/protocol). `createPseudoTranslator` runs it locally as a `Translator`, for layout checks and
 * pipeline tests without a service; codes come back untouched and nothing is billed.
 */
import { pseudoLocalize, type Translation } from '@glossa/protocol';
import type { Translator } from './translator.js';

export { pseudoLocalize };

export function createPseudoTranslator(): Translator {
  return {
    async translateText(texts, options): Promise<Translation[]> {
      return texts.map((text) => ({
        text: pseudoLocalize(text, options.targetLang),
        detected_source_language: (options.sourceLang ?? 'EN').toUpperCase(),
        billed_characters: 0,
      }));
    },
  };
}
