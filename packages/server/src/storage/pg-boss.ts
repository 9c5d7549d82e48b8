/**
 * What the job runner's pg-boss queues (`jobs/postgres-jobs.ts`, every job kind's wake-ups on a fleet) need
 * beyond pg-boss itself:
 * - `createBossQueue`: pg-boss's `create_queue` inserts the queue's row and then adds its partition's
 *   foreign keys to that table, so instances creating queues at the same time on a fresh database can
 *   deadlock; PostgreSQL then fails one of them (40P01). Retried (measured: 1 fleet start of 4 failed so).
 * - `startBossWorkers`: pg-boss's worker waits out its polling interval after every fetch, even one that
 *   brought a job (at 2 s, half a job a second however short the jobs); a worker that ran a job is
 *   notified, so it asks for the next at once, and only an empty fetch waits.
 */
import type PgBoss from 'pg-boss';

export interface BossQueueOptions {
  /** Delivery attempts of a job (default 20), 2 s apart with backoff. */
  readonly retryLimit?: number;
  /**
   * Past this, pg-boss hands an active job to another worker (default 3600 s). The feature's own lease, not
   * this, takes over a dead instance's jobs: it must exceed the longest legitimate job.
   */
  readonly expireInSeconds?: number;
}

/** Creates the queue unless it exists, retrying a deadlock with another instance doing the same. */
export async function createBossQueue(
  boss: PgBoss,
  name: string,
  options: BossQueueOptions = {},
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (await boss.getQueue(name)) return;
      await boss.createQueue(name, {
        name,
        policy: 'standard',
        retryLimit: options.retryLimit ?? 20,
        retryDelay: 2,
        retryBackoff: true,
        expireInSeconds: options.expireInSeconds ?? 3600,
      });
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

export interface BossWorkers {
  /** Wakes every idle worker (a job was just queued). */
  notify(): void;
  /** Stops fetching; jobs running go on (the caller waits for them). */
  stop(): Promise<void>;
}

/**
 * Starts `concurrency` workers on the queue, each running one job at a time with `run`; a worker that ran
 * a job fetches the next at once.
 */
export async function startBossWorkers<T extends object>(
  boss: PgBoss,
  name: string,
  options: { readonly concurrency: number; readonly pollingIntervalSeconds?: number | undefined },
  run: (data: T) => Promise<void>,
): Promise<BossWorkers> {
  const ids: string[] = [];
  let stopped = false;
  for (let index = 0; index < options.concurrency; index++) {
    let id: string | undefined;
    id = await boss.work<T>(
      name,
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        if (!job) return;
        try {
          await run(job.data);
        } finally {
          if (id !== undefined && !stopped) boss.notifyWorker(id);
        }
      },
    );
    ids.push(id);
  }
  return {
    notify() {
      for (const id of ids) boss.notifyWorker(id);
    },
    async stop() {
      stopped = true;
      for (const id of ids) await boss.offWork({ id }).catch(() => {});
    },
  };
}
