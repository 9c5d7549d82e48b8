/**
 * Reads and edits the documents' storage behind a test server, whichever backend it runs on: their jobs (the
 * runner's `jobs` rows and job files) in SQLite and files in its data directory, or (`GLOSSA_TEST_POSTGRES`
 * set) in the PostgreSQL database of that directory.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { storageFor, type TestServer } from './helpers.js';

async function withPostgres<T>(t: TestServer, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const { databaseUrl } = await storageFor(t.dataDir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const onPostgres = async (t: TestServer) => (await storageFor(t.dataDir)).databaseUrl !== undefined;

const STATUS: Record<string, string> = {
  queued: 'queued',
  running: 'translating',
  completed: 'done',
  failed: 'error',
  cancelled: 'error',
};

function withSqlite<T>(t: Pick<TestServer, 'dataDir'>, work: (db: Database.Database) => T): T {
  const db = new Database(join(t.dataDir, 'glossa.sqlite'));
  db.pragma('busy_timeout = 5000');
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** The document's job row (its columns, the key's hash from its input as `key_hash`), or undefined. */
export async function documentRow(t: TestServer, id: string): Promise<Record<string, unknown> | undefined> {
  const row = (await onPostgres(t))
    ? await withPostgres(
        t,
        async (client) => (await client.query('SELECT * FROM jobs WHERE id = $1', [id])).rows[0],
      )
    : withSqlite(
        t,
        (db) => db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as Record<string, unknown> | undefined,
      );
  return row && { ...row, key_hash: (JSON.parse(String(row.input)) as { keyHash: string }).keyHash };
}

/** Makes the document's job expired now. */
export async function expireDocument(t: TestServer, id: string): Promise<void> {
  if (await onPostgres(t))
    return withPostgres(t, async (client) => {
      await client.query(`UPDATE jobs SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = $1`, [id]);
    });
  withSqlite(t, (db) =>
    db.prepare('UPDATE jobs SET expires_at = ? WHERE id = ?').run('2000-01-01T00:00:00.000Z', id),
  );
}

/** The files of the job `id` (SQLite: `<dataDir>/jobs/<id>/`) with some bytes, by name: their contents. */
async function jobFiles(
  t: Pick<TestServer, 'dataDir'>,
  id?: string,
): Promise<{ name: string; data: Buffer }[]> {
  if (await onPostgres(t as TestServer))
    return withPostgres(t as TestServer, async (client) => {
      const { rows } = await client.query<{ name: string; data: Buffer }>(
        // A file's bytes are its chunks' (rows of at most 1 MiB), in order.
        `SELECT name, data FROM (SELECT f.job_id, f.name, (SELECT string_agg(c.data, ''::bytea ORDER BY c.seq) FROM job_file_chunks c WHERE c.file_id = f.file_id) AS data FROM job_files f) AS job_files
         WHERE ($1::text IS NULL OR job_id = $1) AND length(data) > 0`,
        [id ?? null],
      );
      return rows;
    });
  const root = join(t.dataDir, 'jobs');
  if (!existsSync(root)) return [];
  const folders = id === undefined ? readdirSync(root).filter((name) => !name.startsWith('.')) : [id];
  const files: { name: string; data: Buffer }[] = [];
  for (const folder of folders) {
    if (!existsSync(join(root, folder))) continue;
    for (const name of readdirSync(join(root, folder))) {
      if (name.startsWith('.')) continue;
      const data = readFileSync(join(root, folder, name));
      if (data.length > 0) files.push({ name, data });
    }
  }
  return files;
}

/** Whether any bytes of the document (its upload, chunks or result: its job's files) are still stored. */
export async function hasStoredBytes(t: TestServer, id: string): Promise<boolean> {
  return (await jobFiles(t, id)).length > 0;
}

/** The runner's rows of the documents' jobs (`columns`), ordered by `order`, whichever backend. */
export async function documentJobs<Row>(t: TestServer, columns: string, order: string): Promise<Row[]> {
  const sql = `SELECT ${columns} FROM jobs WHERE kind = 'documents/translate' ORDER BY ${order}`;
  return (await onPostgres(t))
    ? withPostgres(t, async (client) => (await client.query(sql)).rows as Row[])
    : withSqlite(t, (db) => db.prepare(sql).all() as Row[]);
}

/** The status of every document stored (its job's, as the document's status names it), oldest first. */
export async function documentStatuses(t: TestServer): Promise<string[]> {
  const sql = `SELECT status FROM jobs WHERE kind = 'documents/translate' ORDER BY created_at`;
  const rows = (await onPostgres(t))
    ? await withPostgres(t, async (client) => (await client.query<{ status: string }>(sql)).rows)
    : withSqlite(t, (db) => db.prepare(sql).all() as { status: string }[]);
  return rows.map((row) => STATUS[row.status] ?? row.status);
}

let databases = 0;

/**
 * A new database on a test cluster, created on a connection of its own that is fully closed before this
 * resolves. (The cluster's `createDatabase` keeps an admin pool whose connection may still be closing when
 * the cluster stops, and PostgreSQL's shutdown message to it then surfaces as an unhandled error.)
 */
export async function createDatabase(cluster: { readonly port: number }): Promise<string> {
  const client = new pg.Client({
    connectionString: `postgres://postgres@127.0.0.1:${cluster.port}/postgres`,
  });
  await client.connect();
  const name = `glossa_documents_${process.pid}_${++databases}`;
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return `postgres://postgres@127.0.0.1:${cluster.port}/${name}`;
}

/** How many outputs each kept chunk of every document has (its job's `chunk-<digest>` files: document-job.ts). */
export async function chunkSizes(t: Pick<TestServer, 'dataDir'>): Promise<number[]> {
  return (await jobFiles(t))
    .filter((file) => file.name.startsWith('chunk-'))
    .map((file) => (JSON.parse(file.data.toString('utf8')) as { outputs: string[] }).outputs.length);
}
