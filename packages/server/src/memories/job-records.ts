/**
 * The records of translation-memory import and export jobs (`memory_jobs`), as the routes see them, and the
 * interface both backends implement (`MemoryJobs`: jobs.ts on SQLite, `storage/postgres-memory-jobs.ts` on
 * PostgreSQL). What a job does when it runs, and how it runs, is theirs.
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

export interface JobRow {
  id: string;
  account_id: string;
  operation: 'import' | 'export';
  status: MemoryJobStatus;
  parameters: string;
  memory_id: string | null;
  content_length: number | null;
  error: string | null;
  skipped: number | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

const EXPIRING: readonly MemoryJobStatus[] = ['awaiting_input', 'completed', 'downloaded'];

export function toRecord(row: JobRow): JobRecord {
  const expired = EXPIRING.includes(row.status) && Date.parse(row.expires_at) <= Date.now();
  return {
    id: row.id,
    accountId: row.account_id,
    operation: row.operation,
    status: expired ? 'expired' : row.status,
    parameters: JSON.parse(row.parameters) as Record<string, unknown>,
    memoryId: row.memory_id ?? undefined,
    contentLength: row.content_length ?? undefined,
    error: row.error ?? undefined,
    skipped: row.skipped ?? undefined,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
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
   * and starts processing it. Throws a 409 when another upload took the job first.
   */
  receive(job: JobRecord, write: (sink: Writable) => Promise<void>): Promise<void>;
  /** An unexpired export of the memory, or a new one (`created: true`). */
  export(accountId: string, memoryId: string, source: string): Promise<{ job: JobRecord; created: boolean }>;
  /** The TMX of a finished export; marks it downloaded. */
  download(job: JobRecord): Promise<Readable>;
  /** Jobs queued or running (`processing`): on PostgreSQL, those of every instance. */
  depth(): Promise<number>;
  /**
   * Stops this store's own periodic work. The jobs' runner is the server's (`ServiceContext.jobs`): it is
   * closed first (running jobs stop at their next batch and run again at the next start).
   */
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
