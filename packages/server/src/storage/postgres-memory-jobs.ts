/**
 * Memory import and export jobs of a fleet: rows in `memory_jobs`, bytes in `memory_files` (the uploaded
 * TMX, a finished export), run by the spine's job runner (`jobs/`, PostgreSQL + pg-boss): whichever instance
 * claims the runner's job (same id as the row) runs it; an instance that dies leaves it to another, which
 * takes it over once the dead instance's lease is free.
 *
 * Each attempt deletes the half-written memory of an attempt before it; its writes to the row are
 * conditional on the runner's row still being run by that attempt (`settle`, the runner's own fence), so a
 * job completes once, with one memory, whatever the number of attempts (an attempt still running on an
 * instance that lost its lease writes nothing).
 */
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import type pg from 'pg';
import { JobSuperseded } from '../jobs/job-backend.js';
import type { JobRunner } from '../jobs/job-runner.js';
import {
  AlreadyUploaded,
  INTERRUPTED,
  JOB_TTL_MS,
  type JobRecord,
  type JobRow,
  type MemoryJobs,
  toRecord,
} from '../memories/job-records.js';
import { type MemoryJobOptions, registerMemoryKind } from '../memories/jobs.js';
import { PendingPostings } from '../memories/store.js';
import { readTmx, writeTmx } from '../memories/tmx.js';
import { repeatEvery } from './lease.js';
import type { PostgresMemoryStore } from './postgres-memories.js';
import { type Queryable, transaction } from './postgres-resources.js';

/** Segments written per transaction. */
const IMPORT_BATCH = 500;
/** Bytes of the uploaded file parsed between two batches. */
const READ_SLICE = 64 * 1024;

type NewJob = Pick<
  JobRow,
  'id' | 'account_id' | 'operation' | 'status' | 'parameters' | 'memory_id' | 'content_length' | 'expires_at'
> & { file_name: string | null };

export async function createPostgresMemoryJobs(
  runner: JobRunner,
  pool: pg.Pool,
  memories: PostgresMemoryStore,
  options: MemoryJobOptions = {},
): Promise<MemoryJobs> {
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

  /** Writes the attempt's `change`, in one transaction, only while the runner's row is still its own. */
  const settle = (jobId: string, attempt: number, change: (client: pg.PoolClient) => Promise<void>) =>
    transaction(pool, async (client) => {
      const { rows } = await client.query(
        `SELECT 1 FROM jobs j JOIN memory_jobs m ON m.id = j.id
         WHERE j.id = $1 AND j.attempt = $2 AND j.status = 'running' AND m.status = 'processing' FOR UPDATE`,
        [jobId, attempt],
      );
      if (rows.length === 0) throw new JobSuperseded(jobId);
      await change(client);
    });

  async function runImport(job: JobRecord, attempt: number, signal: AbortSignal) {
    if (job.memoryId) await memories.remove(job.memoryId);
    const memoryId = await memories.begin(
      pool,
      job.accountId,
      String(job.parameters.display_name ?? job.parameters.file_name ?? 'memory'),
    );
    const postings = new PendingPostings();
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
          signal.throwIfAborted();
          await memories.addBatch(memoryId, batch, postings);
        },
        IMPORT_BATCH,
      );
      await settle(job.id, attempt, async (client) => {
        await memories.finish(client, memoryId, summary, postings);
        await client.query(
          `UPDATE memory_jobs SET status = 'completed', skipped = $1, updated_at = $2 WHERE id = $3`,
          [summary.skipped, new Date().toISOString(), job.id],
        );
        await client.query('DELETE FROM memory_files WHERE job_id = $1', [job.id]);
      });
    } catch (error) {
      await memories.remove(memoryId).catch(() => {});
      throw error;
    }
  }

  async function runExport(job: JobRecord, attempt: number, signal: AbortSignal) {
    const memoryId = String(job.parameters.translation_memory_id);
    const { rows } = await pool.query<{ source_language: string }>(
      'SELECT source_language FROM memories WHERE id = $1 AND account_id = $2 AND ready',
      [memoryId, job.accountId],
    );
    if (!rows[0]) throw new Error('The translation memory was deleted.');
    const pieces: Buffer[] = [];
    for await (const piece of writeTmx(rows[0].source_language, memories.all(memoryId))) {
      signal.throwIfAborted();
      pieces.push(Buffer.from(piece));
    }
    await settle(job.id, attempt, async (client) => {
      await client.query(
        `INSERT INTO memory_files (job_id, content) VALUES ($1, $2)
         ON CONFLICT (job_id) DO UPDATE SET content = excluded.content`,
        [job.id, Buffer.concat(pieces)],
      );
      await client.query(
        `UPDATE memory_jobs SET status = 'completed', expires_at = $1, updated_at = $2 WHERE id = $3`,
        [new Date(Date.now() + JOB_TTL_MS).toISOString(), new Date().toISOString(), job.id],
      );
    });
  }

  const queue = registerMemoryKind(runner, async (running) => {
    const { jobId } = running.input;
    const job = await getOn(pool, jobId);
    // Completed or failed by an earlier attempt, or gone: nothing to do.
    if (job?.status !== 'processing') return null;
    try {
      if (job.operation === 'import') await runImport(job, running.attempt, running.signal);
      else await runExport(job, running.attempt, running.signal);
    } catch (error) {
      // Taken over or cancelled: the runner drops the attempt.
      if (error instanceof JobSuperseded) throw error;
      // Stopped (this instance closing): the runner queues the job again, for another instance.
      const stopped = running.signal.aborted;
      await settle(jobId, running.attempt, async (client) => {
        if (stopped) {
          await client.query('UPDATE memory_jobs SET memory_id = NULL WHERE id = $1', [jobId]);
          return;
        }
        await client.query(
          `UPDATE memory_jobs SET status = 'failed', error = $1, updated_at = $2 WHERE id = $3`,
          [error instanceof Error ? error.message : String(error), new Date().toISOString(), jobId],
        );
        await client.query('DELETE FROM memory_files WHERE job_id = $1', [jobId]);
      });
      if (stopped) throw error;
    }
    return null;
  });
  /** The runner's job of a record, in the transaction that makes the record processing: they commit together. */
  const submit = (client: pg.PoolClient, job: { id: string; accountId: string }) =>
    queue.submit(job.accountId, { jobId: job.id }, { id: job.id, transaction: client });

  /** Files of expired jobs removed. */
  const stopSweep = repeatEvery(
    options.leaseCheckMs ?? 5000,
    () =>
      pool.query(
        `DELETE FROM memory_files f USING memory_jobs j WHERE f.job_id = j.id AND j.expires_at < $1
         AND j.status IN ('awaiting_input', 'completed', 'downloaded')`,
        [new Date().toISOString()],
      ),
    (error) => options.onError?.(error),
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
        await submit(client, job);
      });
      queue.wake();
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
        const job = (await getOn(client, id))!;
        await submit(client, job);
        return { job, created: true };
      });
      queue.wake();
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
      stopSweep();
    },
  };
}
