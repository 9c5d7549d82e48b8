/**
 * The tokens of a translation that the source does not have (`extra`, in order) and the source's tokens the
 * translation lacks (`missing`), compared as multisets of values: a value said twice must appear twice.
 */
export function diffTokens<T extends { readonly value: string; readonly start?: number }>(
  source: readonly T[],
  target: readonly T[],
): { extra: T[]; missing: T[] } {
  const unmatched = new Map<string, T[]>();
  for (const token of source) unmatched.set(token.value, [...(unmatched.get(token.value) ?? []), token]);
  const extra: T[] = [];
  for (const token of target) {
    const left = unmatched.get(token.value);
    // The source's occurrences are matched first to last; those left over are the missing ones.
    if (left && left.length > 0) left.shift();
    else extra.push(token);
  }
  const missing = [...unmatched.values()].flat().sort((a, b) => sourceOrder(a) - sourceOrder(b));
  return { extra, missing };
}

const sourceOrder = (token: { readonly start?: number }) => token.start ?? 0;
