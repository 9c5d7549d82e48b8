/**
 * Finds glossary terms in a text: case-insensitive, on word boundaries, longest match first. Terms written
 * in a script without spaces between words (Han, kana, Thai, ...) match anywhere.
 *
 * Compact by design (a 10 MiB glossary of 160,000 entries compiles in well under a second to a few tens
 * of MB): no node per character. Each term is lower-cased one code point at a time, and a rolling hash of it is kept in two tables: the whole term (verified against the term itself on a hit), and every
 * prefix that ends where a word may end (a "cut": after a non-word character or a character of an unspaced
 * script, or before a non-word character or the end). A search from a word start walks the text's lower-
 * cased characters, and at each cut of the text looks the prefix up: a hit in the first table is a match,
 * a miss in the second ends the walk (no term goes on from there). A lookup costs the text's length times
 * the length of the longest term that starts at each word, whatever the number of entries.
 */
import type { GlossaryEntry } from '@glossa/protocol';

export interface TermMatch {
  /** UTF-16 offsets into the searched text. */
  readonly start: number;
  readonly end: number;
  readonly target: string;
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Bit 1: a word character; bit 2: a character of an unspaced script. Per code point, ASCII cached. */
const IS_WORD = 1;
const IS_UNSPACED = 2;
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, code) =>
  WORD.test(String.fromCharCode(code)) ? IS_WORD : 0,
);
const classOf = (char: string): number =>
  char.length === 1 && char.charCodeAt(0) < 128
    ? ASCII_CLASS[char.charCodeAt(0)]!
    : (WORD.test(char) ? IS_WORD : 0) | (UNSPACED.test(char) ? IS_UNSPACED : 0);

const NON_ASCII = /[^\x00-\x7f]/;
/** Lower case code point by code point (never a word's context: `Σ` is `σ` wherever it stands). */
const lowerByCodePoint = (text: string) => {
  let lower = '';
  for (const char of text) lower += char.toLowerCase();
  return lower;
};
const lowerLength = (text: string, index: number, width: number) =>
  text.slice(index, index + width).toLowerCase().length;

const M1 = 0x01000193;
const M2 = 0x5bd1e995;
/**
 * Two 32-bit multiplicative hashes folded into a small integer (30 bits, kept unboxed by V8): a collision
 * costs a string comparison (whole terms are verified) or a step more of a walk (prefixes), never a match.
 */
const fold = (h1: number, h2: number) => (h1 ^ (h2 >>> 7) ^ (h2 << 13)) & 0x3fffffff;

/** A text read one code point at a time: lower-cased form, character classes, offsets. */
interface Prepared {
  readonly text: string;
  /** The lower-cased text, code point by code point (`İ` becomes two code units, as in the terms). */
  readonly lower: string;
  /** UTF-16 offset in `text` → offset of the same code point in `lower` (and the end at `text.length`). */
  readonly lowerAt: Int32Array;
  /** Character class of the code point starting at each UTF-16 offset (0 on a low surrogate). */
  readonly classes: Uint8Array;
}

function prepare(text: string): Prepared {
  const lowerAt = new Int32Array(text.length + 1);
  const classes = new Uint8Array(text.length);
  let lower = '';
  let simple = true;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 128) {
      simple = false;
      break;
    }
    lowerAt[index] = index;
    classes[index] = ASCII_CLASS[code]!;
  }
  if (simple) {
    lowerAt[text.length] = text.length;
    return { text, lower: text.toLowerCase(), lowerAt, classes };
  }
  const pieces: string[] = [];
  let length = 0;
  for (let index = 0; index < text.length; ) {
    const char = String.fromCodePoint(text.codePointAt(index)!);
    const lowered = char.toLowerCase();
    lowerAt[index] = length;
    if (char.length === 2) lowerAt[index + 1] = length;
    classes[index] = classOf(char);
    pieces.push(lowered);
    length += lowered.length;
    index += char.length;
  }
  lowerAt[text.length] = length;
  lower = pieces.join('');
  return { text, lower, lowerAt, classes };
}

const isCut = (prepared: Prepared, index: number, end: number): boolean => {
  // `index` is the start of the last code point read, `end` the offset after it.
  const last = prepared.classes[index]!;
  if (!(last & IS_WORD) || last & IS_UNSPACED || end >= prepared.text.length) return true;
  return !(prepared.classes[end]! & IS_WORD);
};

export class TermMatcher {
  /** Lower-cased source of each distinct term, its target and the index of the entry it came from. */
  private readonly sources: string[] = [];
  private readonly targets: string[] = [];
  private readonly origins: number[] = [];
  /** Hash of a whole term → its slot; the rare other terms of the same hash in `collisions`. */
  private readonly terms = new Map<number, number>();
  private readonly collisions = new Map<number, number[]>();
  /** Hashes of the prefixes of terms that end at a cut (whole terms included). */
  private readonly prefixes = new Set<number>();
  #size = 0;
  #strings = 0;

  constructor(entries: readonly GlossaryEntry[] = []) {
    this.add(entries, 0, entries.length);
  }

  /** Entries given (duplicates of a lower-cased source included). */
  get size(): number {
    return this.#size;
  }

  /** Estimated bytes this matcher holds (its own tables and strings, not the entries given). */
  get bytes(): number {
    // Map and Set entries cost about 40 bytes each in V8; the three arrays 8 bytes a slot each.
    return this.#strings + 40 * (this.terms.size + this.prefixes.size) + 24 * this.sources.length + 256;
  }

  /**
   * Adds `entries[from..to)` (their indexes in `entries` are what `occurring` reports), after the ones
   * added before, which keep their priority; a large glossary is added in slices between turns of the
   * event loop.
   */
  add(entries: readonly GlossaryEntry[], from: number, to: number): void {
    for (let origin = from; origin < to; origin++) this.addEntry(entries[origin]!, origin);
    this.#size += to - from;
  }

  private addEntry(entry: GlossaryEntry, origin: number): void {
    const source = entry.source;
    let h1 = 0;
    let h2 = 0;
    const ascii = !NON_ASCII.test(source);
    const lower = ascii ? source.toLowerCase() : lowerByCodePoint(source);
    let from = 0;
    for (let index = 0; index < source.length; ) {
      const code = source.charCodeAt(index);
      const width = code >= 0xd800 && code <= 0xdbff && index + 1 < source.length ? 2 : 1;
      const to = ascii ? index + 1 : from + lowerLength(source, index, width);
      for (; from < to; from++) {
        const unit = lower.charCodeAt(from);
        h1 = Math.imul(h1 ^ unit, M1);
        h2 = Math.imul(h2 + unit, M2) ^ (h2 >>> 15);
      }
      const own = code < 128 ? ASCII_CLASS[code]! : classOf(source.slice(index, index + width));
      index += width;
      // A cut: after a non-word or unspaced character, before a non-word character, or at the end.
      let cut = !(own & IS_WORD) || own & IS_UNSPACED || index >= source.length;
      if (!cut) {
        const next = source.codePointAt(index)!;
        cut = !((next < 128 ? ASCII_CLASS[next]! : classOf(String.fromCodePoint(next))) & IS_WORD);
      }
      if (cut) this.prefixes.add(fold(h1, h2));
    }
    if (entry.source.length === 0) return;
    const key = fold(h1, h2);
    // The first entry of a source wins (glossaries are given in priority order).
    if (this.slotOf(key, lower) !== undefined) return;
    const slot = this.sources.length;
    this.sources.push(lower);
    this.targets.push(entry.target);
    this.origins.push(origin);
    this.#strings += lower === entry.source ? 0 : 2 * lower.length + 16;
    const first = this.terms.get(key);
    if (first === undefined) this.terms.set(key, slot);
    else this.collisions.set(key, [...(this.collisions.get(key) ?? []), slot]);
  }

  private slotOf(key: number, lower: string): number | undefined {
    const slot = this.terms.get(key);
    if (slot === undefined) return undefined;
    if (this.sources[slot] === lower) return slot;
    return this.collisions.get(key)?.find((other) => this.sources[other] === lower);
  }

  /** Non-overlapping matches in `text`, left to right, the longest at each position. */
  find(text: string): TermMatch[] {
    const matches: TermMatch[] = [];
    if (this.sources.length === 0) return matches;
    const prepared = prepare(text);
    let index = 0;
    while (index < text.length) {
      let found: TermMatch | undefined;
      if (this.startsWord(prepared, index)) {
        this.walk(prepared, index, (end, slot) => {
          found = { start: index, end, target: this.targets[slot]! };
        });
      }
      if (found) {
        matches.push(found);
        index = found.end;
      } else index += this.widthAt(text, index);
    }
    return matches;
  }

  /**
   * The entries (their indexes in the array given) that match somewhere in `text` at any length, not
   * only the longest non-overlapping ones: every term a matcher over a part of the text could find.
   */
  occurring(text: string, into: Set<number>): void {
    if (this.sources.length === 0) return;
    const prepared = prepare(text);
    for (let index = 0; index < text.length; index += this.widthAt(text, index)) {
      if (this.startsWord(prepared, index))
        this.walk(prepared, index, (_, slot) => into.add(this.origins[slot]!));
    }
  }

  private widthAt(text: string, index: number): number {
    const code = text.charCodeAt(index);
    return code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
  }

  private startsWord(prepared: Prepared, index: number): boolean {
    const own = prepared.classes[index]!;
    if (!(own & IS_WORD) || own & IS_UNSPACED || index === 0) return true;
    const low = prepared.text.charCodeAt(index - 1);
    const before = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
    return !(prepared.classes[before]! & IS_WORD);
  }

  /** Calls `hit` for each term starting at `start`, shortest first, with its end and slot. */
  private walk(prepared: Prepared, start: number, hit: (end: number, slot: number) => void): void {
    const { text, lower, lowerAt } = prepared;
    let h1 = 0;
    let h2 = 0;
    let from = lowerAt[start]!;
    for (let index = start; index < text.length; ) {
      const width = this.widthAt(text, index);
      const to = lowerAt[index + width]!;
      for (; from < to; from++) {
        h1 = Math.imul(h1 ^ lower.charCodeAt(from), M1);
        h2 = Math.imul(h2 + lower.charCodeAt(from), M2) ^ (h2 >>> 15);
      }
      const end = index + width;
      index = end;
      if (!isCut(prepared, end - width, end)) continue;
      const key = fold(h1, h2);
      if (this.terms.has(key)) {
        const slot = this.slotOf(key, lower.slice(lowerAt[start]!, to));
        if (slot !== undefined) hit(end, slot);
      }
      if (!this.prefixes.has(key)) return;
    }
  }
}
