/**
 * Translation-memory import and export jobs as the routes see them (`JobRecord`), and the interface both
 * backends implement (`MemoryJobs`, jobs.ts). A job is a job of the spine's runner, kind `memories/transfer`:
 * its uploaded TMX or its export is a job file, its state the runner's (there is no record of its own).
 *
 * Import: `awaiting_input` until the TMX is PUT to the signed upload URL, then `processing` → `completed` or
 * `failed`. Export: `processing` → `completed` (TMX file, signed `download_url`) → `downloaded`; both end
 * `expired`.
 */
import type { Readable, Writable } from 'node:stream';
import type { MemoryJobStatus } from '@glossa/protocol';

/** How long an upload URL, and a finished export, stay valid. */
export const JOB_TTL_MS = 60 * 60 * 1000;

export interface JobRecord {
  readonly id: string;
  readonly accountId: string;
  readonly operation: 'import' | 'export';
  readonly status: MemoryJobStatus;
  readonly parameters: Record<string, unknown>;
  readonly memoryId: string | undefined;
  readonly contentLength: number | undefined;
  readonly error: string | undefined;
  readonly skipped: number | undefined;
  readonly expiresAt: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface MemoryJobs {
  get(id: string): Promise<JobRecord | undefined>;
  createImport(
    accountId: string,
    parameters: Record<string, unknown>,
    contentLength: number,
  ): Promise<JobRecord>;
  /**
   * Receives the TMX file of an import awaiting it (`write` pipes the upload into the sink it is given)
   * and starts processing it. Throws `AlreadyUploaded` when another upload took the job first.
   */
  receive(job: JobRecord, write: (sink: Writable) => Promise<void>): Promise<void>;
  /** An unexpired export of the memory, or a new one (`created: true`). */
  export(accountId: string, memoryId: string, source: string): Promise<{ job: JobRecord; created: boolean }>;
  /** The TMX of a finished export; marks it downloaded. */
  download(job: JobRecord): Promise<Readable>;
  /** Jobs queued or running (`processing`): on PostgreSQL, those of every instance. */
  depth(): Promise<number>;
  /** The jobs' runner is the server's (`ServiceContext.jobs`), closed first; nothing of this store's own. */
  close(): Promise<void>;
}

/** The import's summary of a TMX (what finishing a memory needs). */
export interface ImportSummary {
  source: string;
  targets: readonly string[];
  segments: number;
  skipped: number;
}

export const INTERRUPTED = 'The server stopped while this job was running; start it again.';

/** Thrown by `receive` when the job no longer awaits its file. */
export class AlreadyUploaded extends Error {
  constructor(readonly status: MemoryJobStatus) {
    super(`the job is ${status}`);
  }
}
