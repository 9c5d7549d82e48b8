/**
 * The durable job runner every asynchronous feature runs on. A feature declares a job kind (`JobKind`: its
 * input, checkpoints, result and usage) and registers it; the runner gives it submit, status, cancel,
 * files and expiry, and runs its jobs on this instance's workers: claimed fairly between accounts, under
 * this instance's lease, retried with backoff, taken over from a dead instance (they resume from their last
 * checkpoint), usage applied once per job and step in the transaction of the state change it pays for.
 * A job's files (uploads, requests, results: what its row cannot carry) are stored with it and deleted with it.
 * The storage behind it is a `JobBackend` (`Storage.openJobBackend()`): SQLite or PostgreSQL + pg-boss.
 */
import { randomUUID } from 'node:crypto';
import type { Storage, UsageRecord } from '../storage/storage.js';
import {
  DEFERRED_UNTIL,
  type JobBackend,
  type JobChange,
  type JobFiles,
  type JobRow,
  type JobState,
  JobSuperseded,
  type UsageCharge,
} from './job-backend.js';

/** A job's state; `deferred`: queued, waiting for its `release` before any worker takes it. */
export type JobStatus = 'deferred' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'expired';

/** A job as its feature sees it. */
export interface JobInfo<Input, Checkpoint, Result> {
  readonly id: string;
  readonly accountId: string;
  readonly status: JobStatus;
  readonly input: Input;
  /** What its last attempt saved (`RunningJob.save`); undefined before the first save. */
  readonly checkpoint: Checkpoint | undefined;
  readonly result: Result | undefined;
  readonly error: string | undefined;
  /** Attempts claimed so far (a takeover is one more). */
  readonly attempt: number;
  /** Attempts that failed (each retried with backoff until the kind's `maxFailures`). */
  readonly failures: number;
  readonly expiresAt: string | undefined;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The job an attempt runs. */
export interface RunningJob<Input, Checkpoint> {
  readonly id: string;
  readonly accountId: string;
  readonly input: Input;
  /** Where the previous attempt stopped (undefined: start from the beginning). */
  readonly checkpoint: Checkpoint | undefined;
  readonly attempt: number;
  /** Aborted when the job is cancelled here or this instance closes: stop at the next step. */
  readonly signal: AbortSignal;
  /**
   * Usage the next state change pays for: applied once per `step` (a step redone by a later attempt is
   * not charged again), in the transaction of the next `save` or of the job's completion.
   */
  charge(step: string, record: UsageRecord): void;
  /**
   * Saves a checkpoint (and the usage charged since the last one) in one transaction; a later attempt
   * starts from it. Throws `JobSuperseded` when this attempt no longer runs the job (taken over,
   * cancelled), and the instance closing's error when it closes: let either propagate.
   */
  save(checkpoint: Checkpoint): Promise<void>;
  /** A file of the job: one submitted with it, or one an attempt wrote; undefined when it has none of that name. */
  file(name: string): Promise<Uint8Array | undefined>;
  /** The same as a stream, for a file too large to hold at once (an upload of 100 MiB). */
  fileStream(name: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  /**
   * Stores an output (replacing one of that name), durably, before the job completes; the queue's `file`
   * serves it once the job completed. Throws `JobSuperseded` (let it propagate) when this attempt no longer
   * runs the job: a superseded attempt's file never replaces the current attempt's.
   */
  writeFile(name: string, data: Uint8Array): Promise<void>;
}

export interface JobKind<Input, Checkpoint, Result> {
  /** Unique across the server, e.g. `documents/translate`. */
  readonly name: string;
  /** Runs one attempt from `job.checkpoint` to the result. A throw fails the attempt (retried). */
  run(job: RunningJob<Input, Checkpoint>): Promise<Result>;
  /** Attempts of this kind one instance runs at a time (default: the runner's `concurrency`). */
  readonly concurrency?: number;
  /** Failed attempts before the job fails for good (default 3); a `JobFailed` throw fails it at once. */
  readonly maxFailures?: number;
  /** Delay before the first retry, doubled at each further one up to a minute (default 1000 ms). */
  readonly retryDelayMs?: number;
  /** How long a finished job (its result) stays readable (default one hour), then `expired`. */
  readonly resultTtlMs?: number;
  /**
   * Jobs of this kind an account may hold (queued, running, or finished and not expired): a submit past
   * it throws `JobLimitExceeded` with `kind` set. Checked in the insert's transaction, on every instance.
   */
  readonly maxPerAccount?: number;
  /**
   * The files a job keeps once it ends (completed, failed or cancelled): its others (an upload, partial
   * outputs) are deleted with the change that ends it (SQLite: once it committed, a kill in between leaving
   * them until the job is deleted). Default: all are kept until the job is deleted.
   */
  readonly keepFiles?: readonly string[];
  /**
   * Usage given back when the job ends failed or cancelled (e.g. the refund of a reservation made at
   * submit), applied once, in the transaction that ends it.
   */
  refund?(job: JobInfo<Input, Checkpoint, Result>): readonly UsageCharge[];
}

/** Thrown by a kind's `run` for a failure that a retry cannot mend (bad content): fails the job at once. */
export class JobFailed extends Error {
  override readonly name = 'JobFailed';
}

/** The reason a job's signal is aborted with, and its `save` throws, when this instance closes. */
export class RunnerClosing extends Error {
  override readonly name = 'RunnerClosing';
  constructor() {
    super('the job runner is closing');
  }
}

export interface JobQueue<Input, Checkpoint, Result> {
  /**
   * Queues a job with its `files` (by name: `[A-Za-z0-9][A-Za-z0-9._-]*`): the job is stored with all of
   * them, or not at all, whenever the process dies. With an `id` of the feature's, submitting again is a
   * no-op that returns the job (its files unchanged). Throws `JobLimitExceeded` past the runner's or the
   * kind's per-account limit.
   */
  submit(
    accountId: string,
    input: Input,
    options?: {
      readonly id?: string;
      readonly files?: JobFiles | undefined;
      /**
       * Stored `deferred`: no worker takes it before `release` (e.g. an upload that comes later). Not
       * released within the kind's `resultTtlMs`, it is `expired` (then deleted, as a finished job is).
       */
      readonly deferred?: boolean;
    },
  ): Promise<JobInfo<Input, Checkpoint, Result>>;
  /**
   * Queues a deferred job with `files` (stored with it, or nothing is, whenever the process dies); false
   * when the job is not deferred (released already, or gone): nothing is stored then.
   */
  release(id: string, files: JobFiles): Promise<boolean>;
  /**
   * The job, when it is of this kind (and, with `accountId`, that account's): undefined otherwise, so that a
   * route answers another account's job exactly as an unknown one.
   */
  status(
    id: string,
    options?: { readonly accountId?: string | undefined },
  ): Promise<JobInfo<Input, Checkpoint, Result> | undefined>;
  /** Cancels a queued or running job (its refund applied); the job after it. */
  cancel(id: string): Promise<JobInfo<Input, Checkpoint, Result> | undefined>;
  /** A file of a completed, unexpired job of this kind (submitted with it or written by its attempts). */
  file(id: string, name: string): Promise<Uint8Array | undefined>;
  /**
   * Removes a file of a completed, unexpired job and returns it (a one-time download): of concurrent
   * calls, one gets it, the others undefined.
   */
  takeFile(id: string, name: string): Promise<Uint8Array | undefined>;
  /** The names of a job's files, whatever its state (none for another kind's or an unknown id). */
  files(id: string): Promise<string[]>;
  /** Stores a file of a job of this kind, whatever its state (e.g. a mark on a finished job); false when none. */
  writeFile(id: string, name: string, data: Uint8Array): Promise<boolean>;
  /** Deletes a finished job of this kind now, with its files (rather than at the sweep); false when none. */
  remove(id: string): Promise<boolean>;
}

export interface JobRunnerOptions {
  /** Jobs this instance runs at a time (default 2); 0 submits and reads only. */
  readonly concurrency?: number;
  /** Jobs of one account running at a time, across the fleet (default 2). */
  readonly maxRunningPerAccount?: number;
  /** Jobs of one account waiting or running past which a submit is refused (default 1000). */
  readonly maxQueuedPerAccount?: number;
  /** How often dead instances' jobs and expired jobs are looked for, in ms (default 5 s). */
  readonly sweepMs?: number;
  /** How long an expired job stays (answered `expired`) before it is deleted (default a day). */
  readonly keepExpiredMs?: number;
  /** For pruning the usage operation ids of deleted jobs (`sweep`). */
  readonly storage?: Storage;
  readonly onError?: ((error: unknown) => void) | undefined;
}

/**
 * The server creates one runner (`ServiceContext.jobs`), over `Storage.openJobBackend()`; a feature registers
 * its kinds on it in its `start` (before the server starts the workers) and never starts or closes it: the
 * server closes it first when it closes (running attempts stop at their next step), then the features.
 */
export interface JobRunner {
  /** Registers a kind (its name unique on the runner); its queue. Kinds registered after `start` run too. */
  register<Input, Checkpoint, Result>(
    kind: JobKind<Input, Checkpoint, Result>,
  ): JobQueue<Input, Checkpoint, Result>;
  /**
   * The queue of a registered kind (a feature's routes find theirs from the context by its name); throws a
   * `TypeError` when no kind of that name is registered.
   */
  queue<Input, Checkpoint, Result>(name: string): JobQueue<Input, Checkpoint, Result>;
  /** Starts the workers (after the kinds are registered). */
  start(): Promise<void>;
  /** Jobs of every kind queued or running. */
  depth(): Promise<number>;
  /**
   * Jobs of `kinds` in these states, on every instance that shares the storage (a kind's gauges); a deferred
   * job is not counted queued.
   */
  count(kinds: readonly string[], states: readonly JobState[]): Promise<number>;
  /** Stops taking jobs; running attempts stop at their next step and go back to the queue. */
  close(): Promise<void>;
}

const parse = <T>(text: string | null): T | undefined =>
  text === null ? undefined : (JSON.parse(text) as T);

function toJobInfo<Input, Checkpoint, Result>(row: JobRow): JobInfo<Input, Checkpoint, Result> {
  const expired = row.expires_at !== null && Date.parse(row.expires_at) <= Date.now();
  return {
    id: row.id,
    accountId: row.account_id,
    status: expired
      ? 'expired'
      : row.status === 'queued' && row.run_after === DEFERRED_UNTIL
        ? 'deferred'
        : row.status,
    input: JSON.parse(row.input) as Input,
    checkpoint: parse<Checkpoint>(row.checkpoint),
    result: expired ? undefined : parse<Result>(row.result),
    error: row.error ?? undefined,
    attempt: row.attempt,
    failures: row.failures,
    expiresAt: row.expires_at ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * How long before the oldest stored job the usage operation ids `jobs/…` are kept: a day. A job applies its
 * ids only while it is stored, and only after it was created; the margin covers the clocks (a row's time and
 * `applied_at` may come from different machines) and an attempt still running on a row that no longer holds
 * it, which may apply its id once more.
 */
const USAGE_OPERATION_MARGIN_MS = 24 * 60 * 60 * 1000;

export function createJobRunner(backend: JobBackend, options: JobRunnerOptions = {}): JobRunner {
  // biome-ignore lint/suspicious/noExplicitAny: kinds of every type live in one map
  const kinds = new Map<string, { kind: JobKind<any, any, any>; queue: JobQueue<any, any, any> }>();
  const running = new Map<string, AbortController>();
  /** Attempts running here, by kind (a kind's `concurrency`). */
  const busy = new Map<string, number>();
  const concurrency = options.concurrency ?? 2;
  /** The workers (`work`), and the wake-ups of those idle. */
  let workers: Promise<void>[] = [];
  const idle = new Set<() => void>();
  /** Wakes the idle workers: a job may be claimable (queued here or, through the backend, on another instance). */
  const notify = () => {
    for (const wake of idle) wake();
  };
  let sweepTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const report = (error: unknown) => options.onError?.(error);
  const later = (ms: number) => new Date(Date.now() + ms).toISOString();
  /** When a job of `kind` ending (or deferred) now expires: its `resultTtlMs` (default one hour) from now. */
  const expiry = (kind: JobKind<unknown, unknown, unknown>) => later(kind.resultTtlMs ?? 3_600_000);

  async function attempt(row: JobRow): Promise<void> {
    const { kind } = kinds.get(row.kind)!;
    const controller = new AbortController();
    running.set(row.id, controller);
    const fence = { id: row.id, attempt: row.attempt };
    let charges: UsageCharge[] = [];
    /** The job's state as this attempt last wrote it (the refund of a failure sees its checkpoint). */
    let state: JobChange = {
      status: 'running',
      checkpoint: row.checkpoint,
      result: null,
      error: row.error,
      failures: row.failures,
    };
    const change = async (next: Partial<JobChange>, usage = charges) => {
      charges = [];
      await backend.change(fence, { ...state, ...next }, usage);
      state = { ...state, ...next };
    };
    const job: RunningJob<unknown, unknown> = {
      id: row.id,
      accountId: row.account_id,
      input: JSON.parse(row.input),
      checkpoint: parse(row.checkpoint),
      attempt: row.attempt,
      signal: controller.signal,
      charge(step, record) {
        charges.push({ step, record });
      },
      async save(checkpoint) {
        if (closed) throw new RunnerClosing();
        await change({ checkpoint: JSON.stringify(checkpoint) });
      },
      file: (name) => backend.files.read(row.id, name),
      fileStream: (name) => backend.files.stream(row.id, name),
      writeFile: (name, data) => backend.writeFile(fence, name, data),
    };
    /** An ended job's: its expiry from now, and its files to keep. */
    const ended = () => ({ expiresAt: expiry(kind), keepFiles: kind.keepFiles });
    try {
      const result = await kind.run(job);
      await change({ status: 'completed', result: JSON.stringify(result ?? null), error: null, ...ended() });
    } catch (error) {
      if (error instanceof JobSuperseded) return;
      // Back to the queue, for another instance (or this one, restarted): it resumes from its checkpoint.
      if (closed) return await change({ status: 'queued', runAfter: later(0) }, []).catch(() => {});
      const failures = row.failures + 1;
      const failed = { failures, error: messageOf(error) };
      if (error instanceof JobFailed || failures >= (kind.maxFailures ?? 3)) {
        const refund = kind.refund?.(toJobInfo({ ...row, checkpoint: state.checkpoint, ...failed })) ?? [];
        await change({ status: 'failed', ...failed, ...ended() }, [...refund]);
      } else {
        const delay = Math.min((kind.retryDelayMs ?? 1000) * 2 ** (failures - 1), 60_000);
        await change({ status: 'queued', runAfter: later(delay), ...failed }, []);
      }
    } finally {
      running.delete(row.id);
    }
  }

  /**
   * Claims a job of a kind below its `concurrency` here, and counts it: one claim at a time in this
   * instance, so that two workers cannot both take a kind's last slot.
   */
  let claiming: Promise<unknown> = Promise.resolve();
  function claim(): Promise<JobRow | undefined> {
    const next = claiming.then(async () => {
      const open = [...kinds.values()]
        .filter(({ kind }) => (busy.get(kind.name) ?? 0) < (kind.concurrency ?? concurrency))
        .map(({ kind }) => kind.name);
      if (open.length === 0 || closed) return undefined;
      const row = await backend.claim(open, options.maxRunningPerAccount ?? 2);
      if (row) busy.set(row.kind, (busy.get(row.kind) ?? 0) + 1);
      return row;
    });
    claiming = next.catch(() => {});
    return next;
  }

  /**
   * A worker: claims and runs jobs while there are, then waits for a wake-up (`notify`) or the backend's
   * `pollMs`.
   */
  async function work(): Promise<void> {
    while (!closed) {
      // A claim that failed (the database busy) is tried again after the pause.
      const row = await claim().catch(() => undefined);
      if (row) {
        await attempt(row).catch((error) => {
          if (!(error instanceof JobSuperseded)) report(error);
        });
        busy.set(row.kind, (busy.get(row.kind) ?? 1) - 1);
        // A worker idle because this kind was at its concurrency may take one now.
        notify();
      } else if (!closed)
        await new Promise<void>((resolve) => {
          const wake = () => {
            idle.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, backend.pollMs);
          idle.add(wake);
        });
    }
  }

  /**
   * Takes over dead instances' jobs, deletes expired ones, forgets the usage operation ids of deleted jobs;
   * then again `sweepMs` later.
   */
  async function sweep(): Promise<void> {
    const oldest = await backend.sweep(later(-(options.keepExpiredMs ?? 86_400_000)));
    notify();
    const from = Math.min(oldest ? Date.parse(oldest) : Date.now(), Date.now());
    await options.storage?.pruneUsageOperations('jobs/', new Date(from - USAGE_OPERATION_MARGIN_MS));
  }
  const sweepLater = () => {
    const again = () => closed || sweepLater();
    sweepTimer = setTimeout(() => sweep().catch(report).finally(again), options.sweepMs ?? 5000).unref();
  };

  return {
    register<Input, Checkpoint, Result>(kind: JobKind<Input, Checkpoint, Result>) {
      if (kinds.has(kind.name)) throw new TypeError(`Job kind ${kind.name} is registered already.`);
      const info = (row: JobRow | undefined) =>
        row && row.kind === kind.name ? toJobInfo<Input, Checkpoint, Result>(row) : undefined;
      /** Whether the job is this kind's, completed and not expired. */
      const completed = async (id: string) => (await queue.status(id))?.status === 'completed';
      const queue: JobQueue<Input, Checkpoint, Result> = {
        async submit(accountId, input, submitOptions = {}) {
          const row = await backend.insert({
            id: submitOptions.id ?? randomUUID(),
            kind: kind.name,
            accountId,
            input: JSON.stringify(input),
            maxQueued: options.maxQueuedPerAccount ?? 1000,
            maxPerAccount: kind.maxPerAccount,
            files: submitOptions.files,
            releaseBy: submitOptions.deferred ? expiry(kind) : undefined,
          });
          notify();
          return info(row)!;
        },
        async status(id, { accountId } = {}) {
          const job = info(await backend.get(id));
          return accountId === undefined || job?.accountId === accountId ? job : undefined;
        },
        async cancel(id) {
          if (!(await queue.status(id))) return undefined;
          const after = await backend.cancel(
            id,
            expiry(kind),
            (current) => kind.refund?.(toJobInfo(current)) ?? [],
            kind.keepFiles,
          );
          running.get(id)?.abort(new JobSuperseded(id));
          return info(after);
        },
        file: async (id, name) => ((await completed(id)) ? backend.files.read(id, name) : undefined),
        takeFile: async (id, name) => ((await completed(id)) ? backend.files.take(id, name) : undefined),
        files: async (id) => ((await queue.status(id)) ? backend.files.list(id) : []),
        writeFile: async (id, name, data) =>
          (await queue.status(id)) !== undefined && backend.putFile(id, name, data),
        remove: async (id) => (await queue.status(id)) !== undefined && backend.remove(id),
        async release(id, files) {
          if ((await queue.status(id))?.status !== 'deferred') return false;
          const released = await backend.release(id, files);
          if (released) notify();
          return released;
        },
      };
      kinds.set(kind.name, { kind, queue });
      return queue;
    },
    queue(name) {
      const queue = kinds.get(name)?.queue;
      if (!queue) throw new TypeError(`No job kind ${name} is registered.`);
      return queue;
    },
    async start() {
      if (concurrency === 0 || workers.length > 0) return;
      await backend.sweep(new Date(0).toISOString());
      workers = Array.from({ length: concurrency }, work);
      await backend.listen(notify);
      sweepLater();
    },
    depth: () => backend.count([...kinds.keys()], ['queued', 'running']),
    count: (ofKinds, states) => backend.count(ofKinds, states),
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(sweepTimer);
      for (const controller of running.values()) controller.abort(new RunnerClosing());
      // Each worker ends once its attempt stopped.
      notify();
      await Promise.allSettled(workers);
      await backend.close();
    },
  };
}
