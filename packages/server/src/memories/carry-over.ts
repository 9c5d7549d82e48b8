/**
 * Whether a fuzzy memory match can be used for a request, and how: the memory's target is used only when
 * every difference between the request and the memory's source can be carried into that target. Carried
 * are one-for-one replacements of a number, a code or a name (a token with a digit or a capital that
 * appears exactly once, as written, in the memory's target: "born in Yugoslavia" → "born in Albania").
 * Anything else (a word added or dropped, such as a negation; a number written in words; any other word
 * replaced) cannot be carried: the engine translates, and the match is still reported. A difference in
 * punctuation alone is no reason not to use the match; a different final mark is carried.
 */
import { tokenize } from './score.js';

const PUNCTUATION = /^[^\p{L}\p{N}\p{M}]$/u;

/** The memory's target adapted to the request, or undefined when a difference cannot be carried over. */
export function carryOver(request: string, memorySource: string, memoryTarget: string): string | undefined {
  const a = tokenize(memorySource);
  const b = tokenize(request);
  const hunks = differences(a, b);
  let target = memoryTarget;
  for (const { removed, added } of hunks) {
    // Punctuation only: the final mark follows the request ("!" for "."); others are the target language's own.
    if ([...removed, ...added].every((token) => PUNCTUATION.test(token))) {
      const last = memoryTarget.trimEnd().at(-1);
      if (
        removed.length === 1 &&
        added.length === 1 &&
        last !== undefined &&
        last === removed[0] &&
        memorySource.trimEnd().endsWith(last)
      ) {
        const end = target.trimEnd().length;
        target = target.slice(0, end - 1) + added[0] + target.slice(end);
      }
      continue;
    }
    if (removed.length !== 1 || added.length !== 1) return undefined;
    const from = originalToken(memorySource, removed[0]!);
    const to = originalToken(request, added[0]!);
    if (from === undefined || to === undefined) return undefined;
    if (!carriable(from) || !carriable(to)) return undefined;
    const occurrences = wholeTokenMatches(target, from);
    if (occurrences.length !== 1) return undefined;
    const at = occurrences[0]!;
    target = target.slice(0, at) + to + target.slice(at + from.length);
  }
  return target;
}

/** A number or code (holds a digit) or a name (starts with a capital, not only at a sentence start). */
function carriable(token: string): boolean {
  return /\p{N}/u.test(token) || /^\p{Lu}/u.test(token);
}

/** The token as written in `text` (tokens are lower-cased), or undefined when it is not found as a word. */
function originalToken(text: string, token: string): string | undefined {
  const lower = text.normalize('NFC').toLowerCase();
  for (const index of wholeTokenMatches(lower, token)) {
    return text.normalize('NFC').slice(index, index + token.length);
  }
  return undefined;
}

function wholeTokenMatches(text: string, token: string): number[] {
  const found: number[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(token, from);
    if (at < 0) return found;
    const before = text[at - 1] ?? ' ';
    const after = text[at + token.length] ?? ' ';
    if (!/[\p{L}\p{N}\p{M}]/u.test(before) && !/[\p{L}\p{N}\p{M}]/u.test(after)) found.push(at);
    from = at + 1;
  }
}

/** The token hunks turning `a` into `b` (LCS alignment): what was removed and what was added in each. */
function differences(a: readonly string[], b: readonly string[]): { removed: string[]; added: string[] }[] {
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const hunks: { removed: string[]; added: string[] }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const hunk = { removed: [] as string[], added: [] as string[] };
    while ((i < a.length || j < b.length) && !(i < a.length && j < b.length && a[i] === b[j])) {
      if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) hunk.added.push(b[j++]!);
      else hunk.removed.push(a[i++]!);
    }
    hunks.push(hunk);
  }
  return hunks;
}
