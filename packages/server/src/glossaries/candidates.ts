/**
 * The entries of a large glossary that a request's text may use, so that an engine that analyses the
 * glossary's terms itself (Apertium inflects terms by lemma: `files` for `file`) is given those entries
 * and not the whole glossary (analysing 160,000 terms took 42–58 s and 2.4 GB for a request of one word).
 *
 * An entry is a candidate when it is written in the text (the matcher's `occurring`: every term at every
 * word start, at every length), or when each of its words (terms of one to four words) is close to a word
 * of the text: among the glossary's words nearest to the text's word in sorted order, sharing its first
 * letters up to an inflectional ending (`file` for `files`, `luz` for `luces`). Irregular forms that share
 * less (`mice` for `mouse`) are not candidates; this applies only to glossaries past `LARGE_GLOSSARY`
 * entries, smaller ones go to the engine whole. The candidates of one request are bounded by its text (a
 * few per word), whatever the glossary's size.
 */
import type { EntryList } from './entries.js';
import type { TermMatcher } from './matcher.js';

/** Past this many entries (all of a request's glossaries together), the engine gets candidates only. */
export const LARGE_GLOSSARY = 2000;
/** Glossary words looked at on each side of a text word in sorted order. */
const NEIGHBOURS = 3;
/** Entries of one glossary word looked at, at most, per request (a word that begins 100,000 terms). */
const MAX_BUCKET_SCAN = 4096;
/** Letters a word and its inflected form may differ by at their end. */
const ENDING = 3;
const MAX_WORDS = 4;
const WORD = /^[\p{L}\p{N}'-]+$/u;
const TEXT_WORDS = /[\p{L}\p{N}\p{M}'-]+/gu;

const commonPrefix = (a: string, b: string) => {
  let at = 0;
  while (at < a.length && at < b.length && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
};

/** Whether `word` may be an inflected form of `term` (or the reverse), by their common beginning. */
const close = (word: string, term: string) => {
  if (word === term) return true;
  const shared = commonPrefix(word, term);
  return shared >= 2 && shared >= Math.min(word.length, term.length) - ENDING + 1;
};

/**
 * A word index as plain data: strings joined and integer arrays, so that a worker thread can build it and
 * hand it over without a copy of its arrays (`transferables`), and the main thread holds a few objects
 * instead of one per word.
 */
export interface WordIndexData {
  /** Distinct lower-cased words of the entries' sources, sorted, each followed by a line break. */
  readonly words: string;
  /** Offset of each word in `words`, and `words.length` at the end (one more than the words). */
  readonly wordStarts: Int32Array;
  /** Entry indexes sorted by their first word (then by index); `firstIds` holds that word's rank. */
  readonly order: Int32Array;
  readonly firstIds: Int32Array;
  /** Ranks of each sorted entry's words after the first: `restIds[restStarts[k]..restStarts[k + 1])`. */
  readonly restStarts: Int32Array;
  readonly restIds: Int32Array;
}

/** The data of a word index over `count` sources (`source(k)` is entry k's source). */
export function buildWordIndex(count: number, source: (index: number) => string): WordIndexData {
  const ids = new Map<string, number>();
  const distinct: string[] = [];
  const entryIndex: number[] = [];
  const firstTemp: number[] = [];
  const restStarts: number[] = [0];
  const restTemp: number[] = [];
  const idOf = (word: string) => {
    let id = ids.get(word);
    if (id === undefined) {
      id = distinct.length;
      ids.set(word, id);
      distinct.push(word);
    }
    return id;
  };
  for (let index = 0; index < count; index++) {
    const parts = source(index).trim().toLowerCase().split(/\s+/);
    if (parts.length > MAX_WORDS || !parts.every((part) => WORD.test(part))) continue;
    entryIndex.push(index);
    firstTemp.push(idOf(parts[0]!));
    for (let k = 1; k < parts.length; k++) restTemp.push(idOf(parts[k]!));
    restStarts.push(restTemp.length);
  }
  // Ranks in sorted order (UTF-16 code units, as `<` compares).
  const sorted = Int32Array.from(distinct.keys()).sort((a, b) =>
    distinct[a]! < distinct[b]! ? -1 : distinct[a]! > distinct[b]! ? 1 : 0,
  );
  const rank = new Int32Array(distinct.length);
  const wordStarts = new Int32Array(distinct.length + 1);
  let at = 0;
  sorted.forEach((id, position) => {
    rank[id] = position;
    wordStarts[position] = at;
    at += distinct[id]!.length + 1;
  });
  wordStarts[distinct.length] = at;
  const words = Array.from(sorted, (id) => `${distinct[id]!}\n`).join('');
  // Entries by their first word's rank, in index order within one word: a counting sort (linear).
  const n = entryIndex.length;
  const bucket = new Int32Array(distinct.length + 1);
  for (let k = 0; k < n; k++) bucket[rank[firstTemp[k]!]! + 1]!++;
  for (let r = 0; r < distinct.length; r++) bucket[r + 1]! += bucket[r]!;
  const order = new Int32Array(n);
  const firstIds = new Int32Array(n);
  const sortedRestStarts = new Int32Array(n + 1);
  const place = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const position = bucket[rank[firstTemp[k]!]!]!++;
    place[position] = k;
  }
  let restLength = 0;
  for (let position = 0; position < n; position++) {
    const k = place[position]!;
    order[position] = entryIndex[k]!;
    firstIds[position] = rank[firstTemp[k]!]!;
    sortedRestStarts[position] = restLength;
    restLength += restStarts[k + 1]! - restStarts[k]!;
  }
  sortedRestStarts[n] = restLength;
  const restIds = new Int32Array(restLength);
  for (let position = 0; position < n; position++) {
    const k = place[position]!;
    let to = sortedRestStarts[position]!;
    for (let r = restStarts[k]!; r < restStarts[k + 1]!; r++) restIds[to++] = rank[restTemp[r]!]!;
  }
  return { words, wordStarts, order, firstIds, restStarts: sortedRestStarts, restIds };
}

/** The glossary's words, sorted, and its entries of one to four words by their first word. */
export class WordIndex {
  readonly bytes: number;
  readonly #data: WordIndexData;
  readonly #count: number;

  constructor(data: WordIndexData) {
    this.#data = data;
    this.#count = data.wordStarts.length - 1;
    this.bytes =
      2 * data.words.length +
      data.wordStarts.byteLength +
      data.order.byteLength +
      data.firstIds.byteLength +
      data.restStarts.byteLength +
      data.restIds.byteLength +
      512;
  }

  /** An index over `entries`, built here (small glossaries; large ones are built on a worker thread). */
  static of(entries: EntryList | readonly { readonly source: string }[]): WordIndex {
    return new WordIndex(
      buildWordIndex(entries.length, (index) =>
        Array.isArray(entries) ? entries[index]!.source : (entries as EntryList).source(index),
      ),
    );
  }

  /** The arrays a worker thread hands over without copying them. */
  static transferables(data: WordIndexData): ArrayBuffer[] {
    return [data.wordStarts, data.order, data.firstIds, data.restStarts, data.restIds].map(
      (array) => array.buffer as ArrayBuffer,
    );
  }

  #word(rank: number): string {
    const starts = this.#data.wordStarts;
    return this.#data.words.slice(starts[rank]!, starts[rank + 1]! - 1);
  }

  /** The rank of the first word not below `value`. */
  #lowerBound(value: string): number {
    let low = 0;
    let high = this.#count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#word(middle) < value) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Adds to `into` the entries whose every word is close to a word of `text`. */
  candidates(text: string, into: Set<number>): void {
    const { order, firstIds, restStarts, restIds } = this.#data;
    const textWords = new Set(text.toLowerCase().match(TEXT_WORDS) ?? []);
    const near = new Set<number>();
    for (const word of textWords) {
      const at = this.#lowerBound(word);
      for (let k = Math.max(0, at - NEIGHBOURS); k < Math.min(this.#count, at + NEIGHBOURS + 1); k++) {
        if (close(word, this.#word(k))) near.add(k);
      }
    }
    for (const first of near) {
      const from = lowerBoundInt(firstIds, first);
      for (let k = from; k < firstIds.length && k < from + MAX_BUCKET_SCAN && firstIds[k] === first; k++) {
        let all = true;
        for (let r = restStarts[k]!; all && r < restStarts[k + 1]!; r++) all = near.has(restIds[r]!);
        if (all) into.add(order[k]!);
      }
    }
  }
}

function lowerBoundInt(sorted: Int32Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Candidates of `texts` in one glossary: written terms and terms close to the texts' words. */
export function candidateEntries(texts: readonly string[], matcher: TermMatcher, words: WordIndex): number[] {
  const found = new Set<number>();
  for (const text of texts) {
    matcher.occurring(text, found);
    words.candidates(text, found);
  }
  return [...found].sort((a, b) => a - b);
}
