/**
 * The records of quality-evaluation jobs of a fleet (`databaseUrl`): rows of `quality_jobs` in the server's
 * PostgreSQL (records.ts), so that every instance answers the polls of every job. The jobs run on the
 * server's job runner (service.ts), whose rows and pg-boss queue are the spine's. The per-account limit is
 * checked and the record inserted in one transaction under an advisory lock on the account
 * (`pg_advisory_xact_lock`): concurrent submissions through several instances never overshoot it.
 */
import { migratePostgres, pgTransaction as transaction } from '@glossa/server/feature';
import pg from 'pg';
import type { QualityRequest } from './evaluate.js';
import {
  compressReport,
  EVALUATION_RETENTION_MS,
  MAX_EVALUATION_JOBS_PER_ACCOUNT,
  type QualityRecords,
} from './records.js';

/** First key of the per-account submission locks (the second is a hash of the account id). */
const ACCOUNT_LOCK = 7_117_041;

/** Applied in order, one transaction each (the spine's runner, counted in `glossa_quality_schema`). */
export const POSTGRES_QUALITY_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE quality_jobs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'error')),
    -- What to evaluate, until the job finishes; then its report.
    request JSONB,
    report JSONB,
    -- The instance running it ('host/pid/random': its lease), and how many times a worker claimed it.
    owner TEXT,
    attempt INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    started_at TIMESTAMPTZ,
    finished_at TIMESTAMPTZ,
    expires_at TIMESTAMPTZ
  );
  CREATE INDEX quality_jobs_account ON quality_jobs(account_id);
  CREATE INDEX quality_jobs_expiry ON quality_jobs(expires_at);
  CREATE INDEX quality_jobs_running ON quality_jobs(owner) WHERE status = 'running';
  `,
  `
  -- When the row was last queued (submitted, or queued again): a queued row whose pg-boss job is gone (its
  -- worker died between pg-boss's delivery and the claim) is found by it.
  ALTER TABLE quality_jobs ADD COLUMN queued_at TIMESTAMPTZ NOT NULL DEFAULT now();
  CREATE INDEX quality_jobs_queued ON quality_jobs(queued_at) WHERE status = 'queued';
  `,
  `
  -- The report, gzip-compressed (store.ts; report stays NULL): a report at the input limits is some 80 MB of
  -- JSON, whose parse and serialization held the event loop for seconds at each poll.
  ALTER TABLE quality_jobs ADD COLUMN report_gzip BYTEA;
  `,
  `
  -- What to evaluate, gzip-compressed (request stays NULL), until the job finishes: the jobs run on the
  -- server's job runner since, and the record holds what its rows should not carry. owner, started_at and
  -- queued_at are no longer written (the runner's rows say who runs a job).
  ALTER TABLE quality_jobs ADD COLUMN request_gzip BYTEA;
  `,
  `
  -- Left by the queue of before the job runner, read by nothing since: who ran a job and how often, and when.
  DROP INDEX IF EXISTS quality_jobs_running;
  DROP INDEX IF EXISTS quality_jobs_queued;
  ALTER TABLE quality_jobs DROP COLUMN owner, DROP COLUMN attempt, DROP COLUMN started_at, DROP COLUMN queued_at;
  `,
];

/** Migrates `quality_jobs` (counted in `glossa_quality_schema`) and opens its records. */
export async function openPgQualityRecords(url: string): Promise<QualityRecords> {
  const pool = new pg.Pool({ connectionString: url, max: 3, application_name: 'glossa-quality' });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => {});
  try {
    await migratePostgres(pool, 'glossa_quality_schema', POSTGRES_QUALITY_MIGRATIONS);
    // Records of before the job runner, expired: no job of the runner deletes them.
    await pool.query('DELETE FROM quality_jobs WHERE expires_at <= now()');
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    backend: 'postgres',
    insert: (id, accountId, requestGzip, submit) =>
      transaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [ACCOUNT_LOCK, accountId]);
        const { rows } = await client.query<{ n: number }>(
          `SELECT COUNT(*)::int AS n FROM quality_jobs
           WHERE account_id = $1 AND (expires_at IS NULL OR expires_at > now())`,
          [accountId],
        );
        if (rows[0]!.n >= MAX_EVALUATION_JOBS_PER_ACCOUNT) return false;
        await client.query(
          `INSERT INTO quality_jobs (id, account_id, status, request_gzip) VALUES ($1, $2, 'queued', $3)`,
          [id, accountId, requestGzip],
        );
        await submit(client);
        return true;
      }),
    async request(id) {
      const { rows } = await pool.query<{ request: QualityRequest | null; request_gzip: Buffer | null }>(
        `SELECT request, request_gzip FROM quality_jobs WHERE id = $1 AND status IN ('queued', 'running')`,
        [id],
      );
      const row = rows[0];
      // Requests recorded before they were compressed (jsonb).
      return row ? (row.request_gzip ?? row.request ?? undefined) : undefined;
    },
    async finish(id, status, reportGzip) {
      await pool.query(
        `UPDATE quality_jobs SET status = $2, report_gzip = $3, request = NULL, request_gzip = NULL,
         finished_at = now(), expires_at = now() + $4 * interval '1 millisecond'
         WHERE id = $1 AND status IN ('queued', 'running')`,
        [id, status, reportGzip, EVALUATION_RETENTION_MS],
      );
    },
    async find(accountId, id) {
      const { rows } = await pool.query<{ report: unknown; report_gzip: Buffer | null }>(
        `SELECT report, report_gzip FROM quality_jobs WHERE id = $1 AND account_id = $2
         AND (expires_at IS NULL OR expires_at > now())`,
        [id, accountId],
      );
      const row = rows[0];
      if (!row) return undefined;
      if (row.report_gzip !== null) return row.report_gzip;
      // Jobs finished before the reports were compressed (jsonb).
      if (row.report !== null) return compressReport(Buffer.from(JSON.stringify(row.report)));
      return 'processing';
    },
    async unfinished() {
      const { rows } = await pool.query<{ id: string; account_id: string }>(
        `SELECT id, account_id FROM quality_jobs WHERE status IN ('queued', 'running') ORDER BY created_at`,
      );
      return rows.map((row) => ({ id: row.id, accountId: row.account_id }));
    },
    async delete(id) {
      await pool.query('DELETE FROM quality_jobs WHERE id = $1', [id]);
    },
    close: () => pool.end(),
  };
}
