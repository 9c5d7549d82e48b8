import { applyEdits, confidentSpellingFix, type Edit } from './edits.js';
import { checkFrench } from './grammalecte.js';
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
    for (const error of grammar) {
      if (error.suggestions.length === 1 && !TYPOGRAPHY.has(error.type) && !HEDGED.test(error.message)) {
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
