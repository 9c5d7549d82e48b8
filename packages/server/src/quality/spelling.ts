import { baseLanguage, canonicalLanguage } from '@glossa/protocol';
import type { SpellingCheck } from '@glossa/quality';
import { isEnglishWord } from '../write/english-variants.js';
import { checkWords, HUNSPELL_DICTIONARIES, hasHunspell } from '../write/hunspell.js';

/**
 * The spelling check `@glossa/quality` gets injected for a target language, or undefined when this server
 * has no dictionary for it: English from the dictionary-en / dictionary-en-gb packages (nspell), German,
 * Spanish, French, Italian and Portuguese from Hunspell. Hunspell is asynchronous, so the words of the
 * translations are checked first and the returned function looks them up.
 */
export async function spellingCheckFor(
  targetLang: string,
  translations: readonly string[],
): Promise<SpellingCheck | undefined> {
  const target = canonicalLanguage(targetLang) ?? targetLang;
  if (baseLanguage(target) === 'en') {
    const dialect = target === 'en-GB' ? 'en-GB' : 'en-US';
    return (word) => isEnglishWord(word, dialect);
  }
  const dictionary =
    target in HUNSPELL_DICTIONARIES ? target : baseLanguage(target) === 'pt' ? 'pt-BR' : baseLanguage(target);
  if (!hasHunspell(dictionary)) return undefined;
  const words = [
    ...new Set(translations.flatMap((text) => text.match(/[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu) ?? [])),
  ];
  const checks = await checkWords(dictionary, words);
  const misspelled = new Set(words.filter((_, index) => !checks[index]!.correct));
  return (word) => !misspelled.has(word);
}
