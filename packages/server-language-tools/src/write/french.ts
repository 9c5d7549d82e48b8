import { applyEdits, confidentSpellingFix, type Edit } from './edits.js';
import { checkFrench, type FrenchError } from './grammalecte.js';
import { checkWords } from './hunspell.js';
import { isCheckable } from './spelling.js';

/** Grammalecte's typographic rule types (curly apostrophes, non-breaking spaces, spacing, ellipses, the space
 * between a number and its unit): house style, not errors, so `correct` leaves them. */
const TYPOGRAPHY = new Set(['apos', 'nbsp', 'esp', 'typo', 'unit']);

/** A message that makes its own fix conditional ("S’il s’agit d’un impératif, ...", "Si ‹Ko› est une unité
 * ..."): Grammalecte is not sure, so neither is `correct` ("Définit le délai" is not "Définis"). */
const HEDGED = /^(?:Si|S[’']il|S[’']ils)\s/u;

/**
 * Corrects French with Grammalecte: a grammar error is fixed when Grammalecte offers exactly one
 * suggestion (agreement, past participle, elision...) and does not hedge it; a spelling error when the fix
 * is confident. Two
 * passes, since fixing one agreement often reveals the next ("Les chat mange" → "Les chats mangent").
 */
export async function correctFrench(text: string): Promise<string> {
  let current = text;
  for (let pass = 0; pass < 2; pass++) {
    const { grammar, spelling } = await checkFrench(current);
    const chars = Array.from(current);
    const edits: Edit[] = [];
    const unsure = await nounsMisreadAsParticiples(current, grammar);
    for (const error of grammar) {
      if (error.suggestions.length === 1 && !TYPOGRAPHY.has(error.type) && !HEDGED.test(error.message)) {
        if (unsure.has(error)) continue;
        edits.push({ start: error.start, end: error.end, replacement: error.suggestions[0]! });
      }
    }
    for (const error of spelling) {
      const word = chars.slice(error.start, error.end).join('');
      if (!isCheckable(current, word, error.start)) continue;
      const fix = confidentSpellingFix(word, error.suggestions);
      if (fix !== undefined) edits.push({ start: error.start, end: error.end, replacement: fix });
    }
    if (edits.length === 0) break;
    current = applyEdits(current, edits);
  }
  return current;
}

/** Words after which French has a noun: articles, determiners, quantifiers and "de". */
const FRENCH_BEFORE_NOUN =
  /^(?:les|des|ces|mes|tes|ses|nos|vos|leurs|aux|plusieurs|quelques|le|la|l|un|une|ce|cet|cette|mon|ton|son|ma|ta|sa|notre|votre|leur|du|de|d)$/iu;

/**
 * Grammar fixes of a word ending in "é" after a determiner, where the word with an "e" more is a noun
 * ("musé" / "musée"): the writer meant the noun, and Grammalecte, reading a participle, would make it agree
 * as one ("les musé" → "musés", "de musé" → "muser") where the noun is "musées". Such a fix is left out
 * unless it is the noun itself ("musée", "musées").
 */
async function nounsMisreadAsParticiples(
  text: string,
  grammar: readonly FrenchError[],
): Promise<Set<FrenchError>> {
  const chars = Array.from(text);
  const candidates = grammar.filter((error) => {
    const word = chars.slice(error.start, error.end).join('');
    if (!/[^\s]é$/u.test(word) || error.suggestions.length !== 1) return false;
    if ([`${word}e`, `${word}es`].includes(error.suggestions[0]!)) return false;
    const previous = chars
      .slice(0, error.start)
      .join('')
      .match(/([\p{L}]+)['’]?\s*$/u)?.[1];
    return previous !== undefined && FRENCH_BEFORE_NOUN.test(previous);
  });
  if (candidates.length === 0) return new Set();
  const checks = await checkWords(
    'fr',
    candidates.map((error) => `${chars.slice(error.start, error.end).join('')}e`),
  );
  return new Set(candidates.filter((_, index) => checks[index]?.correct === true));
}
