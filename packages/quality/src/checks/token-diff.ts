/**
 * The tokens of a translation that the source does not have (`extra`, in order) and the source's tokens the
 * translation lacks (`missing`), compared as multisets of values: a value said twice must appear twice.
 */
export function diffTokens<T extends { readonly value: string }>(
  source: readonly T[],
  target: readonly T[],
): { extra: T[]; missing: string[] } {
  const unmatched = new Map<string, number>();
  for (const token of source) unmatched.set(token.value, (unmatched.get(token.value) ?? 0) + 1);
  const extra: T[] = [];
  for (const token of target) {
    const left = unmatched.get(token.value) ?? 0;
    if (left > 0) unmatched.set(token.value, left - 1);
    else extra.push(token);
  }
  const missing = [...unmatched].flatMap(([value, left]) => Array<string>(left).fill(value));
  return { extra, missing };
}
