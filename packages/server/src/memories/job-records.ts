/**
 * Translation-memory import and export jobs as the routes see them (`JobRecord`), and what the routes call
 * on them (`MemoryJobs`, one implementation for both backends in jobs.ts). A job is a job of the spine's
 * runner, kind `memories/transfer`: its uploaded TMX or its export is a job file, its state the runner's
 * (there is no record of its own).
 *
 * Import: `awaiting_input` until the TMX is PUT to the signed upload URL, then `processing` → `completed` or
 * `failed`. Export: `processing` → `completed` (TMX file, signed `download_url`) → `downloaded`; both end
 * `expired`.
 */
import type { Readable, Writable } from 'node:stream';
import type { MemoryJobStatus } from '@glossa/protocol';

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
  export(accountId: string, memoryId: string): Promise<{ job: JobRecord; created: boolean }>;
  /** The TMX of a finished export; marks it downloaded. */
  download(job: JobRecord): Promise<Readable>;
  /** Jobs queued or running (`processing`): on PostgreSQL, those of every instance. */
  depth(): Promise<number>;
}

/** Thrown by `receive` when the job no longer awaits its file. */
export class AlreadyUploaded extends Error {
  constructor(readonly status: MemoryJobStatus) {
    super(`the job is ${status}`);
  }
}
