/**
 * The jobs' storage, written once for both backends: rows of the `jobs` table, a fair claim, fenced state
 * changes that carry their usage in the same transaction, takeover of a dead owner's jobs, and the jobs'
 * files. Each operation is one transaction over a small seam, `JobDatabase`, that two adapters implement
 * with what really differs: `sqlite-jobs.ts` (the embedded default: one process, files on disk) and
 * `postgres-jobs.ts` (a fleet: `job_files` rows, pg-boss wake-ups, a lease per instance).
 *
 * A transaction is a generator (`Tx`): each `yield` hands the adapter a step (a statement, with `$1`, `$2`…
 * parameters) and resumes with its answer. So better-sqlite3, which is synchronous, runs a whole operation
 * inside one synchronous transaction, where no other code of the process can run, and PostgreSQL runs the
 * same steps with `await` on one client.
 */
import { CHARACTER_PRODUCTS, type UsageRecord } from '../storage/usage-record.js';

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
  /** The runner's and the kind's limits (`JobLimitExceeded`). */
  readonly maxQueued: number;
  readonly maxPerAccount?: number | undefined;
  /** Files stored with the job: the job is inserted with all of them, or not at all. */
  readonly files?: JobFiles | undefined;
  /** Inserted deferred (`run_after` `DEFERRED_UNTIL`), to be released before this time, else it expires. */
  readonly releaseBy?: string | undefined;
}

/** The `run_after` of a deferred job: later than any claim's time, so no worker takes it before `release`. */
export const DEFERRED_UNTIL = '9999-12-31T23:59:59.999Z';

/** A job file's content: its bytes, or a stream of them (an upload). */
export type JobFileContent = Uint8Array | AsyncIterable<Uint8Array>;

/** A job's files by name (`[A-Za-z0-9][A-Za-z0-9._-]*`, at most 100 characters). */
export type JobFiles = Readonly<Record<string, JobFileContent>>;

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

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

/**
 * The state an attempt gives its job, written whole: `running` (a checkpoint saved), `queued` again (a retry
 * after `failures` failures, or an attempt stopped by its instance closing), `completed` or `failed`.
 */
export interface JobChange {
  readonly status: 'running' | 'queued' | 'completed' | 'failed';
  readonly checkpoint: string | null;
  readonly result: string | null;
  readonly error: string | null;
  readonly failures: number;
  /** Queued: when it may be claimed. */
  readonly runAfter?: string | undefined;
  /** Ended: when it expires. */
  readonly expiresAt?: string | undefined;
  /** Ended: the files it keeps (the others are deleted with the change); undefined: all. */
  readonly keepFiles?: readonly string[] | undefined;
}

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

/** A statement, its parameters `$1`, `$2`… (SQLite binds them by name). */
export interface Statement {
  readonly sql: string;
  readonly args: readonly unknown[];
}

/** What a statement gives back: the rows it returned, and how many rows it returned or changed. */
export interface Answer<T = unknown> {
  readonly rows: T[];
  readonly count: number;
}

/**
 * A step of a transaction: a statement; a wake-up (a job can be claimed: PostgreSQL sends a pg-boss job
 * with the transaction, SQLite's loops are notified by the runner); work to do once it committed.
 */
export type Step =
  | Statement
  | { readonly wake: { readonly jobId?: string; readonly startAfter?: string } }
  | { readonly afterCommit: () => Promise<void> };

/** A transaction, or a part of one to run with `yield*`: it ends with a `T`. */
export type Tx<T> = Generator<Step, T, Answer | undefined>;

/** A statement in a transaction, and its answer. */
export function* query<T = JobRow>(sql: string, args: readonly unknown[] = []): Tx<Answer<T>> {
  return (yield { sql, args }) as Answer<T>;
}

/** The jobs' files, where a backend keeps them. The steps it returns run in the caller's transaction. */
export interface JobFileStore<Staged> {
  /** Before the transaction: the files made ready to place (SQLite: written and fsynced). */
  stage(files: JobFiles): Promise<Staged>;
  /** Makes staged files the job's, replacing those of the same names (`fresh`: a job just inserted). */
  place(id: string, staged: Staged, fresh: boolean): readonly Step[];
  /** After the transaction: drops what `place` did not take. */
  discard(staged: Staged): Promise<void>;
  /** In the transaction deleting the job: its files go with it. */
  remove(id: string): readonly Step[];
  /** In the transaction ending the job: its files but `keep` go. */
  prune(id: string, keep: readonly string[]): readonly Step[];
  read(id: string, name: string): Promise<Uint8Array | undefined>;
  /** The same as a stream (a file too large to hold at once). */
  stream(id: string, name: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  /** Removes a file of the job and returns it: of concurrent calls, one gets it, the others undefined. */
  take(id: string, name: string): Promise<Uint8Array | undefined>;
  /** The names of the job's files (none when there is no such job). */
  list(id: string): Promise<string[]>;
}

/** The seam: what a backend gives the job operations. */
export interface JobDatabase<Staged> {
  /** This instance's owner id, written on the rows it runs. */
  readonly owner: string;
  /** The column that orders jobs as they were submitted (SQLite `rowid`, PostgreSQL `seq`). */
  readonly submitOrder: string;
  /** Runs one statement, outside any transaction. */
  query<T>(sql: string, args: readonly unknown[]): Promise<Answer<T>>;
  /**
   * Runs `work` in one transaction. Transactions of the same `lock` wait for each other (PostgreSQL: an
   * advisory lock; SQLite: every write transaction waits for the one before).
   */
  transaction<T>(work: Tx<T>, lock?: string): Promise<T>;
  readonly files: JobFileStore<Staged>;
  /** Makes the owner id this instance's before it is written on a row (PostgreSQL: holds the lease). */
  hold(): Promise<void>;
  /**
   * A statement answering `free` when `owner`'s instance is gone (its jobs may be taken over), holding
   * that owner until the transaction ends. None: every other owner is gone (SQLite: one process).
   */
  leaseOf?(owner: string): Statement;
  /** The backend's own part of the sweep (SQLite: directories of no job). */
  sweep?(): Promise<void>;
  /** How often an idle worker looks for a job (one due for a retry, one queued on another instance), in ms. */
  readonly pollMs: number;
  /** Calls `wake` when another instance queued a job (PostgreSQL: a pg-boss wake-up), until `close`. */
  listen?(wake: () => void): Promise<void>;
  /** Called after usage of a character product was applied (SQLite: the storage's quota totals are stale). */
  onCharacterUsage?(): void;
  close(): Promise<void>;
}

const now = () => new Date().toISOString();
/** Parameters `$first`, `$first + 1`… for the values of a list. */
const list = (values: readonly string[], first: number) => values.map((_, at) => `$${first + at}`).join(', ');

/** The job's row, locked until the transaction ends (PostgreSQL; SQLite has one writer at a time). */
function* locked(id: string): Tx<JobRow | undefined> {
  // An UPDATE that changes nothing: SQLite has no FOR UPDATE.
  return (yield* query('UPDATE jobs SET attempt = attempt WHERE id = $1 RETURNING *', [id])).rows[0];
}

/** Throws `JobSuperseded` unless `fence`'s attempt still runs its job (the row locked until the end). */
function* fenced(fence: JobFence): Tx<void> {
  const sql = `UPDATE jobs SET attempt = attempt WHERE id = $1 AND attempt = $2 AND status = 'running'`;
  if ((yield* query(sql, [fence.id, fence.attempt])).count === 0) throw new JobSuperseded(fence.id);
}

/** What the job runner (`job-runner.ts`) asks of the storage: `Storage.openJobBackend()`. */
export type JobBackend = ReturnType<typeof createJobBackend>;

export function createJobBackend<Staged>(db: JobDatabase<Staged>) {
  const { files } = db;
  const get = async (id: string) =>
    (await db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [id])).rows[0];

  /** Applies each charge once (its operation id recorded with it). */
  function* applyUsage(jobId: string, usage: readonly UsageCharge[], at: string): Tx<void> {
    for (const { step, record } of usage) {
      const operation =
        'INSERT INTO usage_operations (id, applied_at) VALUES ($1, $2) ON CONFLICT DO NOTHING';
      if ((yield* query(operation, [usageOperationId(jobId, step), at])).count === 0) continue;
      yield* query(
        `INSERT INTO usage (account_id, key_id, product, day, custom_tag, units) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account_id, day, product, key_id, custom_tag) DO UPDATE SET units = usage.units + excluded.units`,
        [record.accountId, record.keyId, record.product, record.day, record.customTag, record.units],
      );
      const { onCharacterUsage } = db;
      if (onCharacterUsage && CHARACTER_PRODUCTS.includes(record.product))
        yield { afterCommit: async () => onCharacterUsage() };
    }
  }
  /** Runs `work` with `content` staged for it: placed by `work`, or dropped. A bad name throws a `TypeError`. */
  async function withFiles<T>(
    content: JobFiles | undefined,
    work: (staged: Staged | undefined) => Tx<T>,
    lock?: string,
  ): Promise<T> {
    for (const name of Object.keys(content ?? {}))
      if (!FILE_NAME.test(name)) throw new TypeError(`A job file cannot be named ${JSON.stringify(name)}.`);
    const staged = content && Object.keys(content).length > 0 ? await files.stage(content) : undefined;
    try {
      return await db.transaction(work(staged), lock);
    } finally {
      if (staged !== undefined) await files.discard(staged);
    }
  }

  function* insert(job: NewJob, staged: Staged | undefined): Tx<JobRow> {
    const existing = (yield* query('SELECT * FROM jobs WHERE id = $1', [job.id])).rows[0];
    if (existing) return existing;
    const at = now();
    // Jobs of the account waiting or running (the runner's limit), and those of the kind it holds.
    const counts = yield* query<{ unfinished: number | string | null; held: number | string | null }>(
      `SELECT SUM(CASE WHEN status IN ('queued', 'running') THEN 1 ELSE 0 END) AS unfinished,
         SUM(CASE WHEN kind = $2 THEN 1 ELSE 0 END) AS held
       FROM jobs WHERE account_id = $1 AND (expires_at IS NULL OR expires_at > $3)`,
      [job.accountId, job.kind, at],
    );
    const { unfinished, held } = counts.rows[0]!;
    if (Number(unfinished) >= job.maxQueued) throw new JobLimitExceeded(job.maxQueued);
    if (job.maxPerAccount !== undefined && Number(held) >= job.maxPerAccount)
      throw new JobLimitExceeded(job.maxPerAccount, job.kind);
    const { rows } = yield* query(
      `INSERT INTO jobs (id, kind, account_id, status, input, run_after, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $7) RETURNING *`,
      [
        job.id,
        job.kind,
        job.accountId,
        job.input,
        job.releaseBy ? DEFERRED_UNTIL : at,
        job.releaseBy ?? null,
        at,
      ],
    );
    if (staged !== undefined) {
      jobCrashPoints.filesStored?.(job.id);
      yield* files.place(job.id, staged, true);
    }
    if (!job.releaseBy) yield { wake: { jobId: job.id } };
    return rows[0]!;
  }

  /**
   * The fairest queued job of `kinds` whose time has come, claimed: of the accounts with fewer than `limit`
   * jobs running, the one whose last claim is the oldest (never claimed first), its first submitted job.
   */
  function* claim(kinds: readonly string[], limit: number): Tx<JobRow | undefined> {
    const { rows } = yield* query(
      `UPDATE jobs SET status = 'running', owner = $1, attempt = attempt + 1, claimed_at = $2, updated_at = $2
       WHERE id = (
         SELECT j.id FROM jobs j
         WHERE j.status = 'queued' AND j.run_after <= $2 AND j.kind IN (${list(kinds, 4)})
           AND (SELECT COUNT(*) FROM jobs r WHERE r.account_id = j.account_id AND r.status = 'running') < $3
         ORDER BY (SELECT MAX(s.claimed_at) FROM jobs s WHERE s.account_id = j.account_id) ASC NULLS FIRST,
           j.${db.submitOrder}
         LIMIT 1)
       RETURNING *`,
      [db.owner, now(), limit, ...kinds],
    );
    return rows[0];
  }

  function* change(fence: JobFence, next: JobChange, usage: readonly UsageCharge[]): Tx<void> {
    yield* fenced(fence);
    const at = now();
    yield* query(
      `UPDATE jobs SET status = $1, checkpoint = $2, result = $3, error = $4, failures = $5, owner = $6,
         run_after = COALESCE($7, run_after), expires_at = $8, updated_at = $9 WHERE id = $10`,
      [
        next.status,
        next.checkpoint,
        next.result,
        next.error,
        next.failures,
        next.status === 'running' ? db.owner : null,
        next.runAfter ?? null,
        next.expiresAt ?? null,
        at,
        fence.id,
      ],
    );
    if (next.runAfter) yield { wake: { jobId: fence.id, startAfter: next.runAfter } };
    if (next.keepFiles) yield* files.prune(fence.id, next.keepFiles);
    yield* applyUsage(fence.id, usage, at);
  }

  function* cancel(
    id: string,
    expiresAt: string,
    usage: (row: JobRow) => readonly UsageCharge[],
    keepFiles: readonly string[] | undefined,
  ): Tx<JobRow | undefined> {
    const row = yield* locked(id);
    if (row?.status !== 'queued' && row?.status !== 'running') return row;
    const at = now();
    const { rows } = yield* query(
      `UPDATE jobs SET status = 'cancelled', owner = NULL, expires_at = $1, updated_at = $2 WHERE id = $3 RETURNING *`,
      [expiresAt, at, id],
    );
    if (keepFiles) yield* files.prune(id, keepFiles);
    yield* applyUsage(id, usage(row), at);
    return rows[0];
  }

  function* release(id: string, staged: Staged | undefined): Tx<boolean> {
    const { count } = yield* query(
      `UPDATE jobs SET run_after = $1, expires_at = NULL, updated_at = $1
       WHERE id = $2 AND status = 'queued' AND run_after = $3 AND expires_at > $1`,
      [now(), id, DEFERRED_UNTIL],
    );
    if (count === 0) return false;
    if (staged !== undefined) yield* files.place(id, staged, false);
    yield { wake: { jobId: id } };
    return true;
  }

  /** Queues again the jobs `owner` was running, when its instance is gone (they resume from their checkpoint). */
  function* takeOver(owner: string): Tx<void> {
    const lease = db.leaseOf?.(owner);
    if (lease && !((yield lease) as Answer<{ free: boolean }>).rows[0]!.free) return;
    const { count } = yield* query(
      `UPDATE jobs SET status = 'queued', owner = NULL, updated_at = $1 WHERE status = 'running' AND owner = $2`,
      [now(), owner],
    );
    for (let n = 0; n < count; n++) yield { wake: {} };
  }

  function* deleteJobs(where: string, args: readonly unknown[]): Tx<number> {
    const { rows } = yield* query<{ id: string }>(`DELETE FROM jobs WHERE ${where} RETURNING id`, args);
    for (const { id } of rows) yield* files.remove(id);
    return rows.length;
  }

  return {
    owner: db.owner,
    /** Inserts the job with its files, queued; when a job has its id already, that job (nothing inserted). */
    insert: (job: NewJob) => withFiles(job.files, (staged) => insert(job, staged), job.accountId),
    get,
    /** Claims a job (`claim` above): it comes back running, owned by this instance, its `attempt` incremented. */
    async claim(kinds: readonly string[], maxRunningPerAccount: number): Promise<JobRow | undefined> {
      if (kinds.length === 0) return undefined;
      await db.hold();
      return db.transaction(claim(kinds, maxRunningPerAccount), 'jobs/claim');
    },
    /** Applies `next` and `usage` in one transaction, or throws `JobSuperseded` and applies nothing. */
    change: (fence: JobFence, next: JobChange, usage: readonly UsageCharge[]): Promise<void> =>
      db.transaction(change(fence, next, usage)),
    /**
     * Cancels a queued or running job, applying `usage(row)` and deleting its files but `keepFiles` in the
     * same transaction; the row after it (unchanged when it had finished), undefined when there is none.
     */
    cancel: (
      id: string,
      expiresAt: string,
      usage: (row: JobRow) => readonly UsageCharge[],
      keepFiles?: readonly string[],
    ): Promise<JobRow | undefined> => db.transaction(cancel(id, expiresAt, usage, keepFiles)),
    /** The jobs' files, to read, take and list (stored through `insert`, `writeFile`, `putFile`, `release`). */
    files,
    /** Stores a file of the attempt `fence`, or throws `JobSuperseded` and stores nothing. */
    writeFile: (fence: JobFence, name: string, data: Uint8Array): Promise<void> =>
      withFiles({ [name]: data }, function* (staged) {
        yield* fenced(fence);
        yield* files.place(fence.id, staged!, false);
      }),
    putFile: (id: string, name: string, data: Uint8Array): Promise<boolean> =>
      withFiles({ [name]: data }, function* (staged) {
        if (!(yield* locked(id))) return false;
        yield* files.place(id, staged!, false);
        return true;
      }),
    release: (id: string, content: JobFiles) => withFiles(content, (staged) => release(id, staged)),
    /** Deletes a finished job with its files; false when there is none. */
    remove: async (id: string) =>
      (await db.transaction(deleteJobs(`id = $1 AND status IN ('completed', 'failed', 'cancelled')`, [id]))) >
      0,
    async count(kinds: readonly string[], states: readonly JobState[]): Promise<number> {
      const sql = `SELECT COUNT(*) AS n FROM jobs WHERE kind IN (${list(kinds, 2)})
        AND status IN (${list(states, 2 + kinds.length)}) AND run_after <> $1`;
      if (kinds.length === 0 || states.length === 0) return 0;
      return Number(
        (await db.query<{ n: number | string }>(sql, [DEFERRED_UNTIL, ...kinds, ...states])).rows[0]!.n,
      );
    },
    /**
     * The periodic check: jobs of owners that are gone queued again; finished jobs expired before
     * `deleteBefore` deleted with their files. Returns when the oldest job still stored was created (its
     * usage operation ids must stay).
     */
    async sweep(deleteBefore: string): Promise<string | undefined> {
      await db.hold();
      const running = `SELECT DISTINCT owner FROM jobs WHERE status = 'running' AND owner <> $1`;
      for (const { owner } of (await db.query<{ owner: string }>(running, [db.owner])).rows)
        await db.transaction(takeOver(owner));
      await db.transaction(deleteJobs('expires_at < $1', [deleteBefore]));
      await db.sweep?.();
      return (
        (await db.query<{ at: string | null }>('SELECT MIN(created_at) AS at FROM jobs', [])).rows[0]?.at ??
        undefined
      );
    },
    pollMs: db.pollMs,
    listen: async (wake: () => void) => db.listen?.(wake),
    close: () => db.close(),
  };
}

/**
 * The crash tests' hook (test/jobs-crash.test.ts, which kills the process there): called once a submit's
 * files are stored and before its row commits. Unset in a server.
 */
export const jobCrashPoints: { filesStored?: (jobId: string) => void } = {};

/** The usage operation id of a charge: the prefix `jobs/` is pruned by the runner's sweep. */
export const usageOperationId = (jobId: string, step: string): string => `jobs/${jobId}/${step}`;
