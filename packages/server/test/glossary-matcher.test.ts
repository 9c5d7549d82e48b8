/**
 * The compact glossary matcher (hashed prefixes at word cuts) against a reference character trie, the
 * matcher it replaced: same matches on random texts and glossaries over words, case, unspaced scripts,
 * surrogate pairs and characters whose lower case is longer; and its size on a 160,000-entry glossary.
 */

import type { GlossaryEntry } from '@glossa/protocol';
import { formatGlossaryEntries } from '@glossa/protocol';
import { describe, expect, it } from 'vitest';
import { compileMatcher } from '../src/glossaries/compiled.js';
import { EntryTable } from '../src/glossaries/entries.js';
import { TermMatcher } from '../src/glossaries/matcher.js';
import { parseTsv, tsvTableInSlices } from '../src/glossaries/store.js';
import { memoryAfterGc } from './test-utils.js';

const WORD = /[\p{L}\p{N}\p{M}_]/u;
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const isWordChar = (char: string | undefined) => char !== undefined && WORD.test(char);
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
interface TrieNode {
  next: Map<string, TrieNode>;
  target?: string;
}
/** The character trie the compact matcher replaced, as the reference. */
class TrieMatcher {
  private readonly root: TrieNode = { next: new Map() };
  constructor(entries: readonly GlossaryEntry[]) {
    for (const entry of entries) {
      let node = this.root;
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
      node.target ??= entry.target;
    }
  }
  find(text: string) {
    const matches: { start: number; end: number; target: string }[] = [];
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
  private longestAt(text: string, start: number) {
    let node: TrieNode | undefined = this.root;
    let best: { start: number; end: number; target: string } | undefined;
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

/** Where a prefix of `source` ends at a cut, read character by character (the reference's word ends). */
function referenceCuts(source: string): number {
  let cuts = 0;
  for (let index = 0; index < source.length; ) {
    const char = charAt(source, index)!;
    index += char.length;
    const after = charAt(source, index);
    if (!isWordChar(char) || UNSPACED.test(char) || !isWordChar(after)) cuts++;
  }
  return cuts;
}

let seed = 11;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const PIECES = [
  'a',
  'b',
  'ab',
  'A',
  'B',
  ' ',
  ' ',
  '-',
  '.',
  'İ',
  'i̇',
  'ß',
  'Σ',
  '文',
  '字',
  '😀',
  'é',
  'e\u0301',
  '_',
  '1',
];
const piece = (max: number) =>
  Array.from({ length: 1 + Math.floor(random() * max) }, () => pick(PIECES)).join('');

/** A 160,000-entry dictionary as stored (made apart, so that no temporary of it stays on the test's frame). */
const largeTsv = () =>
  formatGlossaryEntries(
    Array.from({ length: 160_000 }, (_, i) => ({
      source: i % 4 === 0 ? `term${i.toString(36)}x word${i}` : `term${i.toString(36)}x`,
      target: `objetivo${i} largo ${'x'.repeat(30)}`,
    })),
  );

describe('TermMatcher', () => {
  it('finds exactly what the character trie finds (2,000 random glossaries and texts)', () => {
    let compared = 0;
    for (let round = 0; round < 2000; round++) {
      const entries = Array.from({ length: 1 + Math.floor(random() * 12) }, (_, i) => ({
        source: piece(5).trim() || 'a',
        target: `t${i}`,
      }));
      const text = piece(40);
      const expected = new TrieMatcher(entries).find(text);
      expect(new TermMatcher(EntryTable.of(entries)).find(text)).toEqual(expected);
      expect(
        new TermMatcher(entries).find(text),
        `${JSON.stringify(entries)} in ${JSON.stringify(text)}`,
      ).toEqual(expected);
      compared += expected.length;
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('counts the cuts of a term as the reference reads them (2,000 random terms)', () => {
    for (let round = 0; round < 2000; round++) {
      const source = piece(12);
      expect(TermMatcher.cutsOf(source), JSON.stringify(source)).toBe(referenceCuts(source));
    }
  });

  it('compiles in turns to tables sized once, finding what tables grown from their smallest find (8 random glossaries of 4,000 terms)', async () => {
    let compared = 0;
    for (let round = 0; round < 8; round++) {
      const table = EntryTable.of(
        Array.from({ length: 4000 }, (_, i) => ({ source: piece(14).trim() || 'a', target: `t${i}` })),
      );
      const compiled = await TermMatcher.compile(table);
      const grown = new TermMatcher(table, 0, 0);
      for (let to = 500; to < table.length + 500; to += 500) grown.addUpTo(Math.min(to, table.length));
      // The cuts counted first: no table grows while the entries are added (1,024 places at first).
      expect(compiled.rehashed).toBe(0);
      expect(grown.rehashed).toBeGreaterThan(0);
      expect(compiled.size).toBe(table.length);
      for (let k = 0; k < 50; k++) {
        const text = piece(60);
        const matches = compiled.find(text);
        expect(matches, JSON.stringify(text)).toEqual(grown.find(text));
        const [inCompiled, inGrown] = [new Set<number>(), new Set<number>()];
        compiled.occurring(text, inCompiled);
        grown.occurring(text, inGrown);
        expect(inCompiled).toEqual(inGrown);
        compared += matches.length;
      }
    }
    expect(compared).toBeGreaterThan(400);
  });

  it('occurring() lists every entry matching at any start, at any length', () => {
    const entries = [
      { source: 'file', target: 'archivo' },
      { source: 'file server', target: 'servidor de archivos' },
      { source: 'server', target: 'servidor' },
      { source: 'FILE', target: 'duplicate' },
      { source: 'disk', target: 'disco' },
    ];
    const found = new Set<number>();
    new TermMatcher(entries).occurring('The file server.', found);
    expect([...found].sort()).toEqual([0, 1, 2]);
  });

  it('holds a 160,000-entry glossary (10 MB) in under 40 MB and finds in it', () => {
    const entries = Array.from({ length: 160_000 }, (_, i) => ({
      source: i % 4 === 0 ? `term${i.toString(36)}x word${i}` : `term${i.toString(36)}x`,
      target: `objetivo${i} largo ${'x'.repeat(30)}`,
    }));
    const matcher = new TermMatcher(entries);
    expect(matcher.bytes).toBeLessThan(40 * 2 ** 20);
    expect(matcher.find('A TERM1x and term4x word4.')).toEqual([
      { start: 2, end: 8, target: entries[1]!.target },
      { start: 13, end: 25, target: entries[4]!.target },
    ]);
  });

  it('reads and compiles a 160,000-entry dictionary without an object per entry: less than half the heap of entry objects', async () => {
    const held = () => {
      const memory = memoryAfterGc();
      return memory.heapUsed + memory.arrayBuffers;
    };
    const tsv = largeTsv();
    let before = held();
    const objects = parseTsv(tsv);
    const objectMatcher = new TermMatcher(objects);
    const asObjects = held() - before;
    before = held();
    const table = await tsvTableInSlices(tsv);
    const matcher = await compileMatcher(table);
    const asTable = held() - before;
    console.log(`160,000 entries read and compiled: ${asTable} bytes as a table, ${asObjects} as objects`);
    // The table's offsets and the matcher's tables: a few tens of bytes an entry, the text aside (shared).
    expect(table.bytes - 2 * tsv.length + matcher.bytes).toBeLessThan(80 * 160_000);
    expect(asTable, `table ${asTable} bytes, objects ${asObjects} bytes`).toBeLessThan(asObjects / 2);
    expect(matcher.find('A TERM1x and term4x word4.')).toEqual(
      objectMatcher.find('A TERM1x and term4x word4.'),
    );
    expect(table.at(4)).toEqual(objects[4]);
    expect(table.length).toBe(objects.length);
  });
});
