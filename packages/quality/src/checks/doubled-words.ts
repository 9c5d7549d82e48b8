import { lowerCase } from '../case.js';
import type { Check, Finding } from '../finding.js';

const DOUBLED = /(?<![\p{L}\p{M}\p{N}])([\p{L}\p{M}]+)(\s+)\1(?![\p{L}\p{M}\p{N}])/giu;

/** Words that are correctly written twice in a row in some languages ("nous nous", "die die", "had had"). */
const LEGITIMATE_DOUBLES = new Set(['nous', 'vous', 'die', 'der', 'das', 'dat', 'had', 'that', 'is', 'ha']);

/** A word written twice in a row ("the the"), unless the source repeats a word too or the pair is grammatical. */
export const checkDoubledWords: Check = (input) => {
  const findings: Finding[] = [];
  if (input.maskedSource.search(DOUBLED) !== -1) return findings; // the source repeats on purpose ("very very"): so may the translation
  for (const match of input.maskedTranslation.matchAll(DOUBLED)) {
    const word = match[1]!;
    if (LEGITIMATE_DOUBLES.has(lowerCase(word, input.options.targetLang))) continue;
    const secondStart = match.index + word.length + match[2]!.length;
    findings.push({
      check: 'doubled_word',
      severity: 'minor',
      message: `The word "${word}" is written twice.`,
      start: secondStart,
      end: secondStart + word.length,
    });
  }
  return findings;
};
