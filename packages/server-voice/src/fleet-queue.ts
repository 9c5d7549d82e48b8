/**
 * The voice job queue of a fleet: pg-boss (10, on the server's PostgreSQL, queue `glossa-voice-jobs`)
 * delivers each job of either interface to one worker of one instance; each instance runs one voice job at
 * a time, as the embedded server does. Rows and bytes live in PostgreSQL (fleet-store.ts).
 *
 * The same lease design as the documents' queue (the spine's `createLease`): each instance holds a
 * session-level advisory lock on its own connection, keyed by an owner id (`host/pid/random`) written on
 * the rows it processes. PostgreSQL releases the lock when that connection ends (the process died), so
 * every few seconds each instance looks for owners of processing rows whose lock it can take: those are
 * dead, and their jobs are queued again (with a new pg-boss job, in the same transaction) for any
 * instance. Each claim increments the row's attempt and finishing or failing is conditional on it, and usage
 * is owed only by the attempt whose finish wrote the row: a job finishes once and is billed once. Usage an
 * instance died before applying is applied by the others' lease checks (and any instance's start), once
 * (usage.ts). A closing instance (SIGTERM) stops its recognizer and queues its job again at once.
 */
import type { RunningFeature, ServiceContext } from '@glossa/server/feature';
import {
  type BossWorkers,
  createBossQueue,
  createLease,
  repeatEvery,
  ServiceError,
  startBossWorkers,
} from '@glossa/server/feature';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import PgBoss from 'pg-boss';
import {
  type Claimed,
  createFleetVoiceStore,
  type FleetVoiceStore,
  migrateVoice,
  type QueuedJob,
  setFleetVoice,
} from './fleet-store.js';
import { sweepFleetLeftovers } from './leftovers.js';
import type { Recognizer } from './recognizer.js';
import { type JobRow, jobDir, type TranslateRow } from './rows.js';
import { pruneOperations, settleUsage } from './usage.js';

/** The pg-boss queue of voice jobs (both interfaces). */
export const VOICE_JOB_QUEUE = 'glossa-voice-jobs';
/** First key of the owners' advisory locks (the documents' queue uses 7_117_020). */
const LEASE_LOCK = 7_117_021;

/**
 * How long a row may wait while its pg-boss job is not waiting (active without a claim, or ended) before it
 * gets a new one: a claim follows a fetch within milliseconds.
 */
const STRANDED_SECONDS = 15;
/** How often an instance forgets the usage operation ids nothing can apply again (usage.ts), at most. */
const PRUNE_INTERVAL_MS = 60_000;

/** What a running job may ask of the queue. */
export interface JobControl {
  /** True once the instance closes: the job is queued again, not failed. */
  readonly closing: boolean;
  /** The job's recognizer, stopped when the instance closes. */
  track(recognizer: Recognizer): void;
}

export interface FleetJobHandlers {
  voice(job: Claimed<JobRow>, store: FleetVoiceStore, control: JobControl): Promise<void>;
  translate(job: Claimed<TranslateRow>, store: FleetVoiceStore, control: JobControl): Promise<void>;
}

export interface FleetQueueOptions {
  /** How often dead instances' jobs are looked for, in ms (default 5 s). */
  readonly leaseCheckMs?: number;
  /** How often an idle worker asks pg-boss for a job, in seconds (default 2). */
  readonly pollingIntervalSeconds?: number;
}

/**
 * Starts the fleet backend of voice jobs for a server with `databaseUrl`: migrations, pg-boss, the lease and
 * the worker. The routes find it through `fleetVoice(context)` at once; they wait for its start.
 */
export function startFleetVoiceJobs(
  url: string,
  context: ServiceContext,
  log: FastifyBaseLogger,
  handlers: FleetJobHandlers,
  options: FleetQueueOptions = {},
): RunningFeature {
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'glossa-voice' });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => {});
  const running = new Map<string, { job: QueuedJob; attempt: number; recognizer?: Recognizer }>();
  const jobs = new Set<Promise<void>>();
  let closed = false;
  let boss: PgBoss | undefined;
  let workers: BossWorkers | undefined;
  let stopLeaseChecks: (() => void) | undefined;
  const lease = createLease(url, {
    lockKey: LEASE_LOCK,
    applicationName: 'glossa-voice-lease',
    onLost: (error) => log.warn({ err: error }, 'voice job lease connection lost'),
  });
  const owner = lease.owner;

  const starting = (async () => {
    await migrateVoice(pool);
    boss = new PgBoss({
      connectionString: url,
      max: 2,
      application_name: 'glossa-voice',
      schedule: false,
      maintenanceIntervalSeconds: 30,
    });
    boss.on('error', (error) => log.warn({ err: error }, 'voice job queue (pg-boss) error'));
    await boss.start();
    // The spine's: retries the deadlock of instances creating queues together on a fresh database. Its
    // default expiry (3600 s) is long: the lease, not the expiry, takes over a dead instance's jobs.
    await createBossQueue(boss, VOICE_JOB_QUEUE);
    const started = boss;
    const store = createFleetVoiceStore(pool, (db, job) => started.send(VOICE_JOB_QUEUE, job, { db }));
    await lease.hold();
    return store;
  })();
  starting.catch((error) => log.error({ err: error }, 'voice job storage could not start'));

  async function run(store: FleetVoiceStore, job: QueuedJob): Promise<void> {
    if (closed) {
      // Fetched as this instance closes: a new job for another instance (a duplicate is harmless).
      await boss?.send(VOICE_JOB_QUEUE, job);
      return;
    }
    await lease.hold();
    const entry: { job: QueuedJob; attempt: number; recognizer?: Recognizer } = { job, attempt: 0 };
    running.set(job.id, entry);
    try {
      const claimed = await store.claim(job, owner);
      // Not waiting: done, failed, or run by a live instance (a duplicate job).
      if (!claimed) return;
      entry.attempt = claimed.attempt;
      const control: JobControl = {
        get closing() {
          return closed;
        },
        track(recognizer) {
          entry.recognizer = recognizer;
          if (closed) recognizer.abort();
        },
      };
      try {
        if (job.kind === 'voice') await handlers.voice(claimed as Claimed<JobRow>, store, control);
        else await handlers.translate(claimed as Claimed<TranslateRow>, store, control);
      } finally {
        // A closing instance hands its job over at once (a no-op when the job finished).
        if (closed) await store.requeue(job, claimed.attempt);
      }
    } finally {
      running.delete(job.id);
    }
  }

  /** Applies the usage of finished jobs that an instance died before applying (usage.ts); each once. */
  async function settleOwed(store: FleetVoiceStore): Promise<void> {
    for (const owed of await store.owedUsage()) await settleUsage(context, owed, store.usageSettled);
  }

  /**
   * The voice jobs' usage operation ids that nothing can apply again forgotten (usage.ts
   * `pruneOperations`), after the owed usage was applied: at start, then at most once a minute.
   */
  let pruned = 0;
  async function pruneOwed(store: FleetVoiceStore): Promise<void> {
    if (Date.now() - pruned < PRUNE_INTERVAL_MS) return;
    pruned = Date.now();
    await pruneOperations(context, 'voice/', await store.oldestOwed());
  }

  /** Dead instances' jobs back in the queue, this one's orphans too, usage left owed applied. */
  async function checkLeases(store: FleetVoiceStore): Promise<void> {
    await lease.hold();
    for (const other of await store.owners(owner)) {
      const taken = await store.takeOver(other, (client) => lease.isFree(client, other));
      if (taken > 0) log.warn({ jobs: taken, owner: other }, 'voice jobs of a stopped instance queued again');
    }
    await store.orphans(owner, [...running.keys()]);
    // A row waiting while its pg-boss job is neither waiting nor retried (an instance stopped as it
    // fetched the job, and pg-boss lost its completion or failure): a new job. A duplicate is harmless.
    for (const waiting of await store.waitingSince(STRANDED_SECONDS)) {
      const job = waiting.bossJob === null ? null : await boss?.getJobById(VOICE_JOB_QUEUE, waiting.bossJob);
      if (job && (job.state === 'created' || job.state === 'retry')) continue;
      if (await store.resend(waiting))
        log.warn(
          { job: waiting.id, state: job?.state ?? 'none' },
          'voice job sent again: its pg-boss job was lost',
        );
    }
    await settleOwed(store);
    await pruneOwed(store);
    await sweepLeftovers();
  }

  /** The audio files of attempts that no longer hold their job, left by a killed process (leftovers.ts). */
  async function sweepLeftovers(): Promise<void> {
    const removed = await sweepFleetLeftovers(pool, jobDir(context));
    if (removed.length > 0)
      log.warn({ files: removed.length }, 'voice job files of stopped attempts removed');
  }

  const ready = starting.then(async (store) => {
    if (closed || !boss) return store;
    // One worker: one voice job at a time per instance. The spine's workers ask for the next job at once
    // after one ran (pg-boss alone waits out its polling interval after every fetch).
    workers = await startBossWorkers<QueuedJob>(
      boss,
      VOICE_JOB_QUEUE,
      { concurrency: 1, pollingIntervalSeconds: options.pollingIntervalSeconds },
      async (job) => {
        // A failure here (the database) goes back to pg-boss, which retries the job; a row left processing
        // by it is queued again by the orphan check.
        const work = run(store, job);
        const settled = work.catch(() => {});
        jobs.add(settled);
        try {
          await work;
        } catch (error) {
          if (!closed) log.error({ err: error, job: job.id }, 'voice job failed');
          throw error;
        } finally {
          jobs.delete(settled);
        }
      },
    );
    await settleOwed(store)
      .then(() => pruneOwed(store))
      .catch((error) => log.warn({ err: error }, 'owed voice job usage failed'));
    await sweepLeftovers().catch((error) => log.warn({ err: error }, 'sweep of voice job files failed'));
    // Started after the awaits above: a close that came meanwhile makes each run a no-op.
    stopLeaseChecks = repeatEvery(
      options.leaseCheckMs ?? 5000,
      async () => {
        if (!closed) await checkLeases(store);
      },
      (error) => log.warn({ err: error }, 'voice job lease check failed'),
    );
    return store;
  });
  ready.catch(() => {});

  context.metrics.gauge(
    'glossa_voice_job_queue_depth',
    'Voice jobs waiting (both interfaces), on every instance that shares the storage.',
    async () => (await (await ready).counts()).waiting,
  );

  setFleetVoice(context, {
    async store() {
      try {
        return await ready;
      } catch {
        throw new ServiceError(
          503,
          'Voice jobs and spoken terms are not available: their database does not answer.',
        );
      }
    },
    notify() {
      workers?.notify();
    },
  });

  return {
    async close() {
      // Still registered: a late request fails (503 or 500), it never falls back to this instance's SQLite.
      closed = true;
      stopLeaseChecks?.();
      await ready.catch(() => undefined);
      await workers?.stop();
      // The running job stops its recognizer and queues its row again (run's finally).
      for (const entry of running.values()) entry.recognizer?.abort();
      // (A job fetched as the worker stopped may start after this line began: wait for it too.)
      while (jobs.size > 0) await Promise.allSettled([...jobs]);
      await boss?.stop({ graceful: true, wait: true, timeout: 5000 }).catch(() => {});
      await lease.release();
      await pool.end().catch(() => {});
    },
  };
}
