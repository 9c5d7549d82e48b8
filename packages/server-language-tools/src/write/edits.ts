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

/** How a language's spelling bears on which fix is confident (`confidentSpellingFix`). */
export interface FixOptions {
  /**
   * A lower-case word may become the same word capitalized, when that is the only change: English "monday" →
   * "Monday", a German noun after its article ("meinem beruf" → "Beruf"). Elsewhere a capital makes a name
   * ("como" → "Como", "baccio" → "Baccio") or another part of speech (German "bitte antwort" is "antworte",
   * not "Antwort"). Default true.
   */
  readonly capitalize?: boolean;
  /**
   * Whether a fix that only adds or changes accents wins over other suggestions as close. True where accents
   * are marks on a letter (Spanish, Italian, Portuguese, French); false for German, whose ä, ö, ü are letters
   * of their own: "durft" is "durfte" as much as "dürft", "ander" is "andere", "anders" or "änder". Default true.
   */
  readonly accentsDecide?: boolean;
}

/**
 * The fix for a misspelled word the checker is confident of, or undefined. Only suggestions at most two
 * edits away count, only for words of four letters or more (short words have too many neighbours), and only
 * one word for one word starting with the same letter: a misspelling is never split into two real words
 * ("successfull" → "success full") nor turned into another word that merely looks alike ("grosser" →
 * "krosser"). The fix is the only closest suggestion, and when the checker had other ideas too, it must be a
 * typical typo undone
 * (two letters swapped, a letter doubled or undoubled, accents): "mortió" is not "mordió".
 * Several as close: no fix. A lower-case word never
 * becomes a capitalized one (a name). Two suggestions that put the word's accents elsewhere leave the accent
 * in question ("légitimo": "legitimo" or "legítimo"?): no fix.
 */
export function confidentSpellingFix(
  word: string,
  suggestions: readonly string[],
  options: FixOptions = {},
): string | undefined {
  if (Array.from(word).length < 4 || suggestions.length === 0) return undefined;
  const { capitalize = true, accentsDecide = true } = options;
  const first = withoutAccents(word).charAt(0);
  const usable = suggestions.filter(
    (suggestion) =>
      suggestion !== word &&
      !/[\s'’-]/u.test(suggestion) &&
      withoutAccents(suggestion).charAt(0) === first &&
      // An ñ the writer typed is meant: ñ is a letter, not an accented n ("montaños" is not "montanos"),
      // while a missing tilde is a typo ("pequeno" → "pequeño").
      countEnye(suggestion) >= countEnye(word) &&
      // A lower-case word does not become a name ("ignor" → "Igor"), nor, where capitals are not spelling,
      // the same word capitalized.
      !(
        word === word.toLowerCase() &&
        suggestion !== suggestion.toLowerCase() &&
        (suggestion.toLowerCase() !== word || !capitalize)
      ),
  );
  if (usable.length === 0) return undefined;
  const distances = usable.map((suggestion) => editDistance(word, suggestion));
  const nearest = Math.min(...distances);
  if (nearest > 2) return undefined;
  const closest = usable.filter((_, index) => distances[index] === nearest);
  const typos = closest.filter((suggestion) => isTypicalTypo(word.toLowerCase(), suggestion.toLowerCase()));
  // The suggestions that are the word with other accents ("trés" → "très"; "speró": "sperò" and "spero").
  const accents = usable.filter(
    (suggestion) =>
      withoutAccents(suggestion) === withoutAccents(word) && suggestion.toLowerCase() !== word.toLowerCase(),
  );
  // Two of them: where the accent goes is the question, not a typo ("légitimo": "legitimo", "legítimo"?).
  if (accents.length > 1) return undefined;
  if (accentsDecide && accents.length === 1 && closest.includes(accents[0]!))
    return matchCase(word, accents[0]!);
  if (closest.length === 1 && (typos.length === 1 || (suggestions.length === 1 && nearest === 1)))
    return matchCase(word, closest[0]!);
  // Several as close: the one typical typo undone among them, when it is unmistakable, a letter doubled or
  // undoubled or two swapped ("Comming" → "Coming" beside "Combing"); a letter merely dropped or added is no
  // reason to prefer one neighbour over another ("quanlities": "qualities" or "quantities"?).
  return typos.length === 1 && isDoublingOrSwap(word.toLowerCase(), typos[0]!.toLowerCase())
    ? matchCase(word, typos[0]!)
    : undefined;
}

/** `a` and `b` differ by two swapped neighbours or by one letter doubled (`Comming` / `Coming`). */
function isDoublingOrSwap(a: string, b: string): boolean {
  if (a.length === b.length) return isTypicalTypo(a, b) && withoutAccents(a) !== withoutAccents(b);
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  if (longer.length !== shorter.length + 1) return false;
  for (let index = 1; index < longer.length; index++) {
    if (longer[index] === longer[index - 1] && longer.slice(0, index) + longer.slice(index + 1) === shorter)
      return true;
  }
  return false;
}

/**
 * `a` and `b` differ by two swapped neighbours, by one letter added or dropped inside the word (`Fenstr` /
 * `Fenster`, `schnel` / `schnell`), or only in accents and case.
 */
function isTypicalTypo(a: string, b: string): boolean {
  if (withoutAccents(a) === withoutAccents(b)) return true;
  if (a.length === b.length) {
    const diff = [...a].flatMap((char, index) => (char === b[index] ? [] : [index]));
    // Not the last two letters: an ending is grammar ("bicicletear" is not "bicicletera").
    return (
      diff.length === 2 &&
      diff[1] === diff[0]! + 1 &&
      diff[1] < a.length - 1 &&
      a[diff[0]!] === b[diff[1]!] &&
      a[diff[1]!] === b[diff[0]!]
    );
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  if (longer.length !== shorter.length + 1) return false;
  // One letter more or less inside the word (not at either end: an ending is grammar, "musé" / "musés").
  for (let index = 1; index < longer.length - 1; index++) {
    if (longer.slice(0, index) + longer.slice(index + 1) === shorter) return true;
  }
  return false;
}

function countEnye(word: string): number {
  return (word.normalize('NFC').match(/[ñÑ]/gu) ?? []).length;
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
