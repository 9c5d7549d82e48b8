/**
 * Reads and edits the documents' storage behind a test server, whichever backend it runs on: SQLite and
 * files in its data directory, or (`GLOSSA_TEST_POSTGRES` set) the PostgreSQL database of that directory.
 */
import { existsSync, readdirSync } from 'node:fs';
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

/** The document's row (its columns, bytes left out), or undefined. */
export async function documentRow(t: TestServer, id: string): Promise<Record<string, unknown> | undefined> {
  if (await onPostgres(t))
    return withPostgres(t, async (client) => {
      const { rows } = await client.query(
        'SELECT id, account_id, key_id, key_hash, parameters, status, billed_characters FROM documents WHERE id = $1',
        [id],
      );
      return rows[0];
    });
  const db = new Database(join(t.dataDir, 'documents.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT * FROM documents WHERE id = ?').get(id) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

/** Makes the document expired now. */
export async function expireDocument(t: TestServer, id: string): Promise<void> {
  if (await onPostgres(t))
    return withPostgres(t, async (client) => {
      await client.query(`UPDATE documents SET expires_at = '2000-01-01T00:00:00Z' WHERE id = $1`, [id]);
    });
  const db = new Database(join(t.dataDir, 'documents.sqlite'));
  db.prepare('UPDATE documents SET expires_at = ? WHERE id = ?').run('2000-01-01T00:00:00.000Z', id);
  db.close();
}

/** Whether any bytes of the document (its upload or result) are still stored. */
export async function hasStoredBytes(t: TestServer, id: string): Promise<boolean> {
  if (await onPostgres(t))
    return withPostgres(t, async (client) => {
      const { rows } = await client.query(
        'SELECT 1 FROM documents WHERE id = $1 AND (upload IS NOT NULL OR result IS NOT NULL)',
        [id],
      );
      return rows.length > 0;
    });
  const folder = join(t.dataDir, 'documents');
  return existsSync(folder) && readdirSync(folder).some((name) => name.startsWith(id));
}

/** The status of every document stored. */
export async function documentStatuses(t: TestServer): Promise<string[]> {
  if (await onPostgres(t))
    return withPostgres(t, async (client) => {
      const { rows } = await client.query<{ status: string }>('SELECT status FROM documents ORDER BY seq');
      return rows.map((row) => row.status);
    });
  const db = new Database(join(t.dataDir, 'documents.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT status FROM documents ORDER BY seq').all() as { status: string }[]).map(
      (row) => row.status,
    );
  } finally {
    db.close();
  }
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

/** How many outputs each kept chunk of every document has (the job checkpoints: translate.ts). */
export async function chunkSizes(t: Pick<TestServer, 'dataDir'>): Promise<number[]> {
  if (await onPostgres(t as TestServer))
    return withPostgres(t as TestServer, async (client) => {
      const { rows } = await client.query('SELECT jsonb_array_length(outputs) AS n FROM document_chunks');
      return rows.map((row) => Number(row.n));
    });
  const db = new Database(join(t.dataDir, 'documents.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT outputs FROM document_chunks').all() as { outputs: string }[]).map(
      (row) => (JSON.parse(row.outputs) as string[]).length,
    );
  } finally {
    db.close();
  }
}
