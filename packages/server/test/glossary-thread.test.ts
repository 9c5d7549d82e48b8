/**
 * Issue 31: large glossaries are parsed and indexed on the glossary worker thread (`glossaries/thread.ts`),
 * and the word index is plain arrays. What the thread answers must be what the event loop would have
 * computed: the same canonical TSV and entry count (or the same 400 problem), and the same candidates as the
 * word index before it became arrays (kept here as the reference).
 */
import { formatGlossaryEntries, type GlossaryEntry, parseGlossaryEntries } from '@glossa/protocol';
import { describe, expect, it } from 'vitest';
import { buildWordIndex, WordIndex } from '../src/glossaries/candidates.js';
import { parseOnThread, threadStats, wordIndexOnThread } from '../src/glossaries/thread.js';
import { random } from './test-utils.js';

/** The word index before issue 31's second part (objects and sorted string arrays): the reference. */
class ReferenceWordIndex {
  private readonly words: string[];
  private readonly order: number[];
  private readonly firsts: string[];
  private readonly rests: string[];
  constructor(entries: readonly { readonly source: string }[]) {
    const words = new Set<string>();
    const keyed: { index: number; first: string; rest: string }[] = [];
    entries.forEach((entry, index) => {
      const parts = entry.source.trim().toLowerCase().split(/\s+/);
      if (parts.length > 4 || !parts.every((part) => /^[\p{L}\p{N}'-]+$/u.test(part))) return;
      for (const part of parts) words.add(part);
      keyed.push({ index, first: parts[0]!, rest: parts.slice(1).join(' ') });
    });
    keyed.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : a.index - b.index));
    this.words = [...words].sort();
    this.order = keyed.map((item) => item.index);
    this.firsts = keyed.map((item) => item.first);
    this.rests = keyed.map((item) => item.rest);
  }
  candidates(text: string, into: Set<number>): void {
    const lowerBound = (sorted: readonly string[], value: string) => {
      let low = 0;
      let high = sorted.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (sorted[middle]! < value) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const close = (word: string, term: string) => {
      if (word === term) return true;
      let shared = 0;
      while (shared < word.length && shared < term.length && word[shared] === term[shared]) shared++;
      return shared >= 2 && shared >= Math.min(word.length, term.length) - 2;
    };
    const near = new Set<string>();
    for (const word of new Set(text.toLowerCase().match(/[\p{L}\p{N}\p{M}'-]+/gu) ?? [])) {
      const at = lowerBound(this.words, word);
      for (let k = Math.max(0, at - 3); k < Math.min(this.words.length, at + 4); k++)
        if (close(word, this.words[k]!)) near.add(this.words[k]!);
    }
    for (const first of near) {
      const from = lowerBound(this.firsts, first);
      for (let k = from; k < this.firsts.length && k < from + 4096 && this.firsts[k] === first; k++) {
        const rest = this.rests[k]!;
        if (rest === '' || rest.split(' ').every((word) => near.has(word))) into.add(this.order[k]!);
      }
    }
  }
}

const STEMS = [
  'file',
  'files',
  'filing',
  'disk',
  'disks',
  'hard',
  'luz',
  'luces',
  'Über',
  'über',
  'maus',
  'mäuse',
  'x-ray',
  "o'neil",
  '東京',
  'a',
  'ab',
];
function randomGlossary(next: () => number, count: number): GlossaryEntry[] {
  const seen = new Set<string>();
  const entries: GlossaryEntry[] = [];
  while (entries.length < count) {
    const words = 1 + Math.floor(next() * 5);
    const source = Array.from({ length: words }, () => {
      const stem = STEMS[Math.floor(next() * STEMS.length)]!;
      return next() < 0.3 ? `${stem}${Math.floor(next() * 20)}` : stem;
    }).join(next() < 0.9 ? ' ' : ', ');
    if (seen.has(source)) continue;
    seen.add(source);
    entries.push({ source, target: `t${entries.length}` });
  }
  return entries;
}

describe('the word index as arrays', () => {
  it('picks the same candidates as the reference index (300 random glossaries and texts)', () => {
    const next = random(31);
    const differences: string[] = [];
    for (let round = 0; round < 300; round++) {
      const entries = randomGlossary(next, 1 + Math.floor(next() * 200));
      const index = WordIndex.of(entries);
      const reference = new ReferenceWordIndex(entries);
      for (let t = 0; t < 5; t++) {
        const text = Array.from({ length: 1 + Math.floor(next() * 12) }, () => {
          const stem = STEMS[Math.floor(next() * STEMS.length)]!;
          return next() < 0.4 ? `${stem}${Math.floor(next() * 25)}` : stem;
        }).join(' ');
        const [got, expected] = [new Set<number>(), new Set<number>()];
        index.candidates(text, got);
        reference.candidates(text, expected);
        const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b).join(',');
        if (sorted(got) !== sorted(expected))
          differences.push(`round ${round}, "${text}": ${sorted(got)} vs ${sorted(expected)}`);
      }
    }
    expect(differences.slice(0, 3)).toEqual([]);
  });
});

describe('the glossary thread', () => {
  const pair = { source_lang: 'en', target_lang: 'es' };
  const inline = (text: string, format: 'tsv' | 'csv') => {
    const result = parseGlossaryEntries(text, format, pair);
    return result.ok
      ? { ok: true, tsv: formatGlossaryEntries(result.entries), count: result.entries.length }
      : { ok: false, message: result.message, detail: result.detail };
  };

  const decoded = (parsed: Awaited<ReturnType<typeof parseOnThread>>) =>
    parsed.ok ? { ...parsed, tsv: Buffer.from(parsed.tsv).toString('utf8') } : parsed;

  it('parses entries as the event loop would, sent as a string or as UTF-8 bytes', async () => {
    const long = Array.from({ length: 30_000 }, (_, i) => `térm ${i} 😀\tobjetivo ${i}`);
    const cases: [string, 'tsv' | 'csv'][] = [
      [long.join('\n'), 'tsv'],
      [`  ${long.join('\r\n')}\n\n`, 'tsv'],
      [long.map((line) => `"${line.replace('\t', '","')}",en,es`).join('\n'), 'csv'],
      [`${long.slice(0, 15_000).join('\n')}\nbroken line\n${long.slice(15_000).join('\n')}`, 'tsv'],
      [`${long.join('\n')}\n${long[5]}`, 'tsv'],
      ['a\tb\nc\td', 'tsv'],
    ];
    for (const [text, format] of cases) {
      expect(decoded(await parseOnThread(text, format, pair))).toEqual(inline(text, format));
      const bytes = new TextEncoder().encode(text);
      expect(decoded(await parseOnThread(bytes, format, pair))).toEqual(inline(text, format));
      // Moved to the thread, not copied.
      expect(bytes.byteLength).toBe(0);
    }
  }, 60_000);

  it('builds the same word index as the event loop from the TSV, handed over as arrays', async () => {
    const entries = randomGlossary(random(7), 20_000);
    const before = threadStats.jobs;
    const data = await wordIndexOnThread(Buffer.from(formatGlossaryEntries(entries)));
    expect(threadStats.jobs).toBe(before + 1);
    expect(data).toEqual(buildWordIndex(entries.length, (index) => entries[index]!.source));
  }, 60_000);
});
