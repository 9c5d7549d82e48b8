/**
 * A dictionary's entries held compactly (issue 31): the stored TSV text, in the few large strings it was
 * read as, and three integer arrays giving each entry's line (start, tab, end). No object and no string per
 * entry: a 160,000-entry glossary read as 160,000 `{ source, target }` objects and 320,000 strings made the
 * young generation's scavenges of the read take 250–410 ms (every one of them survives). A source or target
 * is sliced from its text when asked for.
 */
import { formatGlossaryEntries, type GlossaryEntry } from '@glossa/protocol';
import { utf8InSlices } from './db-thread.js';

/** What a matcher or an index reads of a dictionary: its size and each entry's source and target. */
export interface EntryList {
  readonly length: number;
  source(index: number): string;
  target(index: number): string;
}

/** An array of entries read as an `EntryList` (small lists: a request's own terms, tests). */
export const entryListOf = (entries: readonly GlossaryEntry[] | EntryList): EntryList =>
  isEntryArray(entries)
    ? {
        length: entries.length,
        source: (index) => entries[index]!.source,
        target: (index) => entries[index]!.target,
      }
    : entries;

const isEntryArray = (entries: readonly GlossaryEntry[] | EntryList): entries is readonly GlossaryEntry[] =>
  Array.isArray(entries);

/** An `Int32Array` that grows by doubling. */
class Ints {
  array = new Int32Array(256);
  length = 0;
  push(value: number): void {
    if (this.length === this.array.length) {
      const grown = new Int32Array(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = value;
  }
  done(): Int32Array {
    return this.array.slice(0, this.length);
  }
}

export class EntryTable implements EntryList {
  readonly length: number;
  /** Estimated bytes held: the texts (two bytes a character at most) and the arrays. */
  readonly bytes: number;
  readonly #texts: readonly string[];
  /** Per entry: the index of its text, its line's start, its tab (-1: none, the line is a target) and end. */
  readonly #text: Int32Array;
  readonly #starts: Int32Array;
  readonly #tabs: Int32Array;
  readonly #ends: Int32Array;
  /** The texts' UTF-8 when they were read as such, until `utf8` hands it over. */
  #utf8: Uint8Array | undefined;

  constructor(
    texts: readonly string[],
    text: Int32Array,
    starts: Int32Array,
    tabs: Int32Array,
    ends: Int32Array,
    utf8?: Uint8Array,
  ) {
    this.#texts = texts;
    this.#utf8 = utf8;
    this.#text = text;
    this.#starts = starts;
    this.#tabs = tabs;
    this.#ends = ends;
    this.length = starts.length;
    this.bytes = texts.reduce((sum, one) => sum + 2 * one.length + 16, 64) + 16 * this.length;
  }

  /** A table of `entries` (one text: their TSV). */
  static of(entries: readonly GlossaryEntry[]): EntryTable {
    const builder = new EntryTableBuilder();
    if (entries.length > 0) builder.lines(formatGlossaryEntries(entries), 0, Number.POSITIVE_INFINITY, true);
    return builder.done();
  }

  source(index: number): string {
    const tab = this.#tabs[index]!;
    return tab < 0 ? '' : this.#texts[this.#text[index]!]!.slice(this.#starts[index]!, tab);
  }

  target(index: number): string {
    const tab = this.#tabs[index]!;
    return this.#texts[this.#text[index]!]!.slice(
      tab < 0 ? this.#starts[index]! : tab + 1,
      this.#ends[index]!,
    );
  }

  at(index: number): GlossaryEntry {
    return { source: this.source(index), target: this.target(index) };
  }

  toArray(): GlossaryEntry[] {
    return entriesOf(this);
  }

  /**
   * The dictionary's TSV as UTF-8 (its lines are the table's entries), for another thread: the bytes it was
   * read from, handed over once (the caller may move them), or else its texts encoded a slice per turn of
   * the event loop.
   */
  utf8(): Promise<Uint8Array> {
    const bytes = this.#utf8;
    this.#utf8 = undefined;
    return bytes ? Promise.resolve(bytes) : utf8InSlices(this.#texts);
  }
}

/** Builds an `EntryTable` from TSV texts read one after another (whole lines each, the last may end it). */
export class EntryTableBuilder {
  readonly #texts: string[] = [];
  readonly #text = new Ints();
  readonly #starts = new Ints();
  readonly #tabs = new Ints();
  readonly #ends = new Ints();

  /**
   * The one TSV line loop: adds the entries of `text`'s lines from `from` onwards, at most `max` lines, and
   * returns where it stopped (past `text.length` once the last line is in). `complete`: `text` ends where
   * the dictionary ends, so a last line without its newline is a line; otherwise the loop stops before it.
   */
  lines(text: string, from: number, max: number, complete: boolean): number {
    if (this.#texts.at(-1) !== text) this.#texts.push(text);
    const id = this.#texts.length - 1;
    let at = from;
    for (let k = 0; k < max && at <= text.length; k++) {
      let end = text.indexOf('\n', at);
      if (end === -1) {
        if (!complete) return at;
        end = text.length;
      }
      const tab = text.indexOf('\t', at);
      this.#text.push(id);
      this.#starts.push(at);
      this.#tabs.push(tab === -1 || tab > end ? -1 : tab);
      this.#ends.push(end);
      at = end + 1;
    }
    return at;
  }

  /** The table; `utf8`: the texts' UTF-8, when they were decoded from it (`EntryTable.utf8`). */
  done(utf8?: Uint8Array): EntryTable {
    return new EntryTable(
      this.#texts,
      this.#text.done(),
      this.#starts.done(),
      this.#tabs.done(),
      this.#ends.done(),
      utf8,
    );
  }
}

/** The entries of `list` as objects (a small list: what an engine is given). */
export const entriesOf = (list: EntryList): GlossaryEntry[] =>
  Array.from({ length: list.length }, (_, index) => ({
    source: list.source(index),
    target: list.target(index),
  }));
