/**
 * Finds glossary terms in a text: case-insensitive, on word boundaries, longest match first. Terms are
 * kept in a character trie (lower-cased), so a lookup costs the length of the text times the length of
 * the longest term that starts at each word, whatever the number of entries. Terms written in a script
 * without spaces between words (Han, kana, Thai, ...) match anywhere.
 */
import type { GlossaryEntry } from '@glossa/protocol';

export interface TermMatch {
  /** UTF-16 offsets into the searched text. */
  readonly start: number;
  readonly end: number;
  readonly target: string;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  target?: string;
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

const isWordChar = (char: string | undefined) => char !== undefined && WORD.test(char);

/** The code point ending at UTF-16 index `end` (exclusive), or undefined at the start. */
function charBefore(text: string, end: number): string | undefined {
  if (end <= 0) return undefined;
  const low = text.charCodeAt(end - 1);
  if (low >= 0xdc00 && low <= 0xdfff && end >= 2) return text.slice(end - 2, end);
  return text[end - 1];
}

function charAt(text: string, index: number): string | undefined {
  const point = text.codePointAt(index);
  return point === undefined ? undefined : String.fromCodePoint(point);
}

export class TermMatcher {
  private readonly root: TrieNode = { next: new Map() };
  readonly size: number;

  constructor(entries: readonly GlossaryEntry[]) {
    for (const entry of entries) {
      let node = this.root;
      // Lower-cased one character at a time, exactly as `longestAt` reads the text.
      for (const char of entry.source) {
        for (const lower of char.toLowerCase()) {
          let child = node.next.get(lower);
          if (!child) {
            child = { next: new Map() };
            node.next.set(lower, child);
          }
          node = child;
        }
      }
      // The first entry of a source wins (glossaries are given in priority order).
      node.target ??= entry.target;
    }
    this.size = entries.length;
  }

  /** Non-overlapping matches in `text`, left to right, the longest at each position. */
  find(text: string): TermMatch[] {
    const matches: TermMatch[] = [];
    let index = 0;
    while (index < text.length) {
      const first = charAt(text, index)!;
      const startsWord = !isWordChar(first) || UNSPACED.test(first) || !isWordChar(charBefore(text, index));
      const found = startsWord ? this.longestAt(text, index) : undefined;
      if (found) {
        matches.push(found);
        index = found.end;
      } else index += first.length;
    }
    return matches;
  }

  private longestAt(text: string, start: number): TermMatch | undefined {
    let node: TrieNode | undefined = this.root;
    let best: TermMatch | undefined;
    let index = start;
    while (node && index < text.length) {
      const char = charAt(text, index)!;
      for (const lower of char.toLowerCase()) {
        node = node?.next.get(lower);
        if (!node) break;
      }
      index += char.length;
      if (node?.target !== undefined) {
        const after = charAt(text, index);
        const endsWord = !isWordChar(char) || UNSPACED.test(char) || !isWordChar(after);
        if (endsWord) best = { start, end: index, target: node.target };
      }
    }
    return best;
  }
}
