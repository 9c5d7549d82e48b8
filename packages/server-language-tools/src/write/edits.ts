/** A replacement of the code points [start, end) of a text. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/**
 * Applies edits given in code points. Overlapping edits: the one starting first (then the longest) wins;
 * the others are dropped, and the next pass of the checker sees them again if they still apply.
 */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const chars = Array.from(text);
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Edit[] = [];
  let reached = -1;
  for (const edit of sorted) {
    if (edit.start < reached || (edit.start === reached && edit.start === edit.end)) continue;
    kept.push(edit);
    reached = Math.max(edit.end, edit.start + 1);
  }
  for (const edit of kept.reverse()) chars.splice(edit.start, edit.end - edit.start, edit.replacement);
  return chars.join('');
}

/** Optimal string alignment distance (Levenshtein plus adjacent transposition), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = Array.from(a.toLowerCase());
  const t = Array.from(b.toLowerCase());
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [
    i,
    ...Array<number>(t.length).fill(0),
  ]);
  for (let j = 1; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[s.length]![t.length]!;
}

/** `é` → `e`: the letters without their diacritics, lower-cased. */
export function withoutAccents(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The fix for a misspelled word the checker is confident of, or undefined. Only suggestions at most two
 * edits away count, and only for words of four letters or more (short words have too many neighbours).
 * Of the closest suggestions, the fix is the only one, or else the only one that is a typical typo undone
 * (two letters swapped, a letter doubled or undoubled); a suggestion differing only in accents always wins.
 */
export function confidentSpellingFix(word: string, suggestions: readonly string[]): string | undefined {
  const accentOnly = suggestions.find((s) => s !== word && withoutAccents(s) === withoutAccents(word));
  if (accentOnly !== undefined) return matchCase(word, accentOnly);
  if (Array.from(word).length < 4 || suggestions.length === 0) return undefined;
  const distances = suggestions.map((suggestion) => editDistance(word, suggestion));
  const nearest = Math.min(...distances);
  if (nearest > 2) return undefined;
  const closest = suggestions.filter((_, index) => distances[index] === nearest);
  if (closest.length === 1) return matchCase(word, closest[0]!);
  const typos = closest.filter((suggestion) => isTypicalTypo(word.toLowerCase(), suggestion.toLowerCase()));
  return typos.length === 1 ? matchCase(word, typos[0]!) : undefined;
}

/** `a` and `b` differ by two swapped neighbours, or by one letter doubled (`schnel` / `schnell`). */
function isTypicalTypo(a: string, b: string): boolean {
  if (a.length === b.length) {
    const diff = [...a].flatMap((char, index) => (char === b[index] ? [] : [index]));
    return (
      diff.length === 2 &&
      diff[1] === diff[0]! + 1 &&
      a[diff[0]!] === b[diff[1]!] &&
      a[diff[1]!] === b[diff[0]!]
    );
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  if (longer.length !== shorter.length + 1) return false;
  for (let index = 1; index < longer.length; index++) {
    if (longer[index] === longer[index - 1] && longer.slice(0, index) + longer.slice(index + 1) === shorter)
      return true;
  }
  return false;
}

/** Gives `replacement` the capital first letter of `original` (a sentence start stays capitalized). */
export function matchCase(original: string, replacement: string): string {
  const first = original[0] ?? '';
  if (first !== first.toLowerCase() && first === first.toUpperCase()) {
    return replacement.charAt(0).toUpperCase() + replacement.slice(1);
  }
  return replacement;
}

/**
 * Words of a text with code-point offsets: runs of letters and marks; with `joined`, inner apostrophes and
 * hyphens keep a word together (`don't`), without, they split it (`l’ombrello` → `l`, `ombrello`).
 */
export function words(text: string, joined = true): { word: string; start: number; end: number }[] {
  const found: { word: string; start: number; end: number }[] = [];
  const pattern = joined ? /[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*/gu : /[\p{L}\p{M}]+/gu;
  for (const match of text.matchAll(pattern)) {
    const start = Array.from(text.slice(0, match.index)).length;
    found.push({ word: match[0], start, end: start + Array.from(match[0]).length });
  }
  return found;
}

/** Whether the word at `start` begins a sentence (only spaces and quotes since the text start or a . ! ?). */
export function startsSentence(text: string, start: number): boolean {
  const before = Array.from(text).slice(0, start).join('');
  return /(^|[.!?¡¿…]\s*)["'«“(]*\s*$/u.test(before);
}
