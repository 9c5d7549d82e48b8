/** Precision and recall of corrections, counted on edits: the token spans changed between two sentences. */

const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)*|\S/gu;

/** The edits turning `from` into `to`, as `start:end:replacement` in tokens of `from` (LCS alignment). */
export function edits(from: string, to: string): Set<string> {
  const a = from.match(TOKEN) ?? [];
  const b = to.match(TOKEN) ?? [];
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const found = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const start = i;
    const replacement: string[] = [];
    while ((i < a.length || j < b.length) && !(i < a.length && j < b.length && a[i] === b[j])) {
      if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) replacement.push(b[j++]!);
      else i++;
    }
    found.add(`${start}:${i}:${replacement.join(' ')}`);
  }
  return found;
}

export interface Score {
  made: number;
  needed: number;
  correct: number;
  exact: number;
  sentences: number;
}

export function emptyScore(): Score {
  return { made: 0, needed: 0, correct: 0, exact: 0, sentences: 0 };
}

export function addSentence(score: Score, flawed: string, expected: string, output: string): void {
  const needed = edits(flawed, expected);
  const made = edits(flawed, output);
  score.needed += needed.size;
  score.made += made.size;
  for (const edit of made) if (needed.has(edit)) score.correct++;
  score.sentences++;
  if (output === expected) score.exact++;
}

export function describe(score: Score): string {
  const pct = (part: number, whole: number) =>
    whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;
  return `precision ${pct(score.correct, score.made)}, recall ${pct(score.correct, score.needed)}, exact sentences ${pct(score.exact, score.sentences)} (${score.made} edits made, ${score.needed} needed)`;
}
