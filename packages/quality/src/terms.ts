/**
 * Finds glossary terms in a text as the glossary check sees them (issue 31): lower-cased in the terms'
 * language (`lowerCase`: the text whole, each term alone; never the process's locale), as whole words: no letter or digit (`[\p{L}\p{N}]`,
 * judged one UTF-16 unit at a time) right before or after. The first place of each term, for any number of
 * terms, in time linear in the text times the length of the longest term that starts at each place (a term
 * is at most 1,024 bytes), not the text's length once per term.
 *
 * A whole-word occurrence starts after a non-word unit (or at 0) and ends before one (or at the end), so the
 * text's word runs and other units line up with the term's. As in the server's glossary matcher
 * (`TermMatcher`), each term's lower case is hashed unit by unit: the whole term's hash is kept in one table
 * (verified against the term itself on a hit), and in another the hash of each prefix that ends a word run
 * or a non-word unit after another (or first): a "stop". A walk from each place a word may start hashes the
 * text's units; where a word run ends before a non-word unit it looks the whole terms up, and at each stop
 * the prefixes: a miss ends the walk (no term goes on from there; the units between two stops are one word
 * run and at most one other unit). Compact: a few integer arrays an entry, no string or object per term.
 */
import { lowerCase } from './case.js';

/** Per UTF-16 unit: 0 not yet known, 1 a letter or digit (as `/[\p{L}\p{N}]/u` tests one unit), 2 not. */
const UNIT_CLASS = new Uint8Array(65536);
const WORD_UNIT = /[\p{L}\p{N}]/u;
const isWordUnit = (code: number): boolean => {
  let known = UNIT_CLASS[code]!;
  if (known === 0) {
    known = WORD_UNIT.test(String.fromCharCode(code)) ? 1 : 2;
    UNIT_CLASS[code] = known;
  }
  return known === 1;
};

const M1 = 0x01000193;
const M2 = 0x5bd1e995;
/** Two 32-bit hashes folded into 30 bits (unboxed in V8): a collision costs a comparison, never a match. */
const fold = (h1: number, h2: number) => (h1 ^ (h2 >>> 7) ^ (h2 << 13)) & 0x3fffffff;

/**
 * An open-addressing hash table over 30-bit keys in `Int32Array`s (grown at half full): a set (`add`,
 * `has`) or a map to one int each (`put`, `get`).
 */
class KeyTable {
  #keys: Int32Array;
  #values: Int32Array | undefined;
  #shift: number;
  #count = 0;

  constructor(withValues: boolean, expected: number) {
    let bits = 4;
    while (1 << bits < 2 * expected && bits < 30) bits++;
    this.#keys = new Int32Array(1 << bits);
    this.#shift = 32 - bits;
    if (withValues) this.#values = new Int32Array(1 << bits);
  }

  get bytes(): number {
    return this.#keys.byteLength + (this.#values?.byteLength ?? 0);
  }

  /** The place of `key` (stored as key + 1: 0 is an empty place), or of the empty place it would take. */
  #place(key: number): number {
    const keys = this.#keys;
    const mask = keys.length - 1;
    let at = Math.imul(key + 1, 0x9e3779b1) >>> this.#shift;
    while (keys[at] !== 0 && keys[at] !== key + 1) at = (at + 1) & mask;
    return at;
  }

  has(key: number): boolean {
    return this.#keys[this.#place(key)] !== 0;
  }

  /** The value under `key`, or -1. */
  get(key: number): number {
    const at = this.#place(key);
    return this.#keys[at] === 0 ? -1 : this.#values![at]!;
  }

  add(key: number): void {
    this.put(key, 0);
  }

  /** Sets `key`'s value (a set's keys have 0). */
  put(key: number, value: number): void {
    let at = this.#place(key);
    if (this.#keys[at] === 0) {
      if (2 * (this.#count + 1) > this.#keys.length) {
        this.#grow();
        at = this.#place(key);
      }
      this.#keys[at] = key + 1;
      this.#count++;
    }
    if (this.#values) this.#values[at] = value;
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Int32Array(keys.length * 2);
    if (values) this.#values = new Int32Array(keys.length * 2);
    this.#shift--;
    this.#count = 0;
    for (let at = 0; at < keys.length; at++) if (keys[at] !== 0) this.put(keys[at]! - 1, values?.[at] ?? 0);
  }
}

/** Whether a walk from `start` stops at `at` (in `text`, lower-cased): the end of a word run, or a non-word unit after another. */
const isStop = (text: string, start: number, at: number, word: boolean): boolean =>
  word
    ? at + 1 === text.length || !isWordUnit(text.charCodeAt(at + 1))
    : at === start || !isWordUnit(text.charCodeAt(at - 1));

/** The growing `Int32Array` behind a list of ints. */
const grown = (array: Int32Array, length: number): Int32Array => {
  if (length <= array.length) return array;
  const bigger = new Int32Array(Math.max(length, 2 * array.length));
  bigger.set(array);
  return bigger;
};

export class TermFinder {
  /** Term `index` as given (its lower case is taken when it is added or verified). */
  readonly #term: (index: number) => string;
  /** Terms added: 0 … size - 1. */
  #size = 0;
  /** Distinct lower-cased terms ("slots"): the first term of each, and its last (for the members' chain). */
  #first: Int32Array;
  #last: Int32Array;
  #slots = 0;
  /** Each term's slot (-1 for an empty term) and the next term of the same slot (-1 at the end). */
  #slotOf: Int32Array;
  #next: Int32Array;
  /** Hash of a whole term → its first slot; slots sharing a hash are chained by `#sameHash`. */
  readonly #terms: KeyTable;
  #sameHash: Int32Array;
  /** Hashes of the prefixes of the terms at their stops. */
  readonly #prefixes: KeyTable;
  /** The language the terms and texts are lower-cased in (`lowerCase`). */
  readonly #lang: string | undefined;
  /** The longest lower-cased term's length: no walk goes further. */
  #longest = 0;
  /** UTF-16 units hashed by the walks of `find` (what a test counts instead of timing them). */
  steps = 0;

  /**
   * A finder over `count` terms (`term(0)` … `term(count - 1)`), with the first `added` of them added (all
   * by default; a large glossary adds the rest in slices with `addUpTo`, between turns of an event loop).
   * `stops`: about how many prefixes the terms have (`TermFinder.stopsOf`), so that the table is sized once
   * (growing it rehashes every prefix in one go: tens of ms for a large glossary). `lang`: the terms'
   * language (a language code), which lower-cases them and the texts searched (`lower`).
   */
  constructor(
    count: number,
    term: (index: number) => string,
    added = count,
    stops = 2 * count,
    lang?: string,
  ) {
    this.#term = term;
    this.#lang = lang;
    this.#first = new Int32Array(Math.max(16, count));
    this.#last = new Int32Array(Math.max(16, count));
    this.#sameHash = new Int32Array(Math.max(16, count));
    this.#slotOf = new Int32Array(Math.max(16, count));
    this.#next = new Int32Array(Math.max(16, count));
    this.#terms = new KeyTable(true, count);
    this.#prefixes = new KeyTable(false, stops);
    this.addUpTo(added);
  }

  /** About how many prefixes `term` adds (its stops, counted before lower case). */
  static stopsOf(term: string): number {
    let stops = 0;
    for (let at = 0; at < term.length; at++)
      if (isStop(term, 0, at, isWordUnit(term.charCodeAt(at)))) stops++;
    return stops;
  }

  /** A finder over the terms of a glossary (`term`: which side of each entry) in `lang`. */
  static of<T>(items: readonly T[], term: (item: T) => string, lang?: string): TermFinder {
    return new TermFinder(items.length, (index) => term(items[index]!), items.length, 2 * items.length, lang);
  }

  /** `text` lower-cased as the terms are: what `find` searches. */
  lower(text: string): string {
    return lowerCase(text, this.#lang);
  }

  /** Terms added. */
  get size(): number {
    return this.#size;
  }

  /** Bytes this finder holds (its tables, not the terms it reads). */
  get bytes(): number {
    return (
      this.#terms.bytes +
      this.#prefixes.bytes +
      this.#first.byteLength +
      this.#last.byteLength +
      this.#sameHash.byteLength +
      this.#slotOf.byteLength +
      this.#next.byteLength +
      256
    );
  }

  /** Adds the terms from the last one added up to `to` (exclusive). */
  addUpTo(to: number): void {
    for (let index = this.#size; index < to; index++) this.#add(index);
    this.#size = Math.max(this.#size, to);
  }

  #add(index: number): void {
    this.#slotOf = grown(this.#slotOf, index + 1);
    this.#next = grown(this.#next, index + 1);
    this.#next[index] = -1;
    const lower = this.lower(this.#term(index));
    this.#slotOf[index] = -1;
    if (lower === '') return;
    let h1 = 0;
    let h2 = 0;
    for (let at = 0; at < lower.length; at++) {
      const unit = lower.charCodeAt(at);
      h1 = Math.imul(h1 ^ unit, M1);
      h2 = Math.imul(h2 + unit, M2) ^ (h2 >>> 15);
      if (isStop(lower, 0, at, isWordUnit(unit))) this.#prefixes.add(fold(h1, h2));
    }
    this.#longest = Math.max(this.#longest, lower.length);
    const key = fold(h1, h2);
    let slot = this.#slotFor(key, lower, 0, lower.length);
    if (slot === -1) {
      slot = this.#slots++;
      this.#first = grown(this.#first, slot + 1);
      this.#last = grown(this.#last, slot + 1);
      this.#sameHash = grown(this.#sameHash, slot + 1);
      this.#first[slot] = index;
      this.#sameHash[slot] = this.#terms.get(key);
      this.#terms.put(key, slot);
    } else this.#next[this.#last[slot]!] = index;
    this.#last[slot] = index;
    this.#slotOf[index] = slot;
  }

  /** The slot of the lower-cased term `text.slice(start, end)` whose hash is `key`, or -1. */
  #slotFor(key: number, text: string, start: number, end: number): number {
    for (let slot = this.#terms.get(key); slot !== -1; slot = this.#sameHash[slot]!)
      if (this.#holds(slot, text, start, end)) return slot;
    return -1;
  }

  /** Whether `slot`'s lower-cased term is `text.slice(start, end)`. */
  #holds(slot: number, text: string, start: number, end: number): boolean {
    const term = this.lower(this.#term(this.#first[slot]!));
    return term.length === end - start && text.startsWith(term, start);
  }

  /** Term `index`'s slot (terms of one lower case share it), or -1 for an empty term. */
  slotOf(index: number): number {
    return this.#slotOf[index]!;
  }

  /** The terms of `slot`, ascending. */
  termsOf(slot: number, each: (index: number) => void): void {
    for (let index = this.#first[slot]!; index !== -1; index = this.#next[index]!) each(index);
  }

  /**
   * Adds to `into` each slot whose term `lower` (a lower-cased text) holds as whole words and that `into`
   * does not hold yet, with the offset of its first place; only places that start in [`from`, `to`) are
   * looked at (a long text in parts, between turns of an event loop).
   */
  find(lower: string, into: Map<number, number>, from = 0, to = lower.length): Map<number, number> {
    if (this.#slots === 0) return into;
    let previousWord = from > 0 && isWordUnit(lower.charCodeAt(from - 1));
    for (let start = from; start < to; start++) {
      const word = isWordUnit(lower.charCodeAt(start));
      if (!previousWord) this.#walk(lower, start, into);
      previousWord = word;
    }
    return into;
  }

  /** The terms that start at `start` (after a non-word unit): hashed unit by unit, looked up at its stops. */
  #walk(lower: string, start: number, into: Map<number, number>): void {
    let h1 = 0;
    let h2 = 0;
    const end = Math.min(lower.length, start + this.#longest);
    for (let at = start; at < end; at++) {
      this.steps++;
      const unit = lower.charCodeAt(at);
      h1 = Math.imul(h1 ^ unit, M1);
      h2 = Math.imul(h2 + unit, M2) ^ (h2 >>> 15);
      const wordUnit = isWordUnit(unit);
      const nextIsWord = at + 1 < lower.length && isWordUnit(lower.charCodeAt(at + 1));
      if (wordUnit && nextIsWord) continue;
      const key = fold(h1, h2);
      // Whole words: no letter or digit after the term either.
      if (!nextIsWord)
        for (let slot = this.#terms.get(key); slot !== -1; slot = this.#sameHash[slot]!)
          if (!into.has(slot) && this.#holds(slot, lower, start, at + 1)) into.set(slot, start);
      if (isStop(lower, start, at, wordUnit) && !this.#prefixes.has(key)) return;
    }
  }
}
