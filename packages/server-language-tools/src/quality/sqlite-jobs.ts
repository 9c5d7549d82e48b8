/**
 * Quality-evaluation jobs of one process (the embedded default, without `databaseUrl`): rows in
 * `quality.sqlite` of the data directory, run by this process in submission order, `CONCURRENCY` at a
 * time, each on a worker thread (pool.ts). A restart (or a kill -9) loses nothing that was answered: a job
 * accepted (202) is run at the next start if it had not finished, and a finished one can be polled for its
 * 24 hours whatever the restarts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type QualityReport, type QualityRequest, utf8Json } from './evaluate.js';
import { type EvaluationPool, startEvaluationPool } from './pool.js';
import {
  abandonedReport,
  compressReport,
  EVALUATION_RETENTION_MS,
  MAX_EVALUATION_ATTEMPTS,
  MAX_EVALUATION_JOBS_PER_ACCOUNT,
  type QualityJobs,
} from './store.js';

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

/** Jobs evaluated at the same time, each on a worker thread (pool.ts). */
const CONCURRENCY = 2;
/** How often expired jobs are swept. */
const SWEEP_MS = 60_000;

interface ClaimedRow {
  id: string;
  /** Jobs queued before the requests were compressed. */
  request: string | null;
  request_gzip: Buffer | null;
  attempt: number;
}

/** `pool`: the threads that evaluate the jobs (the feature's, shared with the synchronous alias); closed with the jobs. */
export function openQualityJobs(
  dataDir: string,
  onError?: (error: unknown) => void,
  pool: EvaluationPool = startEvaluationPool(),
): QualityJobs {
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
  const submit = db.transaction((id: string, accountId: string, request: Buffer): boolean => {
    const now = Date.now();
    if (held.get(accountId, now)!.n >= MAX_EVALUATION_JOBS_PER_ACCOUNT) return false;
    insertRow.run(id, accountId, request, now);
    return true;
  });
  const next = db.prepare<[], ClaimedRow>(
    `UPDATE quality_jobs SET status = 'running', attempt = attempt + 1
     WHERE id = (SELECT id FROM quality_jobs WHERE status = 'queued' ORDER BY rowid LIMIT 1)
     RETURNING id, request, request_gzip, attempt`,
  );
  const finishRow = db.prepare(
    `UPDATE quality_jobs SET status = ?, report_gzip = ?, request = NULL, request_gzip = NULL, finished_at = ?, expires_at = ?
     WHERE id = ? AND status = 'running'`,
  );
  const findRow = db.prepare<[string, string, number], { report: string | null; report_gzip: Buffer | null }>(
    `SELECT report, report_gzip FROM quality_jobs WHERE id = ? AND account_id = ?
     AND (expires_at IS NULL OR expires_at > ?)`,
  );
  const sweepRows = db.prepare('DELETE FROM quality_jobs WHERE expires_at <= ?');
  const countRows = db.prepare<[], { queued: number; running: number }>(
    `SELECT COUNT(*) FILTER (WHERE status = 'queued') AS queued,
            COUNT(*) FILTER (WHERE status = 'running') AS running
     FROM quality_jobs WHERE status IN ('queued', 'running')`,
  );

  const finish = async (id: string, status: QualityReport['status'], json: Uint8Array) => {
    const compressed = await compressReport(json);
    const now = Date.now();
    finishRow.run(status, compressed, now, now + EVALUATION_RETENTION_MS, id);
  };

  // Jobs the last run of this process was evaluating when it stopped: queued again (their attempt says
  // how many times they were started).
  db.prepare(`UPDATE quality_jobs SET status = 'queued' WHERE status = 'running'`).run();
  sweepRows.run(Date.now());

  const running = new Set<Promise<void>>();
  let closed = false;

  /** Starts queued jobs while a slot is free. */
  function pump(): void {
    while (!closed && running.size < CONCURRENCY) {
      const row = next.get();
      if (!row) return;
      const work = run(row).finally(() => {
        running.delete(work);
        pump();
      });
      running.add(work);
    }
  }

  async function run(row: ClaimedRow): Promise<void> {
    try {
      if (row.attempt > MAX_EVALUATION_ATTEMPTS) {
        await finish(row.id, 'error', utf8Json(abandonedReport(row.id)));
        return;
      }
      const request: QualityRequest | Uint8Array =
        row.request_gzip ?? (JSON.parse(row.request!) as QualityRequest);
      const report = await pool.evaluate(row.id, request);
      // None when the server closes meanwhile: the job stays `running`, and runs again at the next start.
      if (report) await finish(row.id, report.status, report.json);
    } catch (error) {
      // The database failed (a full disk): the job stays `running` and runs again at the next start.
      onError?.(error);
    }
  }

  const sweeper = setInterval(() => {
    if (closed) return;
    try {
      sweepRows.run(Date.now());
    } catch (error) {
      onError?.(error);
    }
  }, SWEEP_MS);
  sweeper.unref();
  // The jobs left by the last run, after the server has started answering.
  setImmediate(pump);

  return {
    backend: 'sqlite',
    async submit(id, accountId, request) {
      // Compressed on libuv's thread pool, then a write of about a tenth of the JSON.
      const compressed = await compressReport(Buffer.from(JSON.stringify(request)));
      if (!submit.immediate(id, accountId, compressed)) return false;
      // The checks run after the answer: the job is `processing` until then.
      setImmediate(pump);
      return true;
    },
    async find(accountId, id) {
      const row = findRow.get(id, accountId, Date.now());
      if (!row) return undefined;
      if (row.report_gzip !== null) return row.report_gzip;
      // Jobs finished before the reports were compressed.
      if (row.report !== null) return compressReport(Buffer.from(row.report));
      return 'processing';
    },
    async counts() {
      if (closed) return { queued: 0, running: 0 };
      return countRows.get()!;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      await pool.close();
      await Promise.allSettled([...running]);
      db.close();
    },
  };
}
