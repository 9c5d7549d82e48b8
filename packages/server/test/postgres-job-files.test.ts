/**
 * Issue 31: a PostgreSQL job file is stored and read as rows of at most 1 MiB (`jobs/postgres-jobs.ts`), so
 * no query sends or returns a whole upload (a 100 MiB bytea's hex text, decoded on the event loop, stalled
 * it for 0.2–0.6 s). A spy on pg's `Client.query` sees every statement's parameters and rows.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOB_FILE_CHUNK_BYTES } from '../src/jobs/postgres-jobs.js';
import { createPostgresStorage, migratePostgres, type PostgresStorage } from '../src/storage/postgres.js';
import { POSTGRES_MIGRATIONS } from '../src/storage/postgres-migrations.js';
import { postgresForFile } from './postgres-for-file.js';
import { hasPostgres } from './services.js';

const cluster = postgresForFile('PostgreSQL job files (apt-get install postgresql)');
const MIB = 1024 * 1024;

/** Bytes that differ from one offset to the next (a chunk out of place shows). */
const bytes = (length: number, seed = 0) => {
  const data = Buffer.alloc(length);
  for (let at = 0; at < length; at++) data[at] = (at * 7 + seed + (at >> 20)) & 0xff;
  return data;
};

async function* upload(data: Uint8Array, piece = 64 * 1024 + 3): AsyncIterable<Uint8Array> {
  for (let at = 0; at < data.length; at += piece) yield data.subarray(at, at + piece);
}

/** The largest bytea parameter and bytea value of a row that pg sent or returned since `largest.reset()`. */
const largest = { sent: 0, returned: 0, reset: () => Object.assign(largest, { sent: 0, returned: 0 }) };
const size = (value: unknown) =>
  value instanceof Uint8Array ? value.length : typeof value === 'string' ? value.length : 0;
const query = pg.Client.prototype.query;

describe.skipIf(!hasPostgres)('PostgreSQL job files', () => {
  let storage: PostgresStorage;
  beforeAll(async () => {
    storage = await createPostgresStorage(await cluster().createDatabase());
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: any[]) {
      const values = args[0]?.values ?? args[1];
      if (Array.isArray(values))
        for (const value of values) largest.sent = Math.max(largest.sent, size(value));
      const seen = (result: pg.QueryResult | undefined) => {
        for (const row of result?.rows ?? [])
          for (const value of Object.values(row)) largest.returned = Math.max(largest.returned, size(value));
        return result;
      };
      // The pool's queries pass a callback, a client's return a promise.
      const last = args.length - 1;
      const done = args[last];
      if (typeof done === 'function')
        args[last] = (error: unknown, result: pg.QueryResult) => done(error, seen(result));
      const answer = query.apply(this, args as never) as unknown;
      return answer instanceof Promise ? answer.then(seen) : answer;
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await storage?.close();
  });
  afterEach(() => {
    largest.reset();
  });

  const insert = (backend: ReturnType<PostgresStorage['openJobBackend']>, files: Record<string, unknown>) =>
    backend.insert({
      id: randomUUID(),
      kind: 'test/files',
      accountId: 'alice',
      input: '{}',
      maxQueued: 100,
      files: files as never,
      releaseBy: new Date(Date.now() + 3_600_000).toISOString(),
    });
  const chunkRows = async () =>
    Number((await storage.pool.query('SELECT COUNT(*) AS n FROM job_file_chunks')).rows[0].n);

  it('stores an upload and a buffer as chunks of at most 1 MiB, and reads, streams and takes them so', async () => {
    const backend = storage.openJobBackend();
    try {
      const streamed = bytes(3.5 * MIB, 1);
      const whole = bytes(2 * MIB + 5, 2);
      const { id } = await insert(backend, { upload: upload(streamed), whole, empty: new Uint8Array() });
      expect(await backend.files.list(id)).toEqual(['empty', 'upload', 'whole']);
      expect(await chunkRows()).toBe(4 + 3);
      const parts: Buffer[] = [];
      for await (const part of (await backend.files.stream(id, 'upload'))!) parts.push(Buffer.from(part));
      expect(parts.map((part) => part.length)).toEqual([MIB, MIB, MIB, MIB / 2]);
      expect(Buffer.concat(parts).equals(streamed)).toBe(true);
      expect(Buffer.from((await backend.files.read(id, 'whole'))!).equals(whole)).toBe(true);
      expect((await backend.files.read(id, 'empty'))?.length).toBe(0);
      // Of two takers, one gets the file; its chunks go with it.
      const taken = await Promise.all([backend.files.take(id, 'whole'), backend.files.take(id, 'whole')]);
      expect(
        taken.filter((file) => file !== undefined).map((file) => Buffer.from(file!).equals(whole)),
      ).toEqual([true]);
      expect(await chunkRows()).toBe(4);
      expect(largest.sent).toBeLessThanOrEqual(JOB_FILE_CHUNK_BYTES);
      expect(largest.returned).toBeLessThanOrEqual(JOB_FILE_CHUNK_BYTES);
      expect(largest.sent).toBe(JOB_FILE_CHUNK_BYTES);
      expect(largest.returned).toBe(JOB_FILE_CHUNK_BYTES);
      // A file replaced, then the job deleted: their chunks go with them.
      await backend.putFile(id, 'upload', bytes(10));
      expect(await chunkRows()).toBe(1);
      expect(Buffer.from((await backend.files.read(id, 'upload'))!).equals(bytes(10))).toBe(true);
      await storage.pool.query('DELETE FROM jobs WHERE id = $1', [id]);
      expect(await chunkRows()).toBe(0);
    } finally {
      await backend.close();
    }
  });

  it('leaves no chunk of an upload that failed, and sweeps those of a submit that never committed', async () => {
    const backend = storage.openJobBackend();
    try {
      async function* broken() {
        yield bytes(1.5 * MIB);
        throw new Error('the client went away');
      }
      await expect(insert(backend, { upload: broken(), other: bytes(3 * MIB) })).rejects.toThrow('went away');
      expect(await chunkRows()).toBe(0);
      // Chunks staged by a process killed before its job's row committed: an old one and a recent one.
      const insertChunk =
        'INSERT INTO job_file_chunks (file_id, seq, data, staged_at) VALUES ($1, 0, $2, $3)';
      await storage.pool.query(insertChunk, ['old', bytes(5), new Date(Date.now() - 3_600_000)]);
      await storage.pool.query(insertChunk, ['recent', bytes(5), new Date()]);
      const { id } = await insert(backend, { kept: bytes(5) });
      await backend.sweep(new Date(0).toISOString());
      const { rows } = await storage.pool.query('SELECT file_id FROM job_file_chunks ORDER BY file_id');
      expect(rows.map((row) => row.file_id).filter((file) => file === 'old' || file === 'recent')).toEqual([
        'recent',
      ]);
      expect(Buffer.from((await backend.files.read(id, 'kept'))!).equals(bytes(5))).toBe(true);
      await storage.pool.query("DELETE FROM job_file_chunks WHERE file_id = 'recent'");
      await storage.pool.query('DELETE FROM jobs WHERE id = $1', [id]);
    } finally {
      await backend.close();
    }
  });

  it('cuts the files stored before the migration into chunks', async () => {
    const url = await cluster().createDatabase();
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const before = POSTGRES_MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE job_file_chunks'));
    const old = bytes(2.5 * MIB, 3);
    try {
      await migratePostgres(pool, 'glossa_schema', POSTGRES_MIGRATIONS.slice(0, before));
      await pool.query(
        `INSERT INTO jobs (id, kind, account_id, status, input, run_after, created_at, updated_at)
         VALUES ('j1', 'test/files', 'alice', 'completed', '{}', '', '', '')`,
      );
      await pool.query(
        `INSERT INTO job_files (job_id, name, data) VALUES ('j1', 'old', $1), ('j1', 'none', '')`,
        [old],
      );
    } finally {
      await pool.end();
    }
    const migrated = await createPostgresStorage(url);
    const backend = migrated.openJobBackend();
    try {
      largest.reset();
      expect(Buffer.from((await backend.files.read('j1', 'old'))!).equals(old)).toBe(true);
      expect((await backend.files.read('j1', 'none'))?.length).toBe(0);
      expect(largest.returned).toBe(JOB_FILE_CHUNK_BYTES);
      await migrated.pool.query("DELETE FROM jobs WHERE id = 'j1'");
      expect(Number((await migrated.pool.query('SELECT COUNT(*) AS n FROM job_file_chunks')).rows[0].n)).toBe(
        0,
      );
    } finally {
      await backend.close();
      await migrated.close();
    }
  });
});
