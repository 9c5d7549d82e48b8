import { baseLanguage, canonicalLanguage } from '@glossa/protocol';
import type { SpellingCheck } from '@glossa/quality';
import { isEnglishWord, loadEnglishSpellers } from '../write/english-variants.js';
import { checkWords, HUNSPELL_DICTIONARIES, hasHunspell } from '../write/hunspell.js';

/**
 * Checks words with the Hunspell dictionary of a language: whether each is correct, in order. The default
 * asks this thread's Hunspell processes; a worker thread asks the main thread's (pool.ts).
 */
export type HunspellCheck = (dictionary: string, words: readonly string[]) => Promise<boolean[]>;

/** The Hunspell processes of this thread (write/hunspell.ts). */
export const checkWithHunspell: HunspellCheck = async (dictionary, words) =>
  (await checkWords(dictionary, words)).map((check) => check.correct);

/**
 * The spelling check `@glossa/quality` gets injected for a target language, or undefined when this server
 * has no dictionary for it: English from the dictionary-en / dictionary-en-gb packages (nspell), German,
 * Spanish, French, Italian and Portuguese from Hunspell. Hunspell is asynchronous, so the words of the
 * translations are checked first (with `hunspell`) and the returned function looks them up.
 */
export async function spellingCheckFor(
  targetLang: string,
  segments: readonly { readonly source: string; readonly translation: string }[],
  hunspell: HunspellCheck = checkWithHunspell,
): Promise<SpellingCheck | undefined> {
  const target = canonicalLanguage(targetLang) ?? targetLang;
  if (baseLanguage(target) === 'en') {
    const dialect = target === 'en-GB' ? 'en-GB' : 'en-US';
    await loadEnglishSpellers();
    return (word) => isEnglishWord(word, dialect);
  }
  const dictionary =
    target in HUNSPELL_DICTIONARIES ? target : baseLanguage(target) === 'pt' ? 'pt-BR' : baseLanguage(target);
  if (!hasHunspell(dictionary)) return undefined;
  // Only words the check will ask about: a word also in the segment's source is never checked, and
  // Hunspell's suggestions for a misspelling (computed whether wanted or not) can be slow.
  const word = /[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*/gu;
  const words = [
    ...new Set(
      segments.flatMap(({ source, translation }) => {
        const inSource = new Set((source.match(word) ?? []).map((found) => found.toLowerCase()));
        return (translation.match(word) ?? []).filter((found) => !inSource.has(found.toLowerCase()));
      }),
    ),
  ];
  const parts = [...new Set(words.flatMap((found) => found.split(/['’-]/)))];
  const [correct, correctParts] = await Promise.all([
    hunspell(dictionary, words),
    hunspell(dictionary, parts),
  ]);
  const knownPart = new Set(parts.filter((_, index) => correctParts[index]));
  const misspelled = new Set(
    words.filter((found, index) => {
      if (correct[index]) return false;
      // `week-end` is right when each part is; an elision (`all'ingresso`, `dov'è`) when the word after it is.
      if (found.includes('-') && found.split('-').every((part) => knownPart.has(part))) return false;
      const elided = found.split(/['’]/);
      return !(elided.length > 1 && knownPart.has(elided.at(-1)!));
    }),
  );
  return (word) => !misspelled.has(word);
}
