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

function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The glossary's words, sorted, and its entries of one to four words by their first word. */
export class WordIndex {
  readonly bytes: number;
  /** Distinct lower-cased words of the entries' sources, sorted. */
  private readonly words: string[];
  /** Entry indexes sorted by their first word; `firsts` holds that word at the same position. */
  private readonly order: Int32Array;
  private readonly firsts: string[];
  /** Each sorted entry's words after the first (space-joined), or '' for one word. */
  private readonly rests: string[];

  constructor(entries: readonly { readonly source: string }[]) {
    const words = new Set<string>();
    const keyed: { index: number; first: string; rest: string }[] = [];
    entries.forEach((entry, index) => {
      const parts = entry.source.trim().toLowerCase().split(/\s+/);
      if (parts.length > MAX_WORDS || !parts.every((part) => WORD.test(part))) return;
      for (const part of parts) words.add(part);
      keyed.push({ index, first: parts[0]!, rest: parts.slice(1).join(' ') });
    });
    keyed.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : a.index - b.index));
    this.words = [...words].sort();
    this.order = Int32Array.from(keyed, (item) => item.index);
    this.firsts = keyed.map((item) => item.first);
    this.rests = keyed.map((item) => item.rest);
    let strings = 0;
    for (const word of this.words) strings += 2 * word.length + 16;
    for (const rest of this.rests) strings += 2 * rest.length + 16;
    this.bytes = strings + 4 * this.order.length + 16 * (this.words.length + 2 * keyed.length) + 256;
  }

  /** Adds to `into` the entries whose every word is close to a word of `text`. */
  candidates(text: string, into: Set<number>): void {
    const textWords = new Set(text.toLowerCase().match(TEXT_WORDS) ?? []);
    const near = new Set<string>();
    for (const word of textWords) {
      const at = lowerBound(this.words, word);
      for (let k = Math.max(0, at - NEIGHBOURS); k < Math.min(this.words.length, at + NEIGHBOURS + 1); k++) {
        if (close(word, this.words[k]!)) near.add(this.words[k]!);
      }
    }
    for (const first of near) {
      const from = lowerBound(this.firsts, first);
      for (
        let k = from;
        k < this.firsts.length && k < from + MAX_BUCKET_SCAN && this.firsts[k] === first;
        k++
      ) {
        const rest = this.rests[k]!;
        if (rest === '' || rest.split(' ').every((word) => near.has(word))) into.add(this.order[k]!);
      }
    }
  }
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
