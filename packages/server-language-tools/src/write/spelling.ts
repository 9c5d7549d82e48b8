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

/**
 * Characters that, right next to a word, make it part of something that is not a word of the language: a
 * code or identifier (`Krb5ticket`, `close-on-exec`, `file_name`, `a.b`), an elided form (`dell'hash`,
 * `qualcos'altro`, whose first part is no word on its own).
 */
const ATTACHED = /[\p{N}_\-/.@'’]/u;

/** Whether a word at `start` of `text` is one the spelling fixer may touch. */
export function isCheckable(text: string, word: string, start: number, nounsCapitalized = false): boolean {
  if (/\d/.test(word) || (word.length > 1 && word === word.toUpperCase())) return false;
  const chars = Array.from(text);
  const before = chars[start - 1] ?? ' ';
  const after = chars[start + Array.from(word).length] ?? ' ';
  // A full stop after the word ends the sentence; one before it ("a.b") belongs to a code.
  // (After an apostrophe is a word: "l’ombrelo". Before one is an elided form: "dell'", "qualcos'".)
  if ((ATTACHED.test(before) && !/['’]/u.test(before)) || (after !== '.' && ATTACHED.test(after)))
    return false;
  if (after === '.' && /\p{L}/u.test(chars[start + Array.from(word).length + 1] ?? '')) return false;
  const capitalized = word[0] !== word[0]?.toLowerCase();
  // German compound nouns are where the dictionary is thinnest ("Ganzzahl" → "Glanzzahl"): left alone.
  if (capitalized && nounsCapitalized) return Array.from(word).length < 8;
  return !capitalized || startsSentence(text, start);
}
