/**
 * The job backend of the embedded default (`job-backend.ts` writes the operations): the `jobs` table of
 * `glossa.sqlite`, next to `usage` and `usage_operations`. One process owns the data directory, so a job
 * found running under another owner belonged to a process that is gone: it is queued again and resumes from
 * its checkpoint. A job's files are files in the data directory (`sqlite-job-files.ts`).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import { type Answer, createJobBackend, type JobBackend, type Step, type Tx } from './job-backend.js';
import { openJobFiles } from './sqlite-job-files.js';

export interface SqliteJobBackendOptions {
  /** Called after usage of a character product was applied (the storage's quota totals are stale). */
  readonly onCharacterUsage?: () => void;
  /** How often an idle worker looks for a job whose retry time has come, in ms (default 500). */
  readonly pollMs?: number;
  /** Where the jobs' files are (`sqlite-job-files.ts`): `<data dir>/jobs`. */
  readonly filesDir: string;
  /** How old a directory of no job must be before the sweep removes it, in ms (default 10 minutes). */
  readonly orphanFilesMs?: number;
}

export function createSqliteJobBackend(db: Database.Database, options: SqliteJobBackendOptions): JobBackend {
  const files = openJobFiles(options.filesDir);
  const prepared = new Map<string, Database.Statement>();
  /** Runs a statement, its parameters `$1`, `$2`… bound by name (an object keyed 1, 2…). */
  const run = (sql: string, args: readonly unknown[]): Answer => {
    const statement = prepared.get(sql) ?? db.prepare(sql);
    prepared.set(sql, statement);
    const values = Object.fromEntries(args.map((value, at) => [at + 1, value]));
    if (!statement.reader) return { rows: [], count: statement.run(values).changes };
    const rows = statement.all(values);
    return { rows, count: rows.length };
  };
  /** Runs a transaction's steps synchronously: nothing else of the process runs until it commits. */
  const transaction = db.transaction((work: Tx<unknown>, after: (() => Promise<void>)[]) => {
    for (let step = work.next(); ; ) {
      if (step.done) return step.value;
      const next: Step = step.value;
      if ('afterCommit' in next) after.push(next.afterCommit);
      // A wake-up: the runner notifies this process's loops itself.
      step = work.next('sql' in next ? run(next.sql, next.args) : undefined);
    }
  });
  const stored = (ids: string[]) => {
    const { rows } = run('SELECT id FROM jobs WHERE id IN (SELECT value FROM json_each($1))', [
      JSON.stringify(ids),
    ]);
    return new Set((rows as { id: string }[]).map((row) => row.id));
  };

  return createJobBackend({
    owner: `${hostname()}/${process.pid}/${randomUUID()}`,
    submitOrder: 'rowid',
    query: async <T>(sql: string, args: readonly unknown[]) => run(sql, args) as Answer<T>,
    async transaction<T>(work: Tx<T>) {
      const after: (() => Promise<void>)[] = [];
      const result = transaction.immediate(work, after) as T;
      for (const task of after) await task();
      return result;
    },
    files,
    async hold() {},
    sweep: () => files.removeOrphans(stored, Date.now() - (options.orphanFilesMs ?? 600_000)),
    pollMs: options.pollMs ?? 500,
    onCharacterUsage: () => options.onCharacterUsage?.(),
    // The database is the storage's: closed with it.
    close: async () => {},
  });
}
