import type { Check, Finding } from '../finding.js';
import { diffTokens } from './token-diff.js';

/**
 * URLs (`https://…`, `www.…`) and e-mail addresses. A final full stop, comma, colon, semicolon, quote or
 * bracket belongs to the sentence, not to the address.
 */
const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"'«»“”]+/giu;
/** An e-mail address's local part (one character) and its domain, read from right after the `@`. */
const LOCAL = /[\p{L}\p{N}._%+-]/u;
const DOMAIN = /[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/uy;
const TRAILING_MARK = /[.,:;!?)\]}'"’»”]/u;

interface LinkToken {
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

interface LinkMatch {
  readonly start: number;
  /** End of the whole match, closing punctuation included. */
  readonly end: number;
}

/**
 * Links left to right as one pattern `URL|local@domain` would find them (at one place a URL first), in
 * linear time: an e-mail address is found from its `@` (the pattern tried every start of a long word, and
 * a 100 KB word took 28 s).
 */
function linkMatches(text: string): LinkMatch[] {
  const found: LinkMatch[] = [];
  let cursor = 0;
  let url: LinkMatch | undefined;
  /** The next URL starting at or after `cursor` (searched again only when the last one was passed). */
  let noMoreUrls = false;
  const nextUrl = (): LinkMatch | undefined => {
    if (url && url.start >= cursor) return url;
    // A search that found nothing needs no repeating (it would scan the rest of the text for each link).
    if (noMoreUrls) return undefined;
    URL_PATTERN.lastIndex = cursor;
    const match = URL_PATTERN.exec(text);
    url = match ? { start: match.index, end: match.index + match[0].length } : undefined;
    noMoreUrls = url === undefined;
    return url;
  };
  let at = text.indexOf('@');
  let mail: LinkMatch | undefined;
  /** The next e-mail address starting at or after `cursor`. */
  const nextMail = (): LinkMatch | undefined => {
    if (mail && mail.start >= cursor) return mail;
    mail = undefined;
    if (at !== -1 && at < cursor) at = text.indexOf('@', cursor);
    while (at !== -1) {
      let start = at;
      while (start > cursor) {
        // A letter outside the BMP is two units; the pattern reads code points.
        const width = start - 2 >= cursor && isLow(text, start - 1) ? 2 : 1;
        if (!LOCAL.test(text.slice(start - width, start))) break;
        start -= width;
      }
      DOMAIN.lastIndex = at + 1;
      const domain = start < at ? DOMAIN.exec(text) : null;
      if (domain) {
        mail = { start, end: at + 1 + domain[0].length };
        return mail;
      }
      at = text.indexOf('@', at + 1);
    }
    return undefined;
  };
  while (true) {
    const nextLink = nextUrl();
    const nextAddress = nextMail();
    if (!nextLink && !nextAddress) break;
    const taken = nextLink && (!nextAddress || nextLink.start <= nextAddress.start) ? nextLink : nextAddress!;
    found.push(taken);
    cursor = taken.end;
  }
  return found;
}

const isLow = (text: string, index: number) => {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
};

/** `value` without the closing punctuation it ends with (a backward scan, linear in long runs). */
const withoutTrailing = (value: string) => {
  let end = value.length;
  while (end > 0 && TRAILING_MARK.test(value[end - 1]!)) end--;
  return value.slice(0, end);
};

/** The URLs and e-mail addresses of a text, with their spans. */
export function findLinks(text: string): LinkToken[] {
  return linkMatches(text).map(({ start, end }) => {
    const value = withoutTrailing(text.slice(start, end));
    return { value, start, end: start + value.length };
  });
}

/** `text` with its URLs and e-mail addresses blanked out (same length, same offsets). */
export function maskLinks(text: string): string {
  const matches = linkMatches(text);
  if (matches.length === 0) return text;
  const pieces: string[] = [];
  let cursor = 0;
  for (const { start, end } of matches) {
    pieces.push(text.slice(cursor, start), ' '.repeat(end - start));
    cursor = end;
  }
  pieces.push(text.slice(cursor));
  return pieces.join('');
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
  let replacedCount = 0;
  for (const token of extra) {
    const replaced = missing[replacedCount];
    if (replaced) replacedCount++;
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
  for (const token of missing.slice(replacedCount)) {
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
