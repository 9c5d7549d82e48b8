/**
 * The tokens of a translation that the source does not have (`extra`, in order) and the source's tokens the
 * translation lacks (`missing`), compared as multisets of values: a value said twice must appear twice.
 */
export function diffTokens<T extends { readonly value: string; readonly start?: number }>(
  source: readonly T[],
  target: readonly T[],
): { extra: T[]; missing: T[] } {
  // Each value's occurrences in the source and how many the translation has used (first to last): linear.
  const unmatched = new Map<string, { tokens: T[]; used: number }>();
  for (const token of source) {
    const known = unmatched.get(token.value);
    if (known) known.tokens.push(token);
    else unmatched.set(token.value, { tokens: [token], used: 0 });
  }
  const extra: T[] = [];
  for (const token of target) {
    const left = unmatched.get(token.value);
    // The source's occurrences are matched first to last; those left over are the missing ones.
    if (left && left.used < left.tokens.length) left.used++;
    else extra.push(token);
  }
  const missing = [...unmatched.values()]
    .flatMap((left) => left.tokens.slice(left.used))
    .sort((a, b) => sourceOrder(a) - sourceOrder(b));
  return { extra, missing };
}

const sourceOrder = (token: { readonly start?: number }) => token.start ?? 0;
