/**
 * The records of quality-evaluation jobs of one process (the embedded default, without `databaseUrl`):
 * rows of `quality_jobs` in `quality.sqlite` of the data directory (records.ts). The jobs run on the server's
 * job runner (service.ts), whose own rows are in the spine's SQLite storage.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { QualityRequest } from './evaluate.js';
import {
  compressReport,
  EVALUATION_RETENTION_MS,
  MAX_EVALUATION_JOBS_PER_ACCOUNT,
  type QualityRecords,
} from './records.js';

export const QUALITY_DATABASE_FILE = 'quality.sqlite';

/** Applied in order, one transaction each; the count is kept in `PRAGMA user_version`. Append only. */
export const QUALITY_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE quality_jobs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'error')),
    -- What to evaluate (JSON), until the job finishes; then its report (JSON).
    request TEXT,
    report TEXT,
    attempt INTEGER NOT NULL DEFAULT 0,
    -- Milliseconds since the epoch; expires_at is set when the job finishes.
    created_at INTEGER NOT NULL,
    finished_at INTEGER,
    expires_at INTEGER
  );
  CREATE INDEX quality_jobs_account ON quality_jobs(account_id);
  CREATE INDEX quality_jobs_status ON quality_jobs(status);
  CREATE INDEX quality_jobs_expiry ON quality_jobs(expires_at);
  `,
  `
  -- The report, gzip-compressed (store.ts; report stays NULL): a report at the input limits is some 80 MB of
  -- JSON, whose write held the event loop for seconds; compressed it is a few MB.
  ALTER TABLE quality_jobs ADD COLUMN report_gzip BLOB;
  `,
  `
  -- What to evaluate, gzip-compressed (request stays NULL), until the job finishes: a request at the input
  -- limits is 10 MB of JSON, whose insert, and the claim's update that rewrote the whole row, held the event
  -- loop for hundreds of ms each; compressed it is about 1 MB. The thread decompresses and parses it.
  ALTER TABLE quality_jobs ADD COLUMN request_gzip BLOB;
  `,
];

export function openSqliteQualityRecords(dataDir: string): QualityRecords {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(join(dataDir, QUALITY_DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const applied = db.pragma('user_version', { simple: true }) as number;
  for (let version = applied; version < QUALITY_MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(QUALITY_MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }

  const held = db.prepare<[string, number], { n: number }>(
    'SELECT COUNT(*) AS n FROM quality_jobs WHERE account_id = ? AND (expires_at IS NULL OR expires_at > ?)',
  );
  const insertRow = db.prepare(
    `INSERT INTO quality_jobs (id, account_id, status, request_gzip, created_at) VALUES (?, ?, 'queued', ?, ?)`,
  );
  const insert = db.transaction((id: string, accountId: string, request: Buffer): boolean => {
    const now = Date.now();
    if (held.get(accountId, now)!.n >= MAX_EVALUATION_JOBS_PER_ACCOUNT) return false;
    insertRow.run(id, accountId, request, now);
    return true;
  });
  const requestRow = db.prepare<[string], { request: string | null; request_gzip: Buffer | null }>(
    `SELECT request, request_gzip FROM quality_jobs WHERE id = ? AND status IN ('queued', 'running')`,
  );
  const finishRow = db.prepare(
    `UPDATE quality_jobs SET status = ?, report_gzip = ?, request = NULL, request_gzip = NULL, finished_at = ?,
     expires_at = ? WHERE id = ? AND status IN ('queued', 'running')`,
  );
  const findRow = db.prepare<[string, string, number], { report: string | null; report_gzip: Buffer | null }>(
    `SELECT report, report_gzip FROM quality_jobs WHERE id = ? AND account_id = ?
     AND (expires_at IS NULL OR expires_at > ?)`,
  );
  const unfinishedRows = db.prepare<[], { id: string; account_id: string }>(
    `SELECT id, account_id FROM quality_jobs WHERE status IN ('queued', 'running') ORDER BY rowid`,
  );
  const deleteRow = db.prepare('DELETE FROM quality_jobs WHERE id = ?');
  // Records of before the job runner, expired: no job of the runner deletes them.
  db.prepare('DELETE FROM quality_jobs WHERE expires_at <= ?').run(Date.now());

  return {
    backend: 'sqlite',
    async insert(id, accountId, requestGzip, submit) {
      if (!insert.immediate(id, accountId, requestGzip)) return false;
      try {
        await submit();
      } catch (error) {
        deleteRow.run(id);
        throw error;
      }
      return true;
    },
    async request(id) {
      const row = requestRow.get(id);
      if (!row) return undefined;
      // Requests recorded before they were compressed.
      return row.request_gzip ?? (JSON.parse(row.request!) as QualityRequest);
    },
    async finish(id, status, reportGzip) {
      const now = Date.now();
      finishRow.run(status, reportGzip, now, now + EVALUATION_RETENTION_MS, id);
    },
    async find(accountId, id) {
      const row = findRow.get(id, accountId, Date.now());
      if (!row) return undefined;
      if (row.report_gzip !== null) return row.report_gzip;
      // Jobs finished before the reports were compressed.
      if (row.report !== null) return compressReport(Buffer.from(row.report));
      return 'processing';
    },
    async unfinished() {
      return unfinishedRows.all().map((row) => ({ id: row.id, accountId: row.account_id }));
    },
    async delete(id) {
      deleteRow.run(id);
    },
    async close() {
      db.close();
    },
  };
}
