/**
 * Finds glossary terms in a text: case-insensitive, on word boundaries, longest match first. Terms written
 * in a script without spaces between words (Han, kana, Thai, ...) match anywhere.
 *
 * Compact by design (a 10 MiB glossary of 160,000 entries compiles in well under a second to a few MB of
 * integer arrays beside the entries it reads): no node per character, no string or object per term. Each term is lower-cased one code point at a time, and a rolling hash of it is kept in two tables: the whole term (verified against the term itself on a hit), and every
 * prefix that ends where a word may end (a "cut": after a non-word character or a character of an unspaced
 * script, or before a non-word character or the end). A search from a word start walks the text's lower-
 * cased characters, and at each cut of the text looks the prefix up: a hit in the first table is a match,
 * a miss in the second ends the walk (no term goes on from there). A lookup costs the text's length times
 * the length of the longest term that starts at each word, whatever the number of entries.
 *
 * A large glossary is compiled in turns of the event loop (`TermMatcher.compile`): its cuts are counted
 * first, so that the prefix table is sized once (growing it rehashes every prefix in one go: a 160,000-entry
 * glossary of multi-word terms has about a million, 10–20 ms of the event loop at a time; issue 31).
 */
import type { GlossaryEntry } from '@glossa/protocol';
import { inTurns } from '../turns.js';
import { type EntryList, entryListOf } from './entries.js';

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

/**
 * Whether a term's prefix ending after its code point at `index` (`width` units, class `own`) ends at a cut:
 * after a non-word or unspaced character, before a non-word character, or at the end.
 */
function endsAtCut(source: string, index: number, width: number, own: number): boolean {
  const end = index + width;
  if (!(own & IS_WORD) || own & IS_UNSPACED || end >= source.length) return true;
  const next = source.codePointAt(end)!;
  return !((next < 128 ? ASCII_CLASS[next]! : classOf(String.fromCodePoint(next))) & IS_WORD);
}

const widthIn = (text: string, index: number, code: number) =>
  code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
const classIn = (text: string, index: number, code: number, width: number) =>
  code < 128 ? ASCII_CLASS[code]! : classOf(text.slice(index, index + width));

const isCut = (prepared: Prepared, index: number, end: number): boolean => {
  // `index` is the start of the last code point read, `end` the offset after it.
  const last = prepared.classes[index]!;
  if (!(last & IS_WORD) || last & IS_UNSPACED || end >= prepared.text.length) return true;
  return !(prepared.classes[end]! & IS_WORD);
};

/**
 * A hash table over 30-bit keys in two `Int32Array`s (open addressing, linear probing, grown at half full):
 * a set (`add`, `has`) or a multimap to ints (`put`, `values`). No object per key, so a 160,000-term
 * glossary's tables are a few MB off the JS heap, scanned by no garbage collection.
 */
class KeyTable {
  #keys: Int32Array;
  #values: Int32Array | undefined;
  #shift: number;
  #count = 0;
  /** Keys moved by growing the table (none when `expected` was right). */
  rehashed = 0;

  /**
   * `expected`: keys it will hold at most, sized for at once (growing rehashes every key in one go: 10–20 ms
   * of the event loop for a large glossary's table; issue 31).
   */
  constructor(withValues: boolean, expected = 0) {
    let bits = 10;
    while (1 << bits < 2 * expected && bits < 30) bits++;
    this.#keys = new Int32Array(1 << bits);
    this.#shift = 32 - bits;
    if (withValues) this.#values = new Int32Array(1 << bits);
  }

  get size(): number {
    return this.#count;
  }

  get bytes(): number {
    return this.#keys.byteLength + (this.#values?.byteLength ?? 0);
  }

  /** First probe of `key` (stored as key + 1: 0 is an empty place); Fibonacci hashing on the high bits. */
  #home(key: number): number {
    return Math.imul(key + 1, 0x9e3779b1) >>> this.#shift;
  }

  has(key: number): boolean {
    const keys = this.#keys;
    const mask = keys.length - 1;
    for (let at = this.#home(key); ; at = (at + 1) & mask) {
      const stored = keys[at]!;
      if (stored === 0) return false;
      if (stored === key + 1) return true;
    }
  }

  /** Adds `key` to a set. */
  add(key: number): void {
    if (!this.has(key)) this.put(key, 0);
  }

  /** Adds `value` under `key` (a key may hold several values, kept in the order put). */
  put(key: number, value: number): void {
    if (2 * (this.#count + 1) > this.#keys.length) this.#grow();
    const keys = this.#keys;
    const mask = keys.length - 1;
    let at = this.#home(key);
    while (keys[at] !== 0) at = (at + 1) & mask;
    keys[at] = key + 1;
    if (this.#values) this.#values[at] = value;
    this.#count++;
  }

  /** The first value under `key` that `accept` takes, or -1. */
  find(key: number, accept: (value: number) => boolean): number {
    const keys = this.#keys;
    const values = this.#values!;
    const mask = keys.length - 1;
    for (let at = this.#home(key); ; at = (at + 1) & mask) {
      const stored = keys[at]!;
      if (stored === 0) return -1;
      if (stored === key + 1 && accept(values[at]!)) return values[at]!;
    }
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Int32Array(keys.length * 2);
    if (values) this.#values = new Int32Array(keys.length * 2);
    this.#shift--;
    this.rehashed += this.#count;
    this.#count = 0;
    // The values under one key are different terms of one hash: their order does not matter.
    for (let at = 0; at < keys.length; at++) if (keys[at] !== 0) this.put(keys[at]! - 1, values?.[at] ?? 0);
  }
}

/** A term's lower case as the matcher compares it: code point by code point unless it is ASCII. */
const lowerTerm = (source: string) =>
  NON_ASCII.test(source) ? lowerByCodePoint(source) : source.toLowerCase();

/** Entries counted or added per step of `TermMatcher.compile` (a step is far shorter than a turn). */
const COMPILE_STEP = 64;

export class TermMatcher {
  /** The entries the matcher was built over; a term is read back from them when a hash hits. */
  readonly #entries: EntryList;
  /** The entry index of each distinct (lower-cased) term, by slot. */
  readonly #origins: Int32Array;
  #slots = 0;
  /** Hash of a whole term → its slots (several only when different terms share a hash). */
  readonly #terms: KeyTable;
  /** Hashes of the prefixes of terms that end at a cut (whole terms included). */
  readonly #prefixes: KeyTable;
  #size = 0;

  /**
   * A matcher over `entries` (an array or a compact `EntryTable`), with the first `count` added (all by
   * default; a large glossary adds the rest in slices with `addUpTo`, or is built by `compile`).
   * `prefixes`: how many prefixes the entries have at most (`TermMatcher.cutsOf` of each source), so that
   * the tables are sized once; counted here when every entry is added at once, else guessed at one an entry.
   */
  constructor(entries: readonly GlossaryEntry[] | EntryList = [], count = entries.length, prefixes?: number) {
    this.#entries = entryListOf(entries);
    if (prefixes === undefined && count >= entries.length) {
      prefixes = 0;
      for (let index = 0; index < entries.length; index++)
        prefixes += TermMatcher.cutsOf(this.#entries.source(index));
    }
    this.#terms = new KeyTable(true, entries.length);
    this.#prefixes = new KeyTable(false, prefixes ?? entries.length);
    this.#origins = new Int32Array(Math.max(64, entries.length));
    this.addUpTo(count);
  }

  /**
   * A matcher over every entry, built in turns of the event loop (`inTurns`): the entries' cuts counted
   * first, then the entries added to tables sized once.
   */
  static async compile(entries: EntryList): Promise<TermMatcher> {
    let prefixes = 0;
    let counted = 0;
    await inTurns(() => {
      const to = Math.min(entries.length, counted + COMPILE_STEP);
      for (; counted < to; counted++) prefixes += TermMatcher.cutsOf(entries.source(counted));
      return counted < entries.length;
    });
    const matcher = new TermMatcher(entries, 0, prefixes);
    await inTurns(() => {
      matcher.addUpTo(Math.min(entries.length, matcher.size + COMPILE_STEP));
      return matcher.size < entries.length;
    });
    return matcher;
  }

  /** How many prefixes `source` adds at most: its cuts (fewer when a prefix is another term's too). */
  static cutsOf(source: string): number {
    let cuts = 0;
    for (let index = 0; index < source.length; ) {
      const code = source.charCodeAt(index);
      const width = widthIn(source, index, code);
      if (endsAtCut(source, index, width, classIn(source, index, code, width))) cuts++;
      index += width;
    }
    return cuts;
  }

  /** Keys moved by growing a table since the matcher was made (none when it was sized right). */
  get rehashed(): number {
    return this.#terms.rehashed + this.#prefixes.rehashed;
  }

  /** Entries added (duplicates of a lower-cased source included). */
  get size(): number {
    return this.#size;
  }

  /** Estimated bytes this matcher holds (its own tables, not the entries it reads). */
  get bytes(): number {
    return this.#terms.bytes + this.#prefixes.bytes + this.#origins.byteLength + 256;
  }

  /**
   * Adds the entries from the last one added up to `to` (their indexes are what `occurring` reports); the
   * ones added before keep their priority, so a large glossary is added in slices between turns of the
   * event loop.
   */
  addUpTo(to: number): void {
    for (let origin = this.#size; origin < to; origin++) this.addEntry(this.#entries.source(origin), origin);
    this.#size = Math.max(this.#size, to);
  }

  private addEntry(source: string, origin: number): void {
    let h1 = 0;
    let h2 = 0;
    const ascii = !NON_ASCII.test(source);
    const lower = ascii ? source.toLowerCase() : lowerByCodePoint(source);
    let from = 0;
    for (let index = 0; index < source.length; ) {
      const code = source.charCodeAt(index);
      const width = widthIn(source, index, code);
      const to = ascii ? index + 1 : from + lowerLength(source, index, width);
      for (; from < to; from++) {
        const unit = lower.charCodeAt(from);
        h1 = Math.imul(h1 ^ unit, M1);
        h2 = Math.imul(h2 + unit, M2) ^ (h2 >>> 15);
      }
      if (endsAtCut(source, index, width, classIn(source, index, code, width)))
        this.#prefixes.add(fold(h1, h2));
      index += width;
    }
    if (source.length === 0) return;
    const key = fold(h1, h2);
    // The first entry of a source wins (glossaries are given in priority order).
    if (this.slotOf(key, lower) !== -1) return;
    const slot = this.#slots++;
    this.#origins[slot] = origin;
    this.#terms.put(key, slot);
  }

  /** The slot of the term `lower` (lower-cased) whose hash is `key`, or -1. */
  private slotOf(key: number, lower: string): number {
    return this.#terms.find(key, (slot) => lowerTerm(this.#entries.source(this.#origins[slot]!)) === lower);
  }

  private target(slot: number): string {
    return this.#entries.target(this.#origins[slot]!);
  }

  /** Non-overlapping matches in `text`, left to right, the longest at each position. */
  find(text: string): TermMatch[] {
    const matches: TermMatch[] = [];
    if (this.#slots === 0) return matches;
    const prepared = prepare(text);
    let index = 0;
    while (index < text.length) {
      let found: TermMatch | undefined;
      if (this.startsWord(prepared, index)) {
        this.walk(prepared, index, (end, slot) => {
          found = { start: index, end, target: this.target(slot) };
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
    if (this.#slots === 0) return;
    const prepared = prepare(text);
    for (let index = 0; index < text.length; index += this.widthAt(text, index)) {
      if (this.startsWord(prepared, index))
        this.walk(prepared, index, (_, slot) => into.add(this.#origins[slot]!));
    }
  }

  private widthAt(text: string, index: number): number {
    return widthIn(text, index, text.charCodeAt(index));
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
      if (this.#terms.has(key)) {
        const slot = this.slotOf(key, lower.slice(lowerAt[start]!, to));
        if (slot !== -1) hit(end, slot);
      }
      if (!this.#prefixes.has(key)) return;
    }
  }
}
