/**
 * Import and export jobs of translation memories, on the spine's job runner (kind `MEMORY_JOB_KIND`), one
 * implementation for both backends: the uploaded TMX and a finished export are the job's files, its state the
 * runner's. What differs per backend is how an import writes its memory (`MemoryWriter`: SQLite here,
 * PostgreSQL in `storage/postgres-memory-jobs.ts`).
 *
 * Import: submitted `deferred` until the TMX PUT to the signed upload URL `release`s it with the file. The
 * memory is written in batches but stays invisible until it is marked ready, at the end; the job's checkpoint
 * names the memory (and, once read whole, its `skipped` count), so an attempt after a kill deletes a
 * half-written memory and imports again from the kept file, or completes at once when the memory was made
 * ready just before the kill. Export: the TMX is the job file `tmx`; a download leaves the mark `downloaded`.
 * One export per memory at a time: its job id is the memory's (`exportId`).
 */
import { createHash } from 'node:crypto';
import { PassThrough, Readable, type Writable } from 'node:stream';
import type { MemoryJobStatus } from '@glossa/protocol';
import { JobSuperseded } from '../jobs/job-backend.js';
import { JobFailed, type JobInfo, type JobRunner, type RunningJob } from '../jobs/job-runner.js';
import { reserveMemoryPatiently } from '../memory-budget.js';
import type { MemoryStore, SqliteMemoryStore } from './store.js';
import { type TmxSummary, writeTmx } from './tmx.js';

/**
 * The memory an import reserves from the server's budget (`reserveMemoryPatiently`) while it runs: the largest
 * TMX (MAX_TMX_BYTES, streamed) added 64 MB at the peak from the sources (abuse-full.test.ts, alone).
 */
const IMPORT_BYTES = 80 * 2 ** 20;
/**
 * How long an import waits in the memory admission's queue at a time: refused then (or at once, for a full
 * queue or an RSS that stays), it waits the refusal's Retry-After and queues again: a busy server delays an
 * import, which has no client waiting on its answer, rather than failing it.
 */
const IMPORT_MEMORY_WAIT_MS = 10 * 60_000;

export const MEMORY_JOB_KIND = 'memories/transfer';
/** How long an upload URL, and a finished export, stay valid. */
const JOB_TTL_MS = 60 * 60 * 1000;
const INTERRUPTED = 'The server stopped while this job was running; start it again.';
/** The job files: an import's upload, an export's TMX, the mark of a downloaded export. */
const UPLOAD = 'upload';
const EXPORT = 'tmx';
const DOWNLOADED = 'downloaded';

export interface MemoryJobInput {
  readonly operation: 'import' | 'export';
  readonly parameters: Record<string, unknown>;
  readonly contentLength?: number;
}
/** An import's memory, and its `skipped` count once the file was read whole (the memory then being made ready). */
interface ImportCheckpoint {
  readonly memoryId: string;
  readonly skipped?: number;
}
type ImportResult = { readonly memoryId: string; readonly skipped: number } | null;
type MemoryJob = JobInfo<MemoryJobInput, ImportCheckpoint, ImportResult>;

/** How an import writes its memory, on one backend. */
export interface MemoryWriter {
  begin(accountId: string, name: string): Promise<string>;
  /** Reads the TMX into the memory, its segments and postings (stopped when `signal` aborts). */
  write(memoryId: string, content: AsyncIterable<Buffer>, signal: AbortSignal): Promise<TmxSummary>;
  /** Makes the memory ready, while `fence`'s attempt still runs its job (else `JobSuperseded`, nothing done). */
  finish(memoryId: string, summary: TmxSummary, fence: { id: string; attempt: number }): Promise<void>;
  /** Deletes a memory not made ready (a half-written import). */
  discard(memoryId: string): Promise<void>;
}

/** The SQLite writer: after a restart, half-written memories go (their jobs run again). */
export function sqliteMemoryWriter(memories: SqliteMemoryStore): MemoryWriter {
  memories.removeUnready();
  return {
    begin: async (accountId, name) => memories.begin(accountId, name),
    write: (memoryId, content, signal) => memories.importTmx(memoryId, content, signal),
    // One process runs the jobs of a data directory: no other attempt can run this one's meanwhile.
    finish: async (memoryId, summary) =>
      memories.finish(memoryId, summary.source, summary.targets, summary.segments),
    discard: async (memoryId) => memories.discard(memoryId),
  };
}

/** The id of a memory's export job: one per memory at a time, across instances. */
function exportId(accountId: string, memoryId: string): string {
  const hex = createHash('sha256').update(`memory-export/${accountId}/${memoryId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A job as the routes see it. Import: `awaiting_input` → `processing` → `completed` or `failed`. Export:
 * `processing` → `completed` (signed `download_url`) → `downloaded`; both end `expired`.
 */
function toRecord(job: MemoryJob, downloaded: boolean) {
  const states: Record<MemoryJob['status'], MemoryJobStatus> = {
    // Not uploaded within the hour, a deferred job is `expired` (the runner's release time is the kind's TTL).
    deferred: 'awaiting_input',
    queued: 'processing',
    running: 'processing',
    completed: downloaded ? 'downloaded' : 'completed',
    failed: 'failed',
    cancelled: 'failed',
    expired: 'expired',
  };
  const { operation, parameters } = job.input;
  const status = states[job.status];
  return {
    id: job.id,
    operation,
    status,
    parameters,
    memoryId:
      operation === 'export'
        ? String(parameters.translation_memory_id)
        : (job.result?.memoryId ?? job.checkpoint?.memoryId),
    contentLength: job.input.contentLength,
    error: status === 'failed' ? (job.error ?? `the job was ${job.status}`) : undefined,
    skipped: job.result?.skipped,
    expiresAt: job.expiresAt ?? new Date(Date.parse(job.createdAt) + JOB_TTL_MS).toISOString(),
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

export type JobRecord = ReturnType<typeof toRecord>;
export type MemoryJobs = ReturnType<typeof createMemoryJobs>;

/** Registers the kind on the server's runner (`ServiceContext.jobs`); the routes' `MemoryJobs`. */
export function createMemoryJobs(runner: JobRunner, memories: MemoryStore, writer: MemoryWriter) {
  async function runImport(job: RunningJob<MemoryJobInput, ImportCheckpoint>): Promise<ImportResult> {
    const previous = job.checkpoint;
    if (previous?.skipped !== undefined && (await memories.get(job.accountId, previous.memoryId)))
      // Made ready just before a kill: the import is done.
      return { memoryId: previous.memoryId, skipped: previous.skipped };
    // The import's working set (batches, postings pending, SQLite's pages) under the process's budget: it
    // waits its turn when other heavy work holds the memory, and asks again when refused.
    const release = await reserveMemoryPatiently(
      'A translation memory import',
      IMPORT_BYTES,
      IMPORT_MEMORY_WAIT_MS,
      job.signal,
    );
    try {
      if (previous) await writer.discard(previous.memoryId);
      const content = await job.fileStream(UPLOAD);
      if (!content) throw new JobFailed(INTERRUPTED);
      const { parameters } = job.input;
      const memoryId = await writer.begin(
        job.accountId,
        String(parameters.display_name ?? parameters.file_name ?? 'memory'),
      );
      try {
        await job.save({ memoryId });
        // Read as it streams from the file.
        const summary = await writer.write(memoryId, content as AsyncIterable<Buffer>, job.signal);
        await job.save({ memoryId, skipped: summary.skipped });
        await writer.finish(memoryId, summary, { id: job.id, attempt: job.attempt });
        return { memoryId, skipped: summary.skipped };
      } catch (error) {
        // A taken-over attempt leaves the memory to the attempt that took it over.
        if (!(error instanceof JobSuperseded)) await writer.discard(memoryId).catch(() => {});
        throw error;
      }
    } finally {
      release();
    }
  }

  async function runExport(job: RunningJob<MemoryJobInput, ImportCheckpoint>): Promise<null> {
    const memory = await memories.get(job.accountId, String(job.input.parameters.translation_memory_id));
    if (!memory) throw new JobFailed('The translation memory was deleted.');
    const pieces: Buffer[] = [];
    for await (const piece of writeTmx(memory.source, memories.all(memory.id))) {
      job.signal.throwIfAborted();
      pieces.push(Buffer.from(piece));
    }
    await job.writeFile(EXPORT, Buffer.concat(pieces));
    return null;
  }

  const queue = runner.register<MemoryJobInput, ImportCheckpoint, ImportResult>({
    name: MEMORY_JOB_KIND,
    resultTtlMs: JOB_TTL_MS,
    // An import's upload goes once it ended.
    keepFiles: [EXPORT, DOWNLOADED],
    // A file that cannot be imported is not tried again: a failed attempt fails the job (a kill, a takeover or
    // the runner closing is no failure: the job runs again).
    maxFailures: 1,
    async run(job) {
      // A job of a version before the job files (its record went in a migration): it fails.
      if (!job.input.operation) throw new JobFailed(INTERRUPTED);
      return job.input.operation === 'import' ? runImport(job) : runExport(job);
    },
  });

  /** The job (with `accountId`: only if it is that account's). */
  const get = async (id: string, accountId?: string) => {
    const job = await queue.status(id, { accountId });
    // Unknown, or a job of a version before the job files (its record, which the routes answered, is gone).
    if (!job?.input.operation) return undefined;
    const downloaded =
      job.status === 'completed' &&
      job.input.operation === 'export' &&
      (await queue.files(id)).includes(DOWNLOADED);
    return toRecord(job, downloaded);
  };

  return {
    get,
    async createImport(accountId: string, parameters: Record<string, unknown>, contentLength: number) {
      const job = await queue.submit(
        accountId,
        { operation: 'import', parameters, contentLength },
        { deferred: true },
      );
      return toRecord(job, false);
    },
    /**
     * Receives the TMX file of an import awaiting it (`write` pipes the upload into the sink it is given)
     * and starts processing it; false when another upload took the job first (this one is read and dropped).
     */
    async receive(job: JobRecord, write: (sink: Writable) => Promise<void>): Promise<boolean> {
      // The upload streams into the job file (on SQLite straight to disk), not into memory.
      const upload = new PassThrough();
      const writing = write(upload);
      const released = await queue.release(job.id, { [UPLOAD]: upload }).catch(async (error) => {
        await writing; // The upload's own failure (too large, cut off) first.
        throw error;
      });
      if (!released) upload.resume();
      await writing;
      return released;
    },
    /** An unexpired export of the memory, or a new one (`created: true`). */
    async export(accountId: string, memoryId: string) {
      const id = exportId(accountId, memoryId);
      const existing = await get(id);
      if (existing && ['processing', 'completed', 'downloaded'].includes(existing.status))
        return { job: existing, created: false };
      // Expired or failed: its job goes, a new one takes its id.
      if (existing) await queue.remove(id);
      const job = await queue.submit(
        accountId,
        { operation: 'export', parameters: { translation_memory_id: memoryId } },
        { id },
      );
      return { job: toRecord(job, false), created: true };
    },
    /** The TMX of a finished export; marks it downloaded. */
    async download(job: JobRecord) {
      const content = await queue.file(job.id, EXPORT);
      if (!content) throw new Error(INTERRUPTED);
      await queue.writeFile(job.id, DOWNLOADED, new Uint8Array());
      return Readable.from([content]);
    },
  };
}
