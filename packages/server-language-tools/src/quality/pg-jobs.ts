/**
 * Quality-evaluation jobs of a fleet (`databaseUrl`): rows in the `quality_jobs` table of the server's
 * PostgreSQL, so that every instance answers the polls of every job, and jobs on pg-boss (10, the queue
 * `glossa-quality-evaluation`), so that any instance evaluates any job, `concurrency` at a time each. The
 * design is that of the documents' queue (`@glossa/server-documents`, pg-queue.ts):
 *
 * - A job's row and its pg-boss job are written in one transaction: a queued row always has a job.
 * - The per-account limit is checked and the row inserted in one transaction under an advisory lock on the
 *   account (`pg_advisory_xact_lock`): concurrent submissions through several instances never overshoot it.
 * - Each instance holds a lease (the spine's `createLease`): a session-level advisory lock on a connection of
 *   its own, keyed by an owner id (`host/pid/random`) written on the rows it runs. PostgreSQL releases the
 *   lock when that connection ends (a SIGKILL, a lost machine), so every few seconds each instance looks
 *   for owners of running rows whose lock it can take: those are dead, and their jobs are queued again
 *   (each with a new pg-boss job, in the same transaction) for any instance. pg-boss's own expiry of an
 *   active job stays long (15 minutes); the lease, not it, is what takes a dead instance's jobs over. A
 *   worker that dies after pg-boss delivered a job but before it claimed the row leaves a queued row whose
 *   pg-boss job is active and run by no one: after `orphanAfterMs` (60 s) such a row gets a new pg-boss job
 *   (as the memory jobs of the spine do).
 * - Each claim increments the row's attempt, and finishing is conditional on it: a job finishes once, with
 *   the report of the attempt that holds it. A job started `MAX_EVALUATION_ATTEMPTS` times fails.
 */
import {
  createBossQueue,
  createLease,
  migratePostgres,
  noLiveBossJob,
  repeatEvery,
  startBossWorkers,
  pgTransaction as transaction,
} from '@glossa/server/feature';
import pg from 'pg';
import PgBoss from 'pg-boss';
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

/** The pg-boss queue of quality-evaluation jobs. */
export const QUALITY_JOB_QUEUE = 'glossa-quality-evaluation';
/** First key of the instances' lease locks (the second is a hash of the owner id). */
const LEASE_LOCK = 7_117_040;
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
];

interface JobData {
  readonly jobId: string;
  readonly accountId: string;
}

export interface PgQualityJobsOptions {
  /** Jobs evaluated at the same time by this instance (default 2). */
  readonly concurrency?: number;
  /** How often dead instances' jobs are looked for, in ms (default 5 s). */
  readonly leaseCheckMs?: number;
  /**
   * How long a queued row may go without a live pg-boss job (created, retrying, or active for less than
   * this) before it is queued again, in ms (default 60 s).
   */
  readonly orphanAfterMs?: number;
  /** How often expired jobs are swept, in ms (default 60 s). */
  readonly sweepIntervalMs?: number;
  /** How often an idle worker asks pg-boss for a job, in seconds (default 2). */
  readonly pollingIntervalSeconds?: number;
  readonly logWarning?: (message: string, detail?: Record<string, unknown>) => void;
  /** The threads that evaluate the jobs (the feature's, shared with the synchronous alias); closed with the jobs. */
  readonly evaluations?: EvaluationPool;
}

type Queryable = Pick<pg.ClientBase, 'query'>;

const asDb = (db: Queryable): PgBoss.Db => ({
  executeSql: (text, values) => db.query(text, values),
});

/**
 * Migrates the `quality_jobs` table, starts pg-boss (its schema `pgboss`, shared with the other features)
 * and this instance's workers and lease.
 */
export async function startPgQualityJobs(
  url: string,
  options: PgQualityJobsOptions = {},
): Promise<QualityJobs> {
  const concurrency = options.concurrency ?? 2;
  const pool = new pg.Pool({ connectionString: url, max: 3, application_name: 'glossa-quality' });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => {});
  let boss: PgBoss | undefined;
  try {
    await migratePostgres(pool, 'glossa_quality_schema', POSTGRES_QUALITY_MIGRATIONS);
    boss = new PgBoss({
      connectionString: url,
      max: 2,
      application_name: 'glossa-quality',
      schedule: false,
      maintenanceIntervalSeconds: 30,
    });
    // pg-boss reports failed polls and maintenance here (a database restart); it retries by itself.
    boss.on('error', (error) => options.logWarning?.('quality queue (pg-boss) error', { err: error }));
    await boss.start();
    await createBossQueue(boss, QUALITY_JOB_QUEUE, { expireInSeconds: 900 });
    return await runQueue(url, pool, boss, concurrency, options);
  } catch (error) {
    await boss?.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => {});
    await pool.end().catch(() => {});
    throw error;
  }
}

async function runQueue(
  url: string,
  pool: pg.Pool,
  boss: PgBoss,
  concurrency: number,
  options: PgQualityJobsOptions,
): Promise<QualityJobs> {
  const enqueue = (db: Queryable, job: JobData) => boss.send(QUALITY_JOB_QUEUE, job, { db: asDb(db) });

  const lease = createLease(url, {
    lockKey: LEASE_LOCK,
    applicationName: 'glossa-quality-lease',
    onLost: (error) => options.logWarning?.('quality lease connection lost', { err: error }),
  });
  const owner = lease.owner;
  await lease.hold();

  const evaluations = options.evaluations ?? startEvaluationPool();
  /** Jobs this instance runs now (claimed or about to be). */
  const running = new Set<string>();
  const works = new Set<Promise<void>>();
  let closed = false;

  async function run(job: JobData): Promise<void> {
    if (closed) {
      // Fetched as this instance closes: a new pg-boss job for another instance (a duplicate is harmless).
      await boss.send(QUALITY_JOB_QUEUE, job);
      return;
    }
    await lease.hold();
    running.add(job.jobId);
    try {
      const { rows } = await pool.query<{ request: QualityRequest; attempt: number }>(
        `UPDATE quality_jobs SET status = 'running', owner = $3, attempt = attempt + 1, started_at = now()
         WHERE id = $1 AND account_id = $2 AND status = 'queued' RETURNING request, attempt`,
        [job.jobId, job.accountId, owner],
      );
      const row = rows[0];
      // Not queued: finished, expired, or run by a live instance (a duplicate pg-boss job).
      if (!row) return;
      const report =
        row.attempt > MAX_EVALUATION_ATTEMPTS
          ? { status: 'error' as const, json: utf8Json(abandonedReport(job.jobId)) }
          : await evaluations.evaluate(job.jobId, row.request);
      // None when this instance closes meanwhile: the job stays `running` on its lease, which ends with
      // the instance, and another instance (or this one, started again) runs it again.
      if (report) await finish(job.jobId, row.attempt, report.status, report.json);
    } finally {
      running.delete(job.jobId);
    }
  }

  /**
   * Stores the report (compressed); false when the attempt no longer holds the job (another instance took
   * it over).
   */
  async function finish(
    id: string,
    attempt: number,
    status: QualityReport['status'],
    json: Uint8Array,
  ): Promise<boolean> {
    const compressed = await compressReport(json);
    const { rowCount } = await pool.query(
      `UPDATE quality_jobs SET status = $3, report_gzip = $4, request = NULL, owner = NULL, finished_at = now(),
       expires_at = now() + $5 * interval '1 millisecond'
       WHERE id = $1 AND attempt = $2 AND status = 'running'`,
      [id, attempt, status, compressed, EVALUATION_RETENTION_MS],
    );
    return rowCount === 1;
  }

  const workers = await startBossWorkers<JobData>(
    boss,
    QUALITY_JOB_QUEUE,
    { concurrency, pollingIntervalSeconds: options.pollingIntervalSeconds },
    async (job) => {
      const work = run(job);
      works.add(work);
      try {
        await work;
      } finally {
        works.delete(work);
      }
    },
  );

  /** Queues again the jobs of `where` (running rows), each with a new pg-boss job, in `client`'s transaction. */
  async function requeue(client: pg.PoolClient, where: string, values: unknown[]): Promise<number> {
    const { rows } = await client.query<{ id: string; account_id: string }>(
      `UPDATE quality_jobs SET status = 'queued', owner = NULL, started_at = NULL, queued_at = now()
       WHERE status = 'running' AND ${where} RETURNING id, account_id`,
      values,
    );
    for (const row of rows) await enqueue(client, { jobId: row.id, accountId: row.account_id });
    return rows.length;
  }

  /**
   * Dead instances' jobs back in the queue, this one's orphans (running rows no worker here runs), and
   * queued rows without a live pg-boss job (delivered to a worker that died before its claim, or failed by
   * pg-boss after its retries) for `orphanAfterMs`.
   */
  async function checkLeases(): Promise<void> {
    await lease.hold();
    const orphanAfterMs = options.orphanAfterMs ?? 60_000;
    const { rows: lost } = await pool.query<{ id: string; account_id: string }>(
      `SELECT j.id, j.account_id FROM quality_jobs j
       WHERE j.status = 'queued' AND j.queued_at < now() - $1 * interval '1 millisecond'
       AND ${noLiveBossJob('j.id', 'jobId', '$2', '$1')}`,
      [orphanAfterMs, QUALITY_JOB_QUEUE],
    );
    for (const job of lost) {
      await transaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE quality_jobs SET queued_at = now() WHERE id = $1 AND status = 'queued'`,
          [job.id],
        );
        if (rowCount === 1) await enqueue(client, { jobId: job.id, accountId: job.account_id });
      });
    }
    if (lost.length > 0) {
      options.logWarning?.('quality jobs without a queue job queued again', { jobs: lost.length });
      workers.notify();
    }
    const { rows } = await pool.query<{ owner: string }>(
      `SELECT DISTINCT owner FROM quality_jobs WHERE status = 'running' AND owner IS NOT NULL AND owner <> $1`,
      [owner],
    );
    for (const other of rows.map((row) => row.owner)) {
      const taken = await transaction(pool, async (client) => {
        if (!(await lease.isFree(client, other))) return 0;
        return requeue(client, 'owner = $1', [other]);
      });
      if (taken > 0)
        options.logWarning?.('quality jobs of a stopped instance queued again', {
          jobs: taken,
          owner: other,
        });
    }
    await transaction(pool, (client) =>
      requeue(client, 'owner = $1 AND NOT (id = ANY($2::text[]))', [owner, [...running]]),
    );
  }

  const stopLeaseChecks = repeatEvery(options.leaseCheckMs ?? 5000, checkLeases, (error) =>
    options.logWarning?.('quality lease check failed', { err: error }),
  );
  // Any instance may sweep: the statement is its own lock.
  const sweep = () => pool.query('DELETE FROM quality_jobs WHERE expires_at <= now()').catch(() => undefined);
  await sweep();
  const stopSweeps = repeatEvery(options.sweepIntervalMs ?? 60_000, sweep, () => {});

  return {
    backend: 'postgres',
    async submit(id, accountId, request) {
      const accepted = await transaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [ACCOUNT_LOCK, accountId]);
        const { rows } = await client.query<{ n: number }>(
          `SELECT COUNT(*)::int AS n FROM quality_jobs
           WHERE account_id = $1 AND (expires_at IS NULL OR expires_at > now())`,
          [accountId],
        );
        if (rows[0]!.n >= MAX_EVALUATION_JOBS_PER_ACCOUNT) return false;
        await client.query(
          `INSERT INTO quality_jobs (id, account_id, status, request) VALUES ($1, $2, 'queued', $3)`,
          [id, accountId, JSON.stringify(request)],
        );
        await enqueue(client, { jobId: id, accountId });
        return true;
      });
      // Wake this instance's idle workers (another instance may as well take the job).
      if (accepted) workers.notify();
      return accepted;
    },
    async find(accountId, id) {
      const { rows } = await pool.query<{ report: QualityReport | null; report_gzip: Buffer | null }>(
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
    async counts() {
      const { rows } = await pool.query<{ queued: number; running: number }>(
        `SELECT COUNT(*) FILTER (WHERE status = 'queued')::int AS queued,
                COUNT(*) FILTER (WHERE status = 'running')::int AS running
         FROM quality_jobs WHERE status IN ('queued', 'running')`,
      );
      return rows[0]!;
    },
    async close() {
      if (closed) return;
      closed = true;
      stopLeaseChecks();
      stopSweeps();
      await workers.stop();
      // The running evaluations stop without a report: their jobs are taken over through the lease.
      await evaluations.close();
      await Promise.allSettled([...works]);
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
      await lease.release();
      await pool.end();
    },
  };
}
