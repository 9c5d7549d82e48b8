/**
 * The job stores that development versions before the job runner kept beside it (documents' and voice's own
 * tables and folders) are neither read, changed nor deleted by this version: a server that finds one holding
 * data refuses to start, and says how to move it into the job runner.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { ServiceContext } from './context.js';

/** A start refused because the data directory or database holds what this version cannot read. */
export class StartRefused extends Error {
  override readonly name = 'StartRefused';
}

/**
 * Rejects (`StartRefused`), naming what it found, when an earlier version's job store holds data: a row in
 * a table of `names` (in the SQLite file `file` of the data directory, or in PostgreSQL), a file in a folder
 * of the data directory. Call it before opening them.
 */
export async function refuseEarlierJobStores(
  { options }: Pick<ServiceContext, 'options'>,
  stores: { tables: { file: string; names: readonly string[] }; folders?: readonly string[] },
): Promise<void> {
  const found = (stores.folders ?? [])
    .map((name) => join(options.dataDir, name))
    .filter((path) => existsSync(path) && statSync(path).isDirectory() && readdirSync(path).length > 0)
    .map((path) => `files in ${path}`);
  const file = join(options.dataDir, stores.tables.file);
  for (const name of stores.tables.names) {
    // `names` are the features' constants, never a request's.
    const rows = `SELECT 1 FROM ${name} LIMIT 1`;
    if (options.databaseUrl !== undefined) {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        const there = (await client.query(`SELECT to_regclass($1) AS t`, [name])).rows[0].t !== null;
        if (there && (await client.query(rows)).rowCount)
          found.push(`rows in the table ${name} (PostgreSQL)`);
      } finally {
        await client.end();
      }
    } else if (existsSync(file)) {
      const db = new Database(file, { fileMustExist: true });
      try {
        const there = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name);
        if (there && db.prepare(rows).get()) found.push(`rows in the table ${name} of ${file}`);
      } finally {
        db.close();
      }
    }
  }
  if (found.length > 0)
    throw new StartRefused(
      `The data holds job stores of an earlier Glossa version (${found.join('; ')}): upgrade through Glossa commit e39d40c first (it moves these into the job runner), then start this version.`,
    );
}
