/**
 * Issue 31: an import holds a bounded number of posting ids in memory. On a real SQLite file, 20,000
 * segments built from 12 words are imported in batches; after every batch the store holds at most
 * POSTING_CHUNK − 1 ids per word (a list's full rows are written with the batch that fills them), not the
 * 180,000 ids of the whole memory. After the import, each word's first row counts the whole list, the rows
 * hold every id once, and lookups find what they should.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { POSTING_CHUNK, postingKey, type SegmentInput } from '../src/memories/postings.js';
import { createMemoryStore } from '../src/memories/store.js';
import { openResourceDatabase } from '../src/storage/resource-db.js';

const WORDS = 'the file disk house green server opens reads quickly small new old'.split(' ');
const COUNT = 20_000;
/** Segment n: 9 of the 12 words, so every word's list runs to thousands of ids. */
const sourceOf = (n: number) =>
  Array.from({ length: 9 }, (_, k) => WORDS[(n * 7 + k * 5 + Math.floor(n / 12)) % WORDS.length]).join(' ');

const dir = mkdtempSync(join(tmpdir(), 'glossa-postings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('keeps at most POSTING_CHUNK − 1 ids per token in memory while importing, and writes exact lists', async () => {
  const db = openResourceDatabase(join(dir, 'resources.db'));
  const store = createMemoryStore(db);
  const id = await store.begin('acct', 'memory');
  const sources = Array.from({ length: COUNT }, (_, n) => sourceOf(n));
  let most = 0;
  let idsSoFar = 0;
  for (let start = 0; start < COUNT; start += 500) {
    const batch = sources.slice(start, start + 500);
    await store.addBatch(
      id,
      batch.map((source): SegmentInput => ({ source, targets: [{ language: 'es', text: `es ${source}` }] })),
    );
    idsSoFar += batch.reduce((sum, source) => sum + new Set(source.split(' ')).size, 0);
    const held = store.pendingPostingIds(id);
    most = Math.max(most, held);
    expect(held).toBeLessThanOrEqual(WORDS.length * (POSTING_CHUNK - 1));
  }
  // Without the early rows the store would hold every id of the memory.
  expect(idsSoFar).toBeGreaterThan(10 * WORDS.length * POSTING_CHUNK);
  expect(most).toBeGreaterThan(0);
  await store.finish(id, 'en', ['es'], COUNT);
  expect(store.pendingPostingIds(id)).toBe(0);

  const rows = db.prepare('SELECT gram, segments, ids FROM memory_postings WHERE memory_id = ?').all(id) as {
    gram: string;
    segments: number;
    ids: string;
  }[];
  const byKey = new Map(rows.map((row) => [row.gram, row]));
  let stored = 0;
  for (const word of WORDS) {
    const expected = sources.flatMap((source, n) => (source.split(' ').includes(word) ? [n] : []));
    const first = byKey.get(word)!;
    expect(first.segments).toBe(expected.length);
    const ids: number[] = [];
    for (let chunk = 0; byKey.has(postingKey(word, chunk)); chunk++) {
      const list = JSON.parse(byKey.get(postingKey(word, chunk))!.ids) as number[];
      // Every row but the last is full, as lookups expect.
      if (ids.length + list.length < expected.length) expect(list.length).toBe(POSTING_CHUNK);
      ids.push(...list);
    }
    expect(ids.length).toBe(expected.length);
    expect(new Set(ids).size).toBe(expected.length);
    stored += ids.length;
  }
  expect(stored).toBe(idsSoFar);

  const exact = await store.lookup(id, sources[12_345]!, 'es', 100);
  expect(exact?.score).toBe(100);
  expect(exact?.target).toBe(`es ${sources[12_345]}`);
  const fuzzy = await store.lookup(id, `${sources[777]} zebra`, 'es', 70);
  expect(fuzzy?.score).toBeGreaterThanOrEqual(70);
  db.close();
});
