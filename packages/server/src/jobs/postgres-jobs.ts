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
import pg from 'pg';
import PgBoss from 'pg-boss';
import { type Queryable, transaction } from '../storage/postgres-resources.js';
import {
  type Answer,
  createJobBackend,
  type JobBackend,
  type JobFileContent,
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
  /** How old chunks of no file must be before the sweep removes them, in ms (default 10 minutes). */
  readonly orphanFilesMs?: number;
}

const answer = <T>(result: pg.QueryResult): Answer<T> => ({ rows: result.rows, count: result.rowCount ?? 0 });

/** The most bytes of a job file one row of `job_file_chunks` holds, and one query sends or returns. */
export const JOB_FILE_CHUNK_BYTES = 1024 * 1024;

/** A file staged: its chunks' id, and how many there are. */
interface StagedFile {
  readonly name: string;
  readonly fileId: string;
  readonly chunks: number;
}

/** `content` in chunks of `JOB_FILE_CHUNK_BYTES` (an upload's pieces gathered into chunks, a chunk at a time). */
async function* chunksOf(content: JobFileContent): AsyncIterable<Uint8Array> {
  if (content instanceof Uint8Array) {
    for (let at = 0; at < content.length; at += JOB_FILE_CHUNK_BYTES)
      yield content.subarray(at, at + JOB_FILE_CHUNK_BYTES);
    return;
  }
  let chunk = Buffer.allocUnsafe(JOB_FILE_CHUNK_BYTES);
  let filled = 0;
  for await (const piece of content) {
    for (let at = 0; at < piece.length; ) {
      const taken = Math.min(piece.length - at, JOB_FILE_CHUNK_BYTES - filled);
      chunk.set(piece.subarray(at, at + taken), filled);
      filled += taken;
      at += taken;
      if (filled === JOB_FILE_CHUNK_BYTES) {
        yield chunk;
        chunk = Buffer.allocUnsafe(JOB_FILE_CHUNK_BYTES);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield chunk.subarray(0, filled);
}

/**
 * Files as rows of `job_file_chunks` (bytea, at most 1 MiB each) named by rows of `job_files`: `stage` writes
 * (and commits) a file's chunks as its content arrives, before the transaction; `place` only inserts the row
 * naming them. Reading goes a chunk per query, so neither side holds a whole file: a 100 MiB bytea read or
 * written at once cost the event loop 0.2–0.6 s stalls (its hex text decoded, its buffers gathered).
 * Chunks of no file (a submit that never committed: a crash, a refused job) go in `discard`, or in the
 * sweep once older than `orphanMs`; those of a file deleted or replaced go with its row (triggers).
 */
function rowFiles(
  pool: pg.Pool,
  orphanMs: number,
): JobFileStore<StagedFile[]> & { removeOrphans(): Promise<void> } {
  const unplaced = `DELETE FROM job_file_chunks c WHERE c.file_id = ANY($1::text[])
    AND NOT EXISTS (SELECT 1 FROM job_files f WHERE f.file_id = c.file_id)`;
  const stageOne = async (name: string, content: JobFileContent, ids: string[]): Promise<StagedFile> => {
    const fileId = randomUUID();
    ids.push(fileId);
    let chunks = 0;
    for await (const chunk of chunksOf(content))
      await pool.query('INSERT INTO job_file_chunks (file_id, seq, data) VALUES ($1, $2, $3)', [
        fileId,
        chunks++,
        chunk,
      ]);
    return { name, fileId, chunks };
  };
  /** The chunks of a file in order; throws when one is gone (the file was replaced or removed meanwhile). */
  async function* chunksFrom(db: Queryable, fileId: string, chunks: number, what: string) {
    for (let seq = 0; seq < chunks; seq++) {
      const { rows } = await db.query('SELECT data FROM job_file_chunks WHERE file_id = $1 AND seq = $2', [
        fileId,
        seq,
      ]);
      if (!rows[0]) throw new Error(`The job file ${what} was replaced or removed while it was read.`);
      yield rows[0].data as Buffer;
    }
  }
  const gather = async (parts: AsyncIterable<Uint8Array>) => {
    const all: Uint8Array[] = [];
    for await (const part of parts) all.push(part);
    return Buffer.concat(all);
  };
  const named = 'SELECT file_id, chunks FROM job_files WHERE job_id = $1 AND name = $2';
  const stream = async (id: string, name: string) => {
    const row = (await pool.query(named, [id, name])).rows[0];
    return row && chunksFrom(pool, row.file_id, row.chunks, `${name} of job ${id}`);
  };
  return {
    async stage(files) {
      const ids: string[] = [];
      const staged = await Promise.allSettled(
        Object.entries(files).map(([name, content]) => stageOne(name, content, ids)),
      );
      const failed = staged.find((result) => result.status === 'rejected');
      if (failed) {
        await pool.query(unplaced, [ids]).catch(() => {});
        throw failed.reason;
      }
      return staged.map((result) => (result as PromiseFulfilledResult<StagedFile>).value);
    },
    place: (id, staged) =>
      staged.map(({ name, fileId, chunks }) => ({
        sql: `INSERT INTO job_files (job_id, name, file_id, chunks) VALUES ($1, $2, $3, $4)
              ON CONFLICT (job_id, name) DO UPDATE SET file_id = excluded.file_id, chunks = excluded.chunks`,
        args: [id, name, fileId, chunks],
      })),
    discard: async (staged) => {
      await pool.query(unplaced, [staged.map((file) => file.fileId)]);
    },
    // ON DELETE CASCADE, and the chunks with the row (a trigger).
    remove: () => [],
    prune: (id, keep) => [
      { sql: 'DELETE FROM job_files WHERE job_id = $1 AND NOT (name = ANY($2::text[]))', args: [id, keep] },
    ],
    read: async (id, name) => {
      const parts = await stream(id, name);
      return parts && gather(parts);
    },
    stream,
    take: (id, name) =>
      transaction(pool, async (client) => {
        const row = (await client.query(`${named} FOR UPDATE`, [id, name])).rows[0];
        if (!row) return undefined;
        const data = await gather(chunksFrom(client, row.file_id, row.chunks, `${name} of job ${id}`));
        await client.query('DELETE FROM job_files WHERE job_id = $1 AND name = $2', [id, name]);
        return data;
      }),
    list: async (id) =>
      (await pool.query('SELECT name FROM job_files WHERE job_id = $1 ORDER BY name', [id])).rows.map(
        (row: { name: string }) => row.name,
      ),
    /** Chunks of no file whose newest is older than `orphanMs`: a submit that never committed. */
    removeOrphans: async () => {
      await pool.query(
        `DELETE FROM job_file_chunks WHERE file_id IN (
           SELECT c.file_id FROM job_file_chunks c
           WHERE NOT EXISTS (SELECT 1 FROM job_files f WHERE f.file_id = c.file_id)
           GROUP BY c.file_id HAVING max(c.staged_at) < now() - $1 * interval '1 millisecond')`,
        [orphanMs],
      );
    },
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
  const files = rowFiles(pool, options.orphanFilesMs ?? 600_000);
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
    files,
    sweep: () => files.removeOrphans(),
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
