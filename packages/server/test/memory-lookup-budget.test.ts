/**
 * Issue 31: a fuzzy memory lookup does bounded work whatever the memory. On a real SQLite file (and on a
 * real PostgreSQL with GLOSSA_TEST_POSTGRES=1): in an ordinary memory (a large vocabulary, each word in few
 * segments) exact and fuzzy lookups find what scoring every segment finds; in a memory whose segments all
 * share the text's tokens, a lookup reads at most MAX_CANDIDATES posting ids (plus one posting row) and
 * scores at most MAX_CANDIDATES segments, and a segment holding the text's rare words is still found. The
 * work is counted by the store's `onLookupWork`, not timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBatch, writeRest } from '../src/memories/import-rows-postgres.js';
import { PendingPostings, POSTING_CHUNK, type SegmentInput } from '../src/memories/postings.js';
import { matchScore, tokenize } from '../src/memories/score.js';
import {
  createMemoryStore,
  type LookupWork,
  MAX_CANDIDATES,
  type MemoryStore,
} from '../src/memories/store.js';
import { migratePostgres } from '../src/storage/postgres.js';
import { createPostgresMemoryStore } from '../src/storage/postgres-memories.js';
import { POSTGRES_RESOURCE_MIGRATIONS } from '../src/storage/postgres-resources.js';
import { openResourceDatabase, type ResourceDatabase } from '../src/storage/resource-db.js';
import { onPostgres, sharedPostgres, stopSharedPostgres } from './services.js';

const segment = (source: string, target = `es: ${source}`): SegmentInput => ({
  source,
  targets: [{ language: 'es', text: target }],
});

/**
 * 3,000 distinct sentences of 8–12 words from a vocabulary of 1,999 (word k of sentence i: (7i² + 7,919i +
 * 104,729k + 13ik) mod 1,999: each word in 15 segments on average, 34 at most) and "the".
 */
function ordinarySources(): string[] {
  return Array.from({ length: 3000 }, (_, i) => {
    const words = Array.from(
      { length: 8 + (i % 5) },
      (_, k) => `w${((i * i * 7 + i * 7919 + k * 104729 + i * k * 13) % 1999).toString(36)}`,
    );
    return `The ${words.join(' ')}.`;
  });
}

const COMMON = 'the file disk house green server opens reads quickly small new old'.split(' ');
/** `count` sentences of 9 of the 12 common words: every segment shares most tokens with any such text. */
const sharedSources = (count: number) =>
  Array.from({ length: count }, (_, n) =>
    Array.from({ length: 9 }, (_, k) => COMMON[(n * 7 + k * 5 + Math.floor(n / 12)) % COMMON.length]).join(
      ' ',
    ),
  );
const NEEDLE = 'zebra giraffe the file disk house green server opens';
const NEAR_NEEDLE = 'zebra giraffe the file okapi house green server opens';

/** The best score of `text` over `sources`, scoring each (what a lookup must agree with). */
function bruteForceBest(text: string, sources: readonly string[]): number {
  const tokens = tokenize(text);
  return Math.max(...sources.map((source) => matchScore(text, tokens, source, tokenize(source))));
}

interface Backend {
  readonly store: MemoryStore;
  /** Writes a ready memory of `segments` (ids in order); its id. */
  create(segments: readonly SegmentInput[]): Promise<string>;
  close(): Promise<void>;
}

const work: LookupWork[] = [];
const onLookupWork = (one: LookupWork) => work.push(one);

async function sqliteBackend(): Promise<Backend & { db: ResourceDatabase }> {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-lookup-budget-'));
  const db = openResourceDatabase(dir);
  const store = createMemoryStore(db, { onLookupWork });
  return {
    db,
    store,
    async create(segments) {
      const id = await store.begin('acct', 'memory');
      for (let start = 0; start < segments.length; start += 1000)
        await store.addBatch(id, segments.slice(start, start + 1000));
      await store.finish(id, 'en', ['es'], segments.length);
      return id;
    },
    async close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresBackend(): Promise<Backend> {
  const url = await (await sharedPostgres()).createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  await migratePostgres(pool, 'glossa_resources_schema', POSTGRES_RESOURCE_MIGRATIONS);
  const store = createPostgresMemoryStore(pool, { onLookupWork });
  return {
    store,
    async create(segments) {
      const id = await store.begin(pool, 'acct', 'memory');
      const postings = new PendingPostings();
      const client = await pool.connect();
      try {
        for (let start = 0; start < segments.length; start += 1000)
          await addBatch(client, id, segments.slice(start, start + 1000), postings);
        const rest = postings.takeRest();
        await writeRest(client, id, rest.rows, rest.totals);
        await client.query('BEGIN');
        await store.finish(client, id, { source: 'en', targets: ['es'], segments: segments.length });
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      return id;
    },
    async close() {
      await pool.end();
      await stopSharedPostgres();
    },
  };
}

describe.each([
  ['SQLite', sqliteBackend, false],
  ['PostgreSQL', postgresBackend, !onPostgres],
] as const)('memory lookups on %s: bounded work, best matches kept', (_name, open, skip) => {
  let backend: Backend;
  let ordinary: string;
  let shared: string;
  const sources = ordinarySources();
  const adversarial = [...sharedSources(4 * (MAX_CANDIDATES + POSTING_CHUNK)), NEEDLE];
  beforeAll(async () => {
    if (skip) return;
    backend = await open();
    ordinary = await backend.create(sources.map((source) => segment(source)));
    shared = await backend.create(adversarial.map((source) => segment(source)));
  }, 120_000);
  afterAll(async () => {
    await backend?.close();
  });

  it.skipIf(skip)(
    'an ordinary memory: exact matches, and the best fuzzy match scoring every segment finds',
    async () => {
      for (let k = 0; k < 25; k++) {
        const source = sources[(k * 113) % sources.length]!;
        const exact = await backend.store.lookup(ordinary, source, 'es', 75);
        expect(exact?.score).toBe(100);
        expect(exact?.target).toBe(`es: ${source}`);

        // One word replaced by a word no segment holds: the best fuzzy match, as scoring all of them says.
        const words = source.split(' ');
        words[1 + (k % (words.length - 2))] = 'okapi';
        const text = words.join(' ');
        work.length = 0;
        const fuzzy = await backend.store.lookup(ordinary, text, 'es', 75);
        expect(fuzzy?.score, text).toBe(bruteForceBest(text, sources));
        expect(fuzzy!.score).toBeGreaterThanOrEqual(80);
        // Rare words have short lists: far under the budget, so nothing was cut.
        expect(work).toHaveLength(1);
        expect(work[0]!.postingIds).toBeLessThan(MAX_CANDIDATES);
      }
    },
  );

  it.skipIf(skip)(
    'a memory whose segments all share the text’s tokens: bounded work, the rare words’ segment found',
    async () => {
      expect(adversarial.length).toBeGreaterThan(4 * MAX_CANDIDATES);
      const close = `zebra ${adversarial[2]!.split(' ').slice(1).join(' ')}`;
      for (const text of [close, 'old new small quickly reads the']) {
        work.length = 0;
        const found = await backend.store.lookup(shared, text, 'es', 50);
        if (text === close) expect(found!.score).toBeGreaterThanOrEqual(88);
        expect(work).toHaveLength(1);
        expect(work[0]!.postingIds).toBeLessThanOrEqual(MAX_CANDIDATES + POSTING_CHUNK);
        expect(work[0]!.postingIds).toBeGreaterThan(0);
        expect(work[0]!.candidates).toBeLessThanOrEqual(MAX_CANDIDATES);
      }
      work.length = 0;
      const needle = await backend.store.lookup(shared, NEAR_NEEDLE, 'es', 75);
      expect(needle).toMatchObject({
        score: bruteForceBest(NEAR_NEEDLE, adversarial),
        target: `es: ${NEEDLE}`,
      });
      expect(work[0]!.postingIds).toBeLessThanOrEqual(MAX_CANDIDATES + POSTING_CHUNK);
      // An exact match is found by its key, whatever the postings.
      const exact = await backend.store.lookup(shared, adversarial[1234]!, 'es', 75);
      expect(exact).toMatchObject({ score: 100, target: `es: ${adversarial[1234]}` });
    },
  );
});

describe('memory lookups on SQLite: a memory written before posting lists were cut into rows', () => {
  it('is looked up as before (its whole list in one row)', async () => {
    const backend = await sqliteBackend();
    try {
      const sources = ordinarySources().slice(0, 500);
      const id = await backend.create(sources.map((source) => segment(source)));
      // Rewrite the postings as one row per token, as imports wrote them before.
      const lists = new Map<string, number[]>();
      const rows = backend.db
        .prepare('SELECT id, source_text FROM memory_segments WHERE memory_id = ? ORDER BY id')
        .all(id) as { id: number; source_text: string }[];
      for (const row of rows)
        for (const gram of new Set(tokenize(row.source_text))) {
          const list = lists.get(gram) ?? [];
          list.push(row.id);
          lists.set(gram, list);
        }
      backend.db.prepare('DELETE FROM memory_postings WHERE memory_id = ?').run(id);
      const insert = backend.db.prepare(
        'INSERT INTO memory_postings (memory_id, gram, segments, ids) VALUES (?, ?, ?, ?)',
      );
      for (const [gram, ids] of lists) insert.run(id, gram, ids.length, JSON.stringify(ids));

      const words = sources[42]!.split(' ');
      words[2] = 'okapi';
      const text = words.join(' ');
      const fuzzy = await backend.store.lookup(id, text, 'es', 50);
      expect(fuzzy).toMatchObject({ score: bruteForceBest(text, sources), target: `es: ${sources[42]}` });
    } finally {
      await backend.close();
    }
  });
});
