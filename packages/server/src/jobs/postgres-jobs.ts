/**
 * The job backend of a fleet (`job-backend.ts` writes the operations): the `jobs` table in PostgreSQL, next
 * to `usage` and `usage_operations`; pg-boss waking the instances' workers; a lease per instance.
 *
 * A pg-boss job is a wake-up, not the job: sent in the transaction that makes a job claimable (a retry's
 * starts when the retry is due), it wakes the idle workers of the instance that receives it, which claim
 * the fairest queued row (the claims of the fleet wait for each other on an advisory lock, so the
 * per-account limit holds) until none is left. An idle worker also looks every `pollMs`, so a wake-up lost
 * with the instance that took it delays a job, never strands it.
 *
 * The lease is a session-level advisory lock keyed by the instance's owner id (`host/pid/random`, written on
 * the rows it runs), held on a connection of its own. PostgreSQL releases it when that connection ends, so
 * an instance that can take another owner's lock (in the transaction that queues its jobs again) knows that
 * owner is gone: the sweep queues its running rows again (they resume from their checkpoint). A lost
 * connection (a database restart) is taken again, with the same owner, at the next `hold`; meanwhile another
 * instance may queue this one's jobs again, which costs wasted work, never a second result or charge (every
 * change is fenced by its attempt).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { buffer } from 'node:stream/consumers';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { type Queryable, transaction } from '../storage/postgres-resources.js';
import {
  type Answer,
  createJobBackend,
  type JobBackend,
  type JobFileStore,
  type Step,
  type Tx,
} from './job-backend.js';

/** The pg-boss queue of wake-ups. */
export const JOB_QUEUE = 'glossa-jobs';
/** First key of the instances' leases (the second is a hash of the owner id). */
const LEASE_LOCK = 7_117_040;

export interface PostgresJobBackendOptions {
  /** How often an idle worker looks for a job, and asks pg-boss for a wake-up, in seconds (default 2). */
  readonly pollingIntervalSeconds?: number;
  readonly onError?: ((error: unknown) => void) | undefined;
}

const answer = <T>(result: pg.QueryResult): Answer<T> => ({ rows: result.rows, count: result.rowCount ?? 0 });

/** A file read back as a stream: its bytes in slices (a reader may pause between them). */
async function* slices(data: Uint8Array, size = 64 * 1024): AsyncIterable<Uint8Array> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

/** Files as rows of `job_files` (bytea): staged is their bytes, collected before the transaction. */
function rowFiles(pool: pg.Pool): JobFileStore<[string, Buffer][]> {
  const read = async (id: string, name: string): Promise<Uint8Array | undefined> =>
    (await pool.query('SELECT data FROM job_files WHERE job_id = $1 AND name = $2', [id, name])).rows[0]
      ?.data;
  return {
    stage: async (files) =>
      Promise.all(
        Object.entries(files).map(
          async ([name, content]): Promise<[string, Buffer]> => [
            name,
            content instanceof Uint8Array ? Buffer.from(content) : await buffer(content),
          ],
        ),
      ),
    place: (id, staged) =>
      staged.map(([name, data]) => ({
        sql: `INSERT INTO job_files (job_id, name, data) VALUES ($1, $2, $3)
              ON CONFLICT (job_id, name) DO UPDATE SET data = excluded.data`,
        args: [id, name, data],
      })),
    discard: async () => {},
    // ON DELETE CASCADE.
    remove: () => [],
    prune: (id, keep) => [
      { sql: 'DELETE FROM job_files WHERE job_id = $1 AND NOT (name = ANY($2::text[]))', args: [id, keep] },
    ],
    read,
    async stream(id, name) {
      const data = await read(id, name);
      return data && slices(data);
    },
    take: async (id, name) =>
      (await pool.query('DELETE FROM job_files WHERE job_id = $1 AND name = $2 RETURNING data', [id, name]))
        .rows[0]?.data,
    list: async (id) =>
      (await pool.query('SELECT name FROM job_files WHERE job_id = $1 ORDER BY name', [id])).rows.map(
        (row: { name: string }) => row.name,
      ),
  };
}

/** This instance's lease (see above): `hold` takes it, connecting again when its connection was lost. */
function createLease(url: string, onLost: ((error: unknown) => void) | undefined) {
  const owner = `${hostname()}/${process.pid}/${randomUUID()}`;
  let lease: pg.Client | undefined;
  let leasing: Promise<void> | undefined;
  const connect = async () => {
    const client = new pg.Client({ connectionString: url, application_name: 'glossa-jobs-lease' });
    const lost = () => {
      if (lease === client) lease = undefined;
    };
    client.on('error', (error) => {
      onLost?.(error);
      lost();
      client.end().catch(() => {});
    });
    client.on('end', lost);
    try {
      await client.connect();
      await client.query('SELECT pg_advisory_lock($1::int, hashtext($2))', [LEASE_LOCK, owner]);
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

export function createPostgresJobBackend(
  url: string,
  pool: pg.Pool,
  options: PostgresJobBackendOptions = {},
): JobBackend {
  const lease = createLease(url, options.onError);
  let boss: Promise<PgBoss> | undefined;
  let closed = false;
  /**
   * pg-boss, started at the first wake-up to send (an instance without workers sends them too), with its
   * queue: a wake-up is delivered up to 20 times, 2 s apart with backoff; one active for an hour is handed
   * to another worker. `createQueue` inserts the queue's row and then adds its partition's foreign keys to
   * that table, so instances creating it at once on a fresh database can deadlock; PostgreSQL then fails one
   * of them (40P01): retried (measured: 1 fleet start of 4 failed so).
   */
  const startBoss = () => {
    boss ??= (async () => {
      const started = new PgBoss({
        connectionString: url,
        max: 2,
        application_name: 'glossa-jobs',
        schedule: false,
        maintenanceIntervalSeconds: 30,
      });
      started.on('error', (error) => options.onError?.(error));
      await started.start();
      for (let attempt = 1; ; attempt++) {
        try {
          if (!(await started.getQueue(JOB_QUEUE)))
            await started.createQueue(JOB_QUEUE, {
              name: JOB_QUEUE,
              policy: 'standard',
              retryLimit: 20,
              retryDelay: 2,
              retryBackoff: true,
              expireInSeconds: 3600,
            });
          return started;
        } catch (error) {
          if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
        }
      }
    })();
    return boss;
  };
  /** A wake-up, sent in `db`'s transaction; `jobId` names the job it was sent for (for reading pg-boss). */
  const wakeUp = async (db: Queryable, data: { jobId?: string; startAfter?: string } = {}) => {
    const started = await startBoss();
    await started.send(JOB_QUEUE, data.jobId ? { jobId: data.jobId } : {}, {
      db: { executeSql: (text, values) => db.query(text, values) },
      ...(data.startAfter ? { startAfter: new Date(data.startAfter) } : {}),
    });
  };

  return createJobBackend({
    owner: lease.owner,
    submitOrder: 'seq',
    query: async <T>(sql: string, args: readonly unknown[]) => answer<T>(await pool.query(sql, [...args])),
    async transaction<T>(work: Tx<T>, lock?: string) {
      const after: (() => Promise<void>)[] = [];
      const result = await transaction(pool, async (client) => {
        if (lock) await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 41))', [lock]);
        for (let step = work.next(); ; ) {
          if (step.done) return step.value;
          const next: Step = step.value;
          if ('afterCommit' in next) after.push(next.afterCommit);
          else if ('wake' in next) await wakeUp(client, next.wake);
          step = work.next('sql' in next ? answer(await client.query(next.sql, [...next.args])) : undefined);
        }
      });
      for (const task of after) await task();
      return result;
    },
    files: rowFiles(pool),
    hold: () => lease.hold(),
    leaseOf: (owner) => ({
      sql: 'SELECT pg_try_advisory_xact_lock($1::int, hashtext($2)) AS free',
      args: [LEASE_LOCK, owner],
    }),
    pollMs: (options.pollingIntervalSeconds ?? 2) * 1000,
    async listen(wake) {
      const started = await startBoss();
      await lease.hold();
      // The wake-ups of many submits at once, taken together: one is enough to wake every idle worker.
      await started.work(
        JOB_QUEUE,
        { batchSize: 100, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
        async () => wake(),
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      const started = await boss?.catch(() => undefined);
      await started?.stop({ graceful: true, wait: true, timeout: 5000 }).catch(() => {});
      await lease.release();
    },
  });
}
