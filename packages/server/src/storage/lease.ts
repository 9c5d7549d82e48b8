/**
 * An instance's lease on the jobs it runs, for the job runner on PostgreSQL (`jobs/postgres-jobs.ts`): a
 * session-level advisory lock, keyed by an owner id (`host/pid/random`)
 * written on the rows the instance runs, held on a connection of its own. PostgreSQL releases the lock when
 * that connection ends, so an instance that can take another owner's lock (`pg_try_advisory_xact_lock(lockKey,
 * hashtext(owner))`, in the transaction that queues its jobs again) knows that owner is gone.
 *
 * A lost connection (a database restart) is taken again, with the same owner, at the next `hold`.
 * Meanwhile another instance may queue this one's jobs again: the features fence a running job by its
 * attempt, so that costs wasted work, never a second result or charge.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';

export interface Lease {
  /** This instance's owner id. */
  readonly owner: string;
  /** Holds the lock, connecting again when its connection was lost. */
  hold(): Promise<void>;
  /** Ends the lease's connection (the lock goes with it). */
  release(): Promise<void>;
}

export function createLease(
  url: string,
  options: {
    /** First key of the feature's advisory locks (the second is a hash of the owner id). */
    readonly lockKey: number;
    readonly applicationName: string;
    readonly onLost?: ((error: unknown) => void) | undefined;
  },
): Lease {
  const owner = `${hostname()}/${process.pid}/${randomUUID()}`;
  let lease: pg.Client | undefined;
  let leasing: Promise<void> | undefined;
  const connect = async () => {
    const client = new pg.Client({ connectionString: url, application_name: options.applicationName });
    client.on('error', (error) => {
      options.onLost?.(error);
      if (lease === client) lease = undefined;
      client.end().catch(() => {});
    });
    client.on('end', () => {
      if (lease === client) lease = undefined;
    });
    try {
      await client.connect();
      await client.query('SELECT pg_advisory_lock($1::int, hashtext($2))', [options.lockKey, owner]);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    lease = client;
  };
  return {
    owner,
    async hold() {
      if (lease) return;
      leasing ??= connect().finally(() => {
        leasing = undefined;
      });
      await leasing;
    },
    async release() {
      await lease?.end().catch(() => {});
      lease = undefined;
    },
  };
}

/**
 * Runs `task` every `ms` ms on an unref'd timer, never two runs at once (a slow run makes the next tick
 * skip); a failure goes to `onError`. Returns the function that stops it. For lease checks and sweeps.
 */
export function repeatEvery(
  ms: number,
  task: () => Promise<unknown>,
  onError: (error: unknown) => void,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    task()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, ms);
  timer.unref();
  return () => clearInterval(timer);
}
