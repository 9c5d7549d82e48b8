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

export function tokenDistance(a: readonly string[], b: readonly string[]): number {
  if (a.length < b.length) [a, b] = [b, a];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

export function matchScore(
  text: string,
  tokens: readonly string[],
  segment: string,
  segmentTokens: readonly string[],
): number {
  if (exactKey(text) === exactKey(segment)) return 100;
  const longest = Math.max(tokens.length, segmentTokens.length);
  if (longest === 0) return 0;
  const score = Math.floor(100 * (1 - tokenDistance(tokens, segmentTokens) / longest));
  return Math.min(score, 99);
}

/**
 * The fewest tokens a segment must share with a text of `length` tokens to reach `threshold`: with
 * `s` shared tokens the distance is at least `max(length, other) − s`.
 */
export function minimumShared(length: number, threshold: number): number {
  return Math.max(1, Math.ceil((length * threshold) / 100));
}
