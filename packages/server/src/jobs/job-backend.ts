/**
 * What the job runner (`job-runner.ts`) asks of a storage backend: rows of the `jobs` table, a fair claim,
 * fenced state changes that carry their usage in the same transaction, takeover of a dead owner's jobs, and
 * the delivery of work to this instance's workers. Two implementations: `sqlite-jobs.ts` (the embedded
 * default, one process, no extra process) and `postgres-jobs.ts` (a fleet, pg-boss delivering the work).
 */
import type { UsageRecord } from '../storage/usage-record.js';

export type JobState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A row of `jobs`, as both backends return it (timestamps are ISO strings). */
export interface JobRow {
  id: string;
  kind: string;
  account_id: string;
  status: JobState;
  input: string;
  checkpoint: string | null;
  result: string | null;
  error: string | null;
  owner: string | null;
  attempt: number;
  failures: number;
  run_after: string;
  claimed_at: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewJob {
  readonly id: string;
  readonly kind: string;
  readonly accountId: string;
  readonly input: string;
  /** Jobs of the account not finished yet past which the insert is refused (`JobLimitExceeded`). */
  readonly maxQueued: number;
  /**
   * Jobs of this kind the account holds (not finished, or finished and not expired) past which the insert
   * is refused (`JobLimitExceeded` naming the kind).
   */
  readonly maxPerAccount?: number | undefined;
  /** Files stored with the job: the job is inserted with all of them, or not at all. */
  readonly files?: JobFiles | undefined;
  /**
   * Inserted deferred, to be released before this time: queued, but not claimed before `release` (its
   * `run_after` is `DEFERRED_UNTIL`); not released by then, it expires (and is deleted as a finished job is).
   */
  readonly releaseBy?: string | undefined;
}

/** The `run_after` of a deferred job: later than any claim's time, so no worker takes it before `release`. */
export const DEFERRED_UNTIL = '9999-12-31T23:59:59.999Z';

/**
 * A job file's content: its bytes, or a stream of them (an upload: SQLite writes it to disk as it comes,
 * PostgreSQL collects it for its row).
 */
export type JobFileContent = Uint8Array | AsyncIterable<Uint8Array>;

/** A job's files by name (`[A-Za-z0-9][A-Za-z0-9._-]*`, at most 100 characters). */
export type JobFiles = Readonly<Record<string, JobFileContent>>;

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Throws a `TypeError` for a file name a job cannot have. */
export function checkFileName(name: string): void {
  if (!FILE_NAME.test(name)) throw new TypeError(`A job file cannot be named ${JSON.stringify(name)}.`);
}

/**
 * Usage a state change pays for (or refunds, with negative units): applied once per `jobs/<job id>/<step>`
 * operation, in the transaction of the change.
 */
export interface UsageCharge {
  readonly step: string;
  readonly record: UsageRecord;
}

/** The attempt a state change comes from: it applies only while that attempt still runs the job. */
export interface JobFence {
  readonly id: string;
  readonly attempt: number;
}

export type JobChange =
  | { readonly status: 'running'; readonly checkpoint: string }
  | { readonly status: 'completed'; readonly result: string; readonly expiresAt: string }
  | {
      readonly status: 'failed';
      readonly error: string;
      readonly failures: number;
      readonly expiresAt: string;
    }
  /** Back to the queue: a retry after `failures` failures, or an attempt stopped by its instance closing. */
  | {
      readonly status: 'queued';
      readonly runAfter: string;
      readonly failures: number;
      readonly error: string | null;
    };

/** Thrown by a change whose attempt no longer runs the job (taken over, cancelled): its work is dropped. */
export class JobSuperseded extends Error {
  override readonly name = 'JobSuperseded';
  constructor(id: string) {
    super(`job ${id} is no longer run by this attempt`);
  }
}

/**
 * Thrown by `insert` when the account has `maxQueued` jobs not finished (`kind` undefined), or holds
 * `maxPerAccount` jobs of `kind`.
 */
export class JobLimitExceeded extends Error {
  override readonly name = 'JobLimitExceeded';
  constructor(
    readonly limit: number,
    readonly kind?: string,
  ) {
    super(
      kind === undefined
        ? `an account may have ${limit} jobs waiting or running`
        : `an account may hold ${limit} jobs of ${kind}`,
    );
  }
}

export interface JobDelivery {
  /** Wakes idle workers (a job was queued here). */
  notify(): void;
  /** Stops taking jobs (those running go on; the runner waits for them). */
  stop(): Promise<void>;
}

export interface JobBackend {
  /** This instance's owner id, written on the rows it runs. */
  readonly owner: string;
  /** Inserts the job with its files, queued; when a job has its id already, that job (nothing inserted). */
  insert(job: NewJob): Promise<JobRow>;
  get(id: string): Promise<JobRow | undefined>;
  /**
   * Claims one queued job of `kinds` whose time has come, fairly: of the accounts with fewer than
   * `maxRunningPerAccount` jobs running, the one whose last claim is the oldest (never claimed first),
   * its first submitted job. The row comes back running, owned by this instance, its `attempt` incremented.
   */
  claim(kinds: readonly string[], maxRunningPerAccount: number): Promise<JobRow | undefined>;
  /** Applies `change` and `usage` in one transaction, or throws `JobSuperseded` and applies nothing. */
  change(fence: JobFence, change: JobChange, usage: readonly UsageCharge[]): Promise<void>;
  /**
   * Cancels a queued or running job, applying `usage(row)` in the same transaction; the row after it
   * (unchanged when it had finished), undefined when there is none.
   */
  cancel(
    id: string,
    expiresAt: string,
    usage: (row: JobRow) => readonly UsageCharge[],
  ): Promise<JobRow | undefined>;
  /** A file of the job (stored with it, or written by an attempt); undefined when it has none of that name. */
  readFile(id: string, name: string): Promise<Uint8Array | undefined>;
  /** The same as a stream (a file too large to hold at once: SQLite reads it from disk as it goes). */
  streamFile(id: string, name: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  /**
   * Stores a file of the attempt `fence` (replacing one of that name), or throws `JobSuperseded` and stores
   * nothing: a superseded attempt's file never replaces the current attempt's.
   */
  writeFile(fence: JobFence, name: string, data: Uint8Array): Promise<void>;
  /** Removes a file of the job and returns it: of concurrent calls, one gets it, the others undefined. */
  takeFile(id: string, name: string): Promise<Uint8Array | undefined>;
  /** The names of the job's files (none when there is no such job). */
  listFiles(id: string): Promise<string[]>;
  /** Stores a file of the job, whatever its state (replacing one of that name); false when there is no job. */
  putFile(id: string, name: string, data: Uint8Array): Promise<boolean>;
  /** Deletes the job's files but those named in `keep`. */
  pruneFiles(id: string, keep: readonly string[]): Promise<void>;
  /**
   * Queues a deferred job with `files` (both, or neither, whenever the process dies); false when the job
   * is not deferred (released already, expired, or gone), and nothing is stored.
   */
  release(id: string, files: JobFiles): Promise<boolean>;
  /** Deletes a finished (completed, failed or cancelled) job with its files; false when there is none. */
  remove(id: string): Promise<boolean>;
  /** Jobs of `kinds` in these states (a deferred job is not counted queued). */
  count(kinds: readonly string[], states: readonly JobState[]): Promise<number>;
  /**
   * The periodic check: jobs of owners that are gone queued again (they resume from their checkpoint);
   * finished jobs expired before `deleteBefore` deleted with their files.
   */
  sweep(deleteBefore: string): Promise<void>;
  /** When the oldest job still stored was created (its usage operation ids must stay). */
  oldestJob(): Promise<Date | undefined>;
  /** Starts `concurrency` workers, each calling `runNext` (true: it ran a job) while there is work. */
  deliver(concurrency: number, runNext: () => Promise<boolean>): Promise<JobDelivery>;
  close(): Promise<void>;
}

/**
 * The crash tests' hook (test/jobs-crash.test.ts, which kills the process there): called once a submit's
 * files are stored and before its row commits. Unset in a server.
 */
export const jobCrashPoints: { filesStored?: (jobId: string) => void } = {};

/** The usage operation id of a charge: the prefix `jobs/` is pruned by the runner's sweep. */
export const usageOperationId = (jobId: string, step: string): string => `jobs/${jobId}/${step}`;
