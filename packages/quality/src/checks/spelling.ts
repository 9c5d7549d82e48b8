import type { Check, Finding } from '../finding.js';

/** A word: letters and marks, held together by inner apostrophes and hyphens (`aujourd'hui`, `week-end`). */
const WORD = /[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*/gu;

/**
 * Words of the translation the injected spelling check rejects. Words also found in the source (names,
 * brands, code), words written in capitals or mixed with digits, and single letters are not checked.
 */
export const checkSpelling: Check = (input) => {
  const findings: Finding[] = [];
  const spelling = input.options.spelling;
  if (!spelling) return findings;
  const sourceWords = new Set([...input.maskedSource.matchAll(WORD)].map((match) => match[0].toLowerCase()));
  for (const match of input.maskedTranslation.matchAll(WORD)) {
    const word = match[0];
    if ([...word].length < 2 || sourceWords.has(word.toLowerCase())) continue;
    if (word === word.toUpperCase() && word !== word.toLowerCase()) continue;
    const next = input.maskedTranslation[match.index + word.length] ?? '';
    const previous = input.maskedTranslation[match.index - 1] ?? '';
    if (/\p{N}/u.test(next) || /\p{N}/u.test(previous)) continue;
    if (spelling(word)) continue;
    findings.push({
      check: 'spelling',
      severity: 'minor',
      message: `"${word}" may be misspelled.`,
      start: match.index,
      end: match.index + word.length,
    });
  }
  return findings;
};
