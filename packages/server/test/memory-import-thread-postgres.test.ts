/**
 * Issue 31: on PostgreSQL too, a TMX import's parsing, tokenizing and writing run on the import's thread,
 * through a connection of its own (memories/import-thread.ts, `postgresMemoryWriter`): the event loop's
 * pool runs no query while the memory is written, the thread runs at the lowered priority, the rows are
 * those the SQLite thread writes for the same file (ids relative to the first segment's), a cancelled import
 * writes nothing more, and a file that cannot be read fails as `readTmx` does. Real PostgreSQL (skipped
 * where it is not installed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importThreadStats } from '../src/memories/import-thread.js';
import { createMemoryStore } from '../src/memories/store.js';
import { readTmx } from '../src/memories/tmx.js';
import { migratePostgres } from '../src/storage/postgres.js';
import { createPostgresMemoryStore } from '../src/storage/postgres-memories.js';
import { postgresMemoryWriter } from '../src/storage/postgres-memory-jobs.js';
import { POSTGRES_MIGRATIONS } from '../src/storage/postgres-migrations.js';
import { POSTGRES_RESOURCE_MIGRATIONS } from '../src/storage/postgres-resources.js';
import { openResourceDatabase } from '../src/storage/resource-db.js';
import { loweredThreads, pieces, threadUnits, tmx } from './memory-helpers.js';
import { hasPostgres, sharedPostgres, stopSharedPostgres } from './services.js';

const units = threadUnits;
const UNITS = units.length;
const file = Buffer.from(tmx(units));

/** A paused import: `reached` once the thread asked for piece 8; `resume` hands the rest on. */
function pausing() {
  let reached!: () => void;
  let resume!: () => void;
  const paused = new Promise<void>((resolve) => (reached = resolve));
  const content = pieces(file, { at: 8, reached, resume: new Promise((resolve) => (resume = resolve)) });
  return { content, paused, resume: () => resume() };
}

interface Rows {
  segments: unknown[];
  targets: unknown[];
  postings: unknown[];
}

/** A memory's rows on a backend, segment ids made relative to its first segment's. */
async function rowsOf(query: (sql: string, values: unknown[]) => Promise<unknown[]>, memoryId: string) {
  const segments = (await query(
    'SELECT id, source_text, source_key, token_count, tokens, source_tagged FROM memory_segments WHERE memory_id = $1 ORDER BY id',
    [memoryId],
  )) as { id: number | string }[];
  const first = Number(segments[0]?.id ?? 0);
  const targets = (await query(
    `SELECT t.segment_id AS segment, t.seq, t.language, t.text, t.tagged FROM memory_targets t
     JOIN memory_segments s ON s.id = t.segment_id WHERE s.memory_id = $1 ORDER BY t.segment_id, t.seq`,
    [memoryId],
  )) as { segment: number | string }[];
  const postings = (await query(
    'SELECT gram, segments, ids FROM memory_postings WHERE memory_id = $1 ORDER BY gram',
    [memoryId],
  )) as { gram: string; segments: number; ids: string }[];
  return {
    segments: segments.map((row) => ({ ...row, id: Number(row.id) - first })),
    targets: targets.map((row) => ({ ...row, segment: Number(row.segment) - first })),
    // PostgreSQL orders text by its collation, SQLite by bytes: compared in one order.
    postings: postings
      .map((row) => ({ ...row, ids: (JSON.parse(row.ids) as number[]).map((id) => id - first) }))
      .sort((a, b) => (a.gram < b.gram ? -1 : a.gram > b.gram ? 1 : 0)),
  } satisfies Rows;
}

describe.skipIf(!hasPostgres)('a memory import on PostgreSQL, on its own thread', () => {
  let pool: pg.Pool;
  /** Clients the event loop's pool handed out (for a query, or a transaction). */
  let poolClients = 0;
  const read = async (sql: string, values: unknown[]) => (await pool.query(sql, values)).rows;
  const dir = mkdtempSync(join(tmpdir(), 'glossa-import-thread-pg-'));
  beforeAll(async () => {
    const url = await (await sharedPostgres()).createDatabase();
    pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on('error', () => {});
    await migratePostgres(pool, 'glossa_schema', POSTGRES_MIGRATIONS);
    await migratePostgres(pool, 'glossa_resources_schema', POSTGRES_RESOURCE_MIGRATIONS);
    // Every query of the pool takes a client first (pool.query too).
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    pool.connect = ((...args: unknown[]) => {
      poolClients++;
      return connect(...args);
    }) as typeof pool.connect;
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await stopSharedPostgres();
    rmSync(dir, { recursive: true, force: true });
  });
  const writer = () => postgresMemoryWriter(pool, createPostgresMemoryStore(pool));

  it('writes the segments and postings on its own connection, at a lower priority, as the SQLite thread does', async () => {
    const db = openResourceDatabase(dir);
    const sqlite = createMemoryStore(db);
    const onSqlite = await sqlite.begin('acct', 'sqlite');
    const sqliteSummary = await sqlite.importTmx(onSqlite, pieces(file), new AbortController().signal);
    const sqliteRows = await rowsOf(
      async (sql, values) => db.prepare(sql.replaceAll(/\$\d/g, '?')).all(...values),
      onSqlite,
    );
    db.close();

    const memories = writer();
    const memoryId = await memories.begin('acct', 'postgres');
    const starts = importThreadStats.starts;
    const lowered = process.platform === 'linux' ? loweredThreads() : 0;
    const before = poolClients;
    const { content, paused, resume } = pausing();
    const importing = memories.write(memoryId, content, new AbortController().signal);
    await paused;
    if (process.platform === 'linux') expect(loweredThreads()).toBe(lowered + 1);
    resume();
    const summary = await importing;
    // The event loop's pool ran no query while the memory was written: the thread wrote every row.
    expect(poolClients).toBe(before);
    expect(importThreadStats.starts).toBe(starts + 1);
    expect(summary).toEqual(sqliteSummary);
    const rows = await rowsOf(read, memoryId);
    expect(rows.segments).toHaveLength(UNITS);
    expect(rows).toEqual(sqliteRows);
  });

  it('stops a cancelled import between two transactions; the memory is then deleted whole', async () => {
    const memories = writer();
    const memoryId = await memories.begin('acct', 'cancelled');
    const controller = new AbortController();
    const { content, paused, resume } = pausing();
    const importing = memories.write(memoryId, content, controller.signal);
    await paused;
    controller.abort(new Error('cancelled'));
    resume();
    await expect(importing).rejects.toThrow('cancelled');
    const writes = importThreadStats.writes;
    const written = (await rowsOf(read, memoryId)).segments.length;
    expect(written).toBeLessThan(UNITS);
    // The thread has ended (the import settles after it): nothing more is written.
    expect(importThreadStats.writes).toBe(writes);
    expect((await rowsOf(read, memoryId)).segments).toHaveLength(written);
    await memories.discard(memoryId);
    expect(await rowsOf(read, memoryId)).toEqual({ segments: [], targets: [], postings: [] });
  });

  it('fails a file it cannot read as readTmx does', async () => {
    const broken = Buffer.from(tmx(units.slice(0, 10)).replace('</body>', '</bod>'));
    const expected = await readTmx(pieces(broken), () => {}).catch((error: Error) => error);
    expect(expected).toBeInstanceOf(Error);
    const memories = writer();
    const memoryId = await memories.begin('acct', 'broken');
    const failed = await memories
      .write(memoryId, pieces(broken), new AbortController().signal)
      .catch((error: Error) => error);
    expect((failed as Error).name).toBe((expected as Error).name);
    expect((failed as Error).message).toBe((expected as Error).message);
    await memories.discard(memoryId);
  });
});
