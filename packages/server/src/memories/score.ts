/**
 * The match score of a memory segment against a text: token edit distance.
 * Tokens are runs of letters, digits and marks (lower-cased, NFC), single characters of scripts written
 * without spaces (Han, kana, Thai, ...), and single punctuation characters; whitespace separates them.
 * score = floor(100 × (1 − distance / max(tokens of either side))), where distance is the Levenshtein
 * distance over tokens; a text equal to the segment after collapsing whitespace scores 100, and one whose
 * tokens are equal but whose text differs (case, spacing) scores 99.
 */

const TOKEN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}]|[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]/gu;

export function tokenize(text: string): string[] {
  return text.normalize('NFC').toLowerCase().match(TOKEN) ?? [];
}

/** The key exact matches are looked up by: whitespace collapsed and trimmed. */
export function exactKey(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

export function tokenDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length < b.length) [a, b] = [b, a];
  if (previousRow.length <= b.length) {
    previousRow = new Int32Array(b.length * 2 + 1);
    currentRow = new Int32Array(b.length * 2 + 1);
  }
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const token = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const cost = token === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** The score of two different texts from their tokens (at most 99). */
export function fuzzyScore(tokens: readonly string[], segmentTokens: readonly string[]): number {
  const longest = Math.max(tokens.length, segmentTokens.length);
  if (longest === 0) return 0;
  return Math.min(99, Math.floor(100 * (1 - tokenDistance(tokens, segmentTokens) / longest)));
}

export function matchScore(
  text: string,
  tokens: readonly string[],
  segment: string,
  segmentTokens: readonly string[],
): number {
  return exactKey(text) === exactKey(segment) ? 100 : fuzzyScore(tokens, segmentTokens);
}

/**
 * The fewest tokens a segment must share with a text of `length` tokens to reach `threshold`: with
 * `s` shared tokens the distance is at least `max(length, other) − s`.
 */
export function minimumShared(length: number, threshold: number): number {
  return Math.max(1, Math.ceil((length * threshold) / 100));
}
