import type { Check, Finding } from '../finding.js';
import { diffTokens } from './token-diff.js';

/**
 * URLs (`https://…`, `www.…`) and e-mail addresses. A final full stop, comma, colon, semicolon, quote or
 * bracket belongs to the sentence, not to the address.
 */
const LINK =
  /\b(?:https?:\/\/|www\.)[^\s<>"'«»“”]+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/giu;
const TRAILING = /[.,:;!?)\]}'"’»”]+$/u;

interface LinkToken {
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** The URLs and e-mail addresses of a text, with their spans. */
export function findLinks(text: string): LinkToken[] {
  const tokens: LinkToken[] = [];
  for (const match of text.matchAll(LINK)) {
    const value = match[0].replace(TRAILING, '');
    tokens.push({ value, start: match.index, end: match.index + value.length });
  }
  return tokens;
}

/** `text` with its URLs and e-mail addresses blanked out (same length, same offsets). */
export function maskLinks(text: string): string {
  return text.replace(LINK, (link) => ' '.repeat(link.length));
}

const kind = (value: string) =>
  value.includes('@') && !/^(?:https?:|www\.)/i.test(value) ? 'e-mail address' : 'URL';

/**
 * Every URL and e-mail address of the source must be in the translation exactly (an address is not
 * translated): a changed one is reported at the translation's address, a missing one over the whole
 * translation, an added one at itself.
 */
export const checkLinks: Check = (input) => {
  const source = findLinks(input.maskedSource);
  const target = findLinks(input.maskedTranslation);
  const { extra, missing } = diffTokens(source, target);
  const findings: Finding[] = [];
  for (const token of extra) {
    const replaced = missing.shift();
    findings.push({
      check: 'link_mismatch',
      severity: 'major',
      message:
        replaced === undefined
          ? `The ${kind(token.value)} ${token.value} is not in the source.`
          : `The ${kind(token.value)} ${token.value} differs from ${replaced.value} in the source.`,
      start: token.start,
      end: token.end,
      ...(replaced ? { source: { start: replaced.start, end: replaced.end } } : {}),
    });
  }
  for (const token of missing) {
    findings.push({
      check: 'link_mismatch',
      severity: 'major',
      message: `The ${kind(token.value)} ${token.value} of the source is missing.`,
      start: 0,
      end: input.translation.length,
      source: { start: token.start, end: token.end },
      absent: true,
    });
  }
  return findings;
};
