/**
 * Memory import and export jobs of a fleet: rows in `memory_jobs`, bytes in `memory_files` (the uploaded
 * TMX, a finished export), delivered to one worker of one instance by pg-boss (10, on the same
 * PostgreSQL; its schema `pgboss` is migrated by pg-boss itself). A row and its pg-boss job are written
 * in one transaction.
 *
 * An instance that dies (SIGKILL, a lost machine) must not take its jobs with it, and cannot wait for
 * pg-boss's expiry (which must be long: a large import runs for minutes). So a worker runs a job while
 * holding a session advisory lock keyed by the job id, on a connection of its own, and writes itself as
 * the row's `owner` only once it holds the lock. PostgreSQL releases the lock when that connection ends.
 * Every few seconds each instance looks at the processing rows that have an owner: one whose lock it
 * can take has lost its worker, so it is queued again (owner cleared, a new pg-boss job, one
 * transaction), and another worker starts it over: the half-written memory of the dead attempt is
 * deleted first. Each claim increments the row's `attempt`, and completing or failing is conditional
 * on it, so a job completes once, with one memory, whatever the number of attempts. A worker that dies
 * after pg-boss delivered a job but before it claimed the row leaves a processing row with no owner and
 * an active pg-boss job nobody runs: after `orphanAfterMs` such a row is queued again too.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Readable, Writable } from 'node:stream';
import pg from 'pg';
import PgBoss from 'pg-boss';
import {
  AlreadyUploaded,
  INTERRUPTED,
  JOB_TTL_MS,
  type JobRecord,
  type JobRow,
  type MemoryJobs,
  toRecord,
} from '../memories/jobs.js';
import { readTmx, writeTmx } from '../memories/tmx.js';
import { repeatEvery } from './lease.js';
import { createBossQueue, noLiveBossJob, startBossWorkers } from './pg-boss.js';
import type { PostgresMemoryStore } from './postgres-memories.js';
import { type Queryable, transaction } from './postgres-resources.js';

/** The pg-boss queue of memory jobs. */
export const MEMORY_JOB_QUEUE = 'glossa-memory-jobs';
/** First key of the jobs' advisory locks (the second is a hash of the job id). */
const JOB_LOCK = 7_117_030;
/** Segments written per transaction. */
const IMPORT_BATCH = 500;
/** Bytes of the uploaded file parsed between two batches. */
const READ_SLICE = 64 * 1024;

interface JobData {
  readonly jobId: string;
}

export interface PostgresMemoryJobsOptions {
  /** Jobs one instance runs at a time (default 2). */
  readonly concurrency?: number;
  /** How often jobs of dead workers are looked for, in ms (default 5 s). */
  readonly leaseCheckMs?: number | undefined;
  /**
   * How long a processing row may have neither an owner nor a pg-boss job about to run it (created,
   * retrying, or active for less than this) before it is queued again, in ms (default 60 s).
   */
  readonly orphanAfterMs?: number;
  /** How often an idle worker asks pg-boss for a job, in seconds (default 2). */
  readonly pollingIntervalSeconds?: number;
  readonly onError?: ((error: unknown) => void) | undefined;
}

type NewJob = Pick<
  JobRow,
  'id' | 'account_id' | 'operation' | 'status' | 'parameters' | 'memory_id' | 'content_length' | 'expires_at'
> & { file_name: string | null };

class Closing extends Error {}
/** The attempt lost its claim (another worker took the job over): its work is dropped. */
class Superseded extends Error {}

const asDb = (db: Queryable): PgBoss.Db => ({
  executeSql: (text, values) => db.query(text, values),
});

export async function createPostgresMemoryJobs(
  url: string,
  pool: pg.Pool,
  memories: PostgresMemoryStore,
  options: PostgresMemoryJobsOptions = {},
): Promise<MemoryJobs> {
  const boss = new PgBoss({
    connectionString: url,
    max: 2,
    application_name: 'glossa-memory-jobs',
    schedule: false,
    maintenanceIntervalSeconds: 30,
  });
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
  // Past pg-boss's expiry (an hour), it hands the job to another worker, which finds the row done or under
  // a live lock and leaves it: the lock, not the expiry, is what takes over a dead instance's job.
  await createBossQueue(boss, MEMORY_JOB_QUEUE);

  const owner = `${hostname()}/${process.pid}/${randomUUID()}`;
  const running = new Set<Promise<void>>();
  let closed = false;

  const getOn = async (db: Queryable, id: string) => {
    const { rows } = await db.query<JobRow>('SELECT * FROM memory_jobs WHERE id = $1', [id]);
    return rows[0] && toRecord(rows[0]);
  };
  const insert = (db: Queryable, job: NewJob) => {
    const now = new Date().toISOString();
    return db.query(
      `INSERT INTO memory_jobs (id, account_id, operation, status, parameters, memory_id, content_length, file_name,
       expires_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
      [
        job.id,
        job.account_id,
        job.operation,
        job.status,
        job.parameters,
        job.memory_id,
        job.content_length,
        job.file_name,
        job.expires_at,
        now,
      ],
    );
  };
  const enqueue = (db: Queryable, jobId: string) =>
    boss.send(MEMORY_JOB_QUEUE, { jobId } satisfies JobData, { db: asDb(db) });

  /** Ends the claimed attempt: `change` runs in the transaction only while the attempt still holds the job. */
  const settle = (jobId: string, attempt: number, change: (client: pg.PoolClient) => Promise<void>) =>
    transaction(pool, async (client) => {
      const { rows } = await client.query(
        `SELECT 1 FROM memory_jobs WHERE id = $1 AND attempt = $2 AND owner = $3 AND status = 'processing' FOR UPDATE`,
        [jobId, attempt, owner],
      );
      if (rows.length === 0) throw new Superseded();
      await change(client);
    });

  async function runImport(job: JobRecord, attempt: number, previousMemory: string | undefined) {
    if (previousMemory) await memories.remove(previousMemory);
    const memoryId = await memories.begin(
      pool,
      job.accountId,
      String(job.parameters.display_name ?? job.parameters.file_name ?? 'memory'),
    );
    const postings = new Map<string, number[]>();
    try {
      await settle(job.id, attempt, async (client) => {
        await client.query('UPDATE memory_jobs SET memory_id = $1, updated_at = $2 WHERE id = $3', [
          memoryId,
          new Date().toISOString(),
          job.id,
        ]);
      });
      const { rows } = await pool.query<{ content: Buffer }>(
        'SELECT content FROM memory_files WHERE job_id = $1',
        [job.id],
      );
      if (!rows[0]) throw new Error('The uploaded file is missing.');
      const content = rows[0].content;
      // In slices, as a file is read: the reader hands over a batch after each slice.
      const slices = function* () {
        for (let at = 0; at < content.length; at += READ_SLICE) yield content.subarray(at, at + READ_SLICE);
      };
      const summary = await readTmx(
        Readable.from(slices()),
        async (batch) => {
          if (closed) throw new Closing();
          await memories.addBatch(memoryId, batch, postings);
        },
        IMPORT_BATCH,
      );
      await settle(job.id, attempt, async (client) => {
        await memories.finish(client, memoryId, summary, postings);
        await client.query(
          `UPDATE memory_jobs SET status = 'completed', skipped = $1, owner = NULL, updated_at = $2 WHERE id = $3`,
          [summary.skipped, new Date().toISOString(), job.id],
        );
        await client.query('DELETE FROM memory_files WHERE job_id = $1', [job.id]);
      });
    } catch (error) {
      await memories.remove(memoryId).catch(() => {});
      throw error;
    }
  }

  async function runExport(job: JobRecord, attempt: number) {
    const memoryId = String(job.parameters.translation_memory_id);
    const { rows } = await pool.query<{ source_language: string }>(
      'SELECT source_language FROM memories WHERE id = $1 AND account_id = $2 AND ready',
      [memoryId, job.accountId],
    );
    if (!rows[0]) throw new Error('The translation memory was deleted.');
    const pieces: Buffer[] = [];
    for await (const piece of writeTmx(rows[0].source_language, memories.all(memoryId))) {
      if (closed) throw new Closing();
      pieces.push(Buffer.from(piece));
    }
    await settle(job.id, attempt, async (client) => {
      await client.query(
        `INSERT INTO memory_files (job_id, content) VALUES ($1, $2)
         ON CONFLICT (job_id) DO UPDATE SET content = excluded.content`,
        [job.id, Buffer.concat(pieces)],
      );
      await client.query(
        `UPDATE memory_jobs SET status = 'completed', expires_at = $1, owner = NULL, updated_at = $2 WHERE id = $3`,
        [new Date(Date.now() + JOB_TTL_MS).toISOString(), new Date().toISOString(), job.id],
      );
    });
  }

  /** Runs one delivered job, unless it is done or another worker holds it. */
  async function run(jobId: string): Promise<void> {
    if (closed) {
      // Fetched as this instance closes: a new job for another instance (a duplicate is harmless).
      await enqueue(pool, jobId);
      return;
    }
    const lock = new pg.Client({ connectionString: url, application_name: 'glossa-memory-job-lock' });
    lock.on('error', () => {});
    await lock.connect();
    try {
      const { rows } = await lock.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS locked',
        [JOB_LOCK, jobId],
      );
      if (!rows[0]!.locked) return;
      const claimed = await pool.query<JobRow & { attempt: number }>(
        `UPDATE memory_jobs SET owner = $1, attempt = attempt + 1, updated_at = $2
         WHERE id = $3 AND status = 'processing' RETURNING *`,
        [owner, new Date().toISOString(), jobId],
      );
      const row = claimed.rows[0];
      // Completed, failed or expired meanwhile (a duplicate delivery): nothing to do.
      if (!row) return;
      const job = toRecord(row);
      try {
        if (job.operation === 'import') await runImport(job, row.attempt, job.memoryId);
        else await runExport(job, row.attempt);
      } catch (error) {
        if (error instanceof Superseded) return;
        if (error instanceof Closing || closed) {
          // Queued again, for another instance (or this one, restarted).
          await settle(jobId, row.attempt, async (client) => {
            await client.query('UPDATE memory_jobs SET owner = NULL, memory_id = NULL WHERE id = $1', [
              jobId,
            ]);
            await enqueue(client, jobId);
          }).catch(() => {});
          return;
        }
        await settle(jobId, row.attempt, async (client) => {
          await client.query(
            `UPDATE memory_jobs SET status = 'failed', error = $1, owner = NULL, updated_at = $2 WHERE id = $3`,
            [error instanceof Error ? error.message : String(error), new Date().toISOString(), jobId],
          );
          await client.query('DELETE FROM memory_files WHERE job_id = $1', [jobId]);
        }).catch(() => {});
      }
    } finally {
      await lock.end().catch(() => {});
    }
  }

  const workers = await startBossWorkers<JobData>(
    boss,
    MEMORY_JOB_QUEUE,
    { concurrency: options.concurrency ?? 2, pollingIntervalSeconds: options.pollingIntervalSeconds },
    async (job) => {
      const work = run(job.jobId);
      running.add(work);
      try {
        await work;
      } finally {
        running.delete(work);
      }
    },
  );

  /** Jobs whose worker is gone back in the queue; files of expired jobs removed. */
  async function checkLeases(): Promise<void> {
    const orphanAfterMs = options.orphanAfterMs ?? 60_000;
    const { rows: orphans } = await pool.query<{ id: string }>(
      `SELECT j.id FROM memory_jobs j WHERE j.status = 'processing' AND j.owner IS NULL AND j.updated_at < $1
       AND ${noLiveBossJob('j.id', 'jobId', '$2', '$3')}`,
      [new Date(Date.now() - orphanAfterMs).toISOString(), MEMORY_JOB_QUEUE, orphanAfterMs],
    );
    for (const orphan of orphans) {
      await transaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE memory_jobs SET updated_at = $1 WHERE id = $2 AND owner IS NULL AND status = 'processing'`,
          [new Date().toISOString(), orphan.id],
        );
        if ((rowCount ?? 0) > 0) await enqueue(client, orphan.id);
      });
    }
    if (orphans.length > 0) workers.notify();
    const { rows } = await pool.query<{ id: string; owner: string }>(
      `SELECT id, owner FROM memory_jobs WHERE status = 'processing' AND owner IS NOT NULL`,
    );
    for (const row of rows) {
      await transaction(pool, async (client) => {
        const { rows: free } = await client.query<{ free: boolean }>(
          'SELECT pg_try_advisory_xact_lock($1::int, hashtext($2)) AS free',
          [JOB_LOCK, row.id],
        );
        if (!free[0]!.free) return;
        const { rowCount } = await client.query(
          `UPDATE memory_jobs SET owner = NULL, updated_at = $1 WHERE id = $2 AND owner = $3 AND status = 'processing'`,
          [new Date().toISOString(), row.id, row.owner],
        );
        if ((rowCount ?? 0) > 0) await enqueue(client, row.id);
      });
    }
    await pool.query(
      `DELETE FROM memory_files f USING memory_jobs j WHERE f.job_id = j.id AND j.expires_at < $1
       AND j.status IN ('awaiting_input', 'completed', 'downloaded')`,
      [new Date().toISOString()],
    );
  }
  const stopLeaseChecks = repeatEvery(options.leaseCheckMs ?? 5000, checkLeases, (error) =>
    options.onError?.(error),
  );

  return {
    get: (id) => getOn(pool, id),
    async createImport(accountId, parameters, contentLength) {
      const id = randomUUID();
      await insert(pool, {
        id,
        account_id: accountId,
        operation: 'import',
        status: 'awaiting_input',
        parameters: JSON.stringify(parameters),
        memory_id: null,
        content_length: contentLength,
        file_name: String(parameters.file_name ?? ''),
        expires_at: new Date(Date.now() + JOB_TTL_MS).toISOString(),
      });
      return (await getOn(pool, id))!;
    },
    async receive(job, write) {
      const chunks: Buffer[] = [];
      await write(
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        }),
      );
      await transaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE memory_jobs SET status = 'processing', updated_at = $1 WHERE id = $2 AND status = 'awaiting_input'`,
          [new Date().toISOString(), job.id],
        );
        if ((rowCount ?? 0) === 0)
          throw new AlreadyUploaded((await getOn(client, job.id))?.status ?? 'failed');
        await client.query('INSERT INTO memory_files (job_id, content) VALUES ($1, $2)', [
          job.id,
          Buffer.concat(chunks),
        ]);
        await enqueue(client, job.id);
      });
      workers.notify();
    },
    async export(accountId, memoryId, _source) {
      const result = await transaction(pool, async (client) => {
        // One export per memory at a time, across instances.
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 29))', [
          `${accountId}/${memoryId}`,
        ]);
        const { rows } = await client.query<JobRow>(
          `SELECT * FROM memory_jobs WHERE account_id = $1 AND memory_id = $2 AND operation = 'export'
           AND status IN ('processing', 'completed', 'downloaded') ORDER BY created_at DESC`,
          [accountId, memoryId],
        );
        for (const row of rows) {
          const existing = toRecord(row);
          if (existing.status !== 'expired') return { job: existing, created: false };
        }
        const id = randomUUID();
        await insert(client, {
          id,
          account_id: accountId,
          operation: 'export',
          status: 'processing',
          parameters: JSON.stringify({ translation_memory_id: memoryId }),
          memory_id: memoryId,
          content_length: null,
          file_name: null,
          expires_at: new Date(Date.now() + JOB_TTL_MS).toISOString(),
        });
        await enqueue(client, id);
        return { job: (await getOn(client, id))!, created: true };
      });
      if (result.created) workers.notify();
      return result;
    },
    async download(job) {
      const { rows } = await pool.query<{ content: Buffer }>(
        'SELECT content FROM memory_files WHERE job_id = $1',
        [job.id],
      );
      if (!rows[0]) throw new Error(INTERRUPTED);
      await pool.query(`UPDATE memory_jobs SET status = 'downloaded', updated_at = $1 WHERE id = $2`, [
        new Date().toISOString(),
        job.id,
      ]);
      return Readable.from([rows[0].content]);
    },
    async depth() {
      const { rows } = await pool.query<{ n: string }>(
        `SELECT COUNT(*) AS n FROM memory_jobs WHERE status = 'processing'`,
      );
      return Number(rows[0]!.n);
    },
    async close() {
      closed = true;
      stopLeaseChecks();
      await workers.stop();
      await Promise.allSettled([...running]);
      await boss.stop({ graceful: true, wait: true, timeout: 5000 }).catch(() => {});
    },
  };
}
