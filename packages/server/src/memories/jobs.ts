/**
 * Import and export jobs of translation memories. The interface (`MemoryJobs`) has two implementations:
 * this one, on SQLite, and the fleet's, on PostgreSQL (`storage/postgres-memory-jobs.ts`). Both run on the
 * spine's job runner (`jobs/job-runner.ts`, kind `MEMORY_JOB_KIND`): the job's record here (`memory_jobs`)
 * is what the interface answers; the runner's job, of the same id, is what runs it, once, taken over after
 * a crash.
 *
 * Import: `awaiting_input` until the TMX is PUT to the signed upload URL (kept as a file in the data
 * directory), then `processing` → `completed` or `failed`. The memory is written in batches but stays
 * invisible until one transaction marks it ready *and* the job completed; a server killed mid-import
 * deletes the half-written memory at its next start and runs the job again from the kept file.
 * Export: `processing` → `completed` (TMX file, signed `download_url`) → `downloaded`; both end `expired`.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { MemoryJobStatus } from '@glossa/protocol';
import type { JobKind, JobQueue, JobRunner } from '../jobs/job-runner.js';
import type { ResourceDatabase } from '../storage/resource-db.js';
import {
  AlreadyUploaded,
  type ImportSummary,
  INTERRUPTED,
  JOB_TTL_MS,
  type JobRecord,
  type JobRow,
  type MemoryJobs,
  toRecord,
} from './job-records.js';
import type { SqliteMemoryStore } from './store.js';
import { readTmx, writeTmx } from './tmx.js';

/** Segments written per transaction; the event loop serves requests between two batches. */
const IMPORT_BATCH = 500;

/** The runner's job kind of memory imports and exports; its input names the `memory_jobs` row. */
export const MEMORY_JOB_KIND = 'memories/transfer';
export interface MemoryJobInput {
  readonly jobId: string;
}

export interface MemoryJobOptions {
  /** PostgreSQL: how often an instance removes the files of expired jobs, in ms (default 5 s). */
  readonly leaseCheckMs?: number | undefined;
  readonly onError?: ((error: unknown) => void) | undefined;
}

/**
 * Registers the memory jobs' kind on the server's runner (`ServiceContext.jobs`): `run` does the record's
 * operation when the record still waits for it (a job that completed or failed is not run twice) and settles
 * the record itself; a throw while the runner closes leaves the record processing, for the next attempt.
 */
export function registerMemoryKind(
  runner: JobRunner,
  run: JobKind<MemoryJobInput, never, null>['run'],
): JobQueue<MemoryJobInput, never, null> {
  return runner.register<MemoryJobInput, never, null>({ name: MEMORY_JOB_KIND, run });
}

/**
 * The SQLite jobs: run in this process by the server's runner; after a restart, half-written memories go and
 * interrupted jobs run again (imports from their kept file).
 */
export async function createMemoryJobs(
  db: ResourceDatabase,
  memories: SqliteMemoryStore,
  dataDir: string,
  runner: JobRunner,
): Promise<MemoryJobs> {
  const folder = join(dataDir, 'memory-files');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const fileOf = (jobId: string) => join(folder, `${jobId}.tmx`);
  const sql = {
    insert: db.prepare(
      `INSERT INTO memory_jobs (id, account_id, operation, status, parameters, memory_id, content_length, file_name,
       expires_at, created_at, updated_at) VALUES (@id, @account, @operation, @status, @parameters, @memory, @length,
       @file, @expires, @now, @now)`,
    ),
    get: db.prepare('SELECT * FROM memory_jobs WHERE id = ?'),
    claim: db.prepare(
      `UPDATE memory_jobs SET status = 'processing', updated_at = ? WHERE id = ? AND status = 'awaiting_input'`,
    ),
    set: db.prepare(
      `UPDATE memory_jobs SET status = @status, memory_id = COALESCE(@memory, memory_id), error = @error,
       skipped = @skipped, expires_at = COALESCE(@expires, expires_at), updated_at = @now WHERE id = @id`,
    ),
    processing: db.prepare(`SELECT * FROM memory_jobs WHERE status = 'processing'`),
    depth: db.prepare(`SELECT COUNT(*) AS n FROM memory_jobs WHERE status = 'processing'`),
    finishedExports: db.prepare(
      `SELECT * FROM memory_jobs WHERE operation = 'export' AND status IN ('completed', 'downloaded')`,
    ),
    exports: db.prepare(
      `SELECT * FROM memory_jobs WHERE account_id = ? AND memory_id = ? AND operation = 'export'
       AND status IN ('processing', 'completed', 'downloaded') ORDER BY created_at DESC`,
    ),
  };
  const set = (
    id: string,
    status: MemoryJobStatus,
    extra: { memory?: string; error?: string; skipped?: number; expires?: string } = {},
  ) =>
    sql.set.run({
      id,
      status,
      memory: extra.memory ?? null,
      error: extra.error ?? null,
      skipped: extra.skipped ?? null,
      expires: extra.expires ?? null,
      now: new Date().toISOString(),
    });
  const get = (id: string) => {
    const row = sql.get.get(id) as JobRow | undefined;
    return row && toRecord(row);
  };
  const fail = (id: string, error: unknown) =>
    set(id, 'failed', { error: error instanceof Error ? error.message : String(error) });

  const completeImport = db.transaction((jobId: string, memoryId: string, summary: ImportSummary) => {
    memories.finish(memoryId, summary.source, summary.targets, summary.segments);
    set(jobId, 'completed', { memory: memoryId, skipped: summary.skipped });
  });

  async function runImport(job: JobRecord, signal: AbortSignal): Promise<void> {
    if (!existsSync(fileOf(job.id))) {
      set(job.id, 'failed', { error: INTERRUPTED });
      return;
    }
    const memoryId = memories.begin(
      job.accountId,
      String(job.parameters.display_name ?? job.parameters.file_name ?? 'memory'),
    );
    set(job.id, 'processing', { memory: memoryId });
    try {
      const summary = await readTmx(
        createReadStream(fileOf(job.id), { highWaterMark: 256 * 1024 }),
        async (batch) => {
          signal.throwIfAborted();
          memories.addBatch(memoryId, batch);
          await yieldToEventLoop();
        },
        IMPORT_BATCH,
      );
      completeImport.immediate(job.id, memoryId, summary);
      rmSync(fileOf(job.id), { force: true });
    } catch (error) {
      memories.discard(memoryId);
      // Stopped (the server closing): the job stays processing, and its next attempt runs it again.
      if (signal.aborted) throw error;
      fail(job.id, error);
      rmSync(fileOf(job.id), { force: true });
    }
  }

  async function runExport(job: JobRecord, signal: AbortSignal): Promise<void> {
    const temporary = `${fileOf(job.id)}.part`;
    try {
      const memory = await memories.get(job.accountId, String(job.parameters.translation_memory_id));
      if (!memory) throw new Error('The translation memory was deleted.');
      const out = createWriteStream(temporary);
      for await (const piece of writeTmx(memory.source, memories.all(memory.id))) {
        signal.throwIfAborted();
        if (!out.write(piece)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      await rename(temporary, fileOf(job.id));
      set(job.id, 'completed', { expires: new Date(Date.now() + JOB_TTL_MS).toISOString() });
    } catch (error) {
      rmSync(temporary, { force: true });
      if (signal.aborted) throw error;
      fail(job.id, error);
    }
  }

  // After a restart: half-written memories go (their jobs run again).
  memories.removeUnready();
  // Files of exports whose download URL has expired are no longer reachable.
  for (const row of sql.finishedExports.all() as JobRow[]) {
    if (toRecord(row).status === 'expired') rmSync(fileOf(row.id), { force: true });
  }
  const queue = registerMemoryKind(runner, async (running) => {
    const job = get(running.input.jobId);
    // Done already (a record settled just before a crash), or gone: nothing to run.
    if (job?.status !== 'processing') return null;
    if (job.operation === 'import') await runImport(job, running.signal);
    else await runExport(job, running.signal);
    return null;
  });
  const submit = (job: { id: string; accountId: string }) =>
    queue.submit(job.accountId, { jobId: job.id }, { id: job.id });
  // A job whose submit a crash lost (between its record's change and the submit) is submitted now.
  await queue.resubmit(
    (sql.processing.all() as JobRow[]).map(({ id, account_id }) => ({
      id,
      accountId: account_id,
      input: { jobId: id },
    })),
  );

  return {
    async get(id) {
      return get(id);
    },
    async createImport(accountId, parameters, contentLength) {
      const id = randomUUID();
      sql.insert.run({
        id,
        account: accountId,
        operation: 'import',
        status: 'awaiting_input',
        parameters: JSON.stringify(parameters),
        memory: null,
        length: contentLength,
        file: String(parameters.file_name ?? ''),
        expires: new Date(Date.now() + JOB_TTL_MS).toISOString(),
        now: new Date().toISOString(),
      });
      return get(id)!;
    },
    async receive(job, write) {
      const path = fileOf(job.id);
      try {
        await write(createWriteStream(`${path}.part`));
        await rename(`${path}.part`, path);
      } catch (error) {
        await rm(`${path}.part`, { force: true });
        throw error;
      }
      if (sql.claim.run(new Date().toISOString(), job.id).changes === 0) {
        await rm(path, { force: true });
        throw new AlreadyUploaded(get(job.id)?.status ?? 'failed');
      }
      await submit(job);
    },
    async export(accountId, memoryId) {
      for (const row of sql.exports.all(accountId, memoryId) as JobRow[]) {
        const existing = toRecord(row);
        if (existing.status !== 'expired') return { job: existing, created: false };
      }
      const id = randomUUID();
      sql.insert.run({
        id,
        account: accountId,
        operation: 'export',
        status: 'processing',
        parameters: JSON.stringify({ translation_memory_id: memoryId }),
        memory: memoryId,
        length: null,
        file: null,
        expires: new Date(Date.now() + JOB_TTL_MS).toISOString(),
        now: new Date().toISOString(),
      });
      const job = get(id)!;
      await submit(job);
      return { job, created: true };
    },
    async download(job) {
      set(job.id, 'downloaded');
      return createReadStream(fileOf(job.id));
    },
    async depth() {
      return (sql.depth.get() as { n: number }).n;
    },
    async close() {},
  };
}
