import { applyEdits, confidentSpellingFix, type Edit, startsSentence, words } from './edits.js';
import { checkWords } from './hunspell.js';

/**
 * Corrects spelling with Hunspell: each misspelled word gets the checker's first suggestion when the fix is
 * confident (`confidentSpellingFix`). Names (a capital inside a sentence), acronyms and words with digits
 * are left alone.
 */
export async function correctSpelling(text: string, language: string): Promise<string> {
  // German capitalizes every noun: a capital says nothing about names there.
  const nounsCapitalized = language === 'de';
  const candidates = words(text, false).filter(({ word, start }) =>
    isCheckable(text, word, start, nounsCapitalized),
  );
  const checks = await checkWords(
    language,
    candidates.map((candidate) => candidate.word),
  );
  const edits: Edit[] = [];
  checks.forEach((check, index) => {
    const { word, start, end } = candidates[index]!;
    if (check.correct) return;
    const fix = confidentSpellingFix(word, check.suggestions);
    if (fix !== undefined) edits.push({ start, end, replacement: fix });
  });
  return applyEdits(text, edits);
}

/** Whether a word at `start` of `text` is one the spelling fixer may touch. */
export function isCheckable(text: string, word: string, start: number, nounsCapitalized = false): boolean {
  if (/\d/.test(word) || (word.length > 1 && word === word.toUpperCase())) return false;
  const capitalized = word[0] !== word[0]?.toLowerCase();
  return !capitalized || nounsCapitalized || startsSentence(text, start);
}
