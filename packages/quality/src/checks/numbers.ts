import type { Check, Finding } from '../finding.js';
import { maskLinks } from './links.js';
import { diffTokens } from './token-diff.js';

/** A number as written: digits with optional grouping or decimal separators (`1,234.5`, `1.234,5`, `1 234`). */
const NUMBER = /\p{Nd}+(?:[.,]\p{Nd}+|[\u00a0\u202f ]\p{Nd}{3}(?!\p{Nd}))*/gu;

interface NumberToken {
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Every number of the source must appear in the translation with the same value, whatever its notation
 * (numbers inside URLs and e-mail addresses excepted).
 */
export const checkNumbers: Check = (input) => {
  // Digits inside a URL or e-mail address are the link check's (one changed link is one issue).
  const source = findNumbers(maskLinks(input.maskedSource));
  const target = findNumbers(maskLinks(input.maskedTranslation));
  const { extra, missing } = diffTokens(source, target);
  const findings: Finding[] = [];
  let replacedCount = 0;
  for (const token of extra) {
    const replaced = missing[replacedCount];
    if (replaced) replacedCount++;
    findings.push({
      check: 'number_mismatch',
      severity: 'major',
      message:
        replaced === undefined
          ? `The number ${token.value} is not in the source.`
          : `The number ${token.value} differs from ${replaced.value} in the source.`,
      start: token.start,
      end: token.end,
      ...(replaced ? { source: { start: replaced.start, end: replaced.end } } : {}),
    });
  }
  for (const token of missing.slice(replacedCount)) {
    findings.push({
      check: 'number_mismatch',
      severity: 'major',
      message: `The number ${token.value} of the source is missing.`,
      start: 0,
      end: input.translation.length,
      source: { start: token.start, end: token.end },
      absent: true,
    });
  }
  return findings;
};

function findNumbers(text: string): NumberToken[] {
  const tokens: NumberToken[] = [];
  for (const match of text.matchAll(NUMBER)) {
    tokens.push({ value: numericValue(match[0]), start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}

/**
 * The value of a written number, independent of notation: `1,234.50` and `1.234,50` and `1 234,5` → `1234.5`.
 * A separator followed by exactly three digits, when it is not the only kind of separator before a decimal
 * part, groups thousands; otherwise the last separator is the decimal mark.
 */
export function numericValue(written: string): string {
  const digits = written.replace(/\p{Nd}/gu, (digit) => String(digitValue(digit)));
  const parts = digits.split(/[.,\u00a0\u202f ]/);
  const separators = digits.match(/[.,\u00a0\u202f ]/g) ?? [];
  if (separators.length === 0) return trimZeros(digits, '');
  const last = parts.at(-1)!;
  const lastSeparator = separators.at(-1)!;
  const mixed = new Set(separators).size > 1;
  const grouping = /[\u00a0\u202f ]/.test(lastSeparator) || (!mixed && last.length === 3);
  if (grouping) return trimZeros(parts.join(''), '');
  return trimZeros(parts.slice(0, -1).join(''), last);
}

function digitValue(digit: string): number {
  // Unicode decimal digits come in runs of ten (ASCII, Arabic-Indic, fullwidth...): walk back to the run's zero.
  const code = digit.codePointAt(0)!;
  let zero = code;
  while (zero > code - 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
  return code - zero;
}

function trimZeros(integer: string, fraction: string): string {
  const whole = integer.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  return decimals ? `${whole}.${decimals}` : whole;
}
