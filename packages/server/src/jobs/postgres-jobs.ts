/**
 * The job backend of a fleet: the `jobs` table in PostgreSQL (next to `usage` and `usage_operations`, so a
 * state change and its usage commit in one transaction), pg-boss delivering work to the instances' workers.
 *
 * A pg-boss job is a wake-up, not the job: whichever worker receives one claims the fairest queued row (the
 * claims of the fleet are serialized by an advisory lock, so the per-account limit holds) and goes on
 * claiming until none is left. A submit sends one in the transaction of its row; a retry sends one that
 * starts when the retry is due. Each instance holds a lease (`createLease`): a running row whose owner's
 * lease is free lost its instance, and the sweep queues it again (it resumes from its checkpoint). The
 * sweep also sends wake-ups for queued rows that have none waiting (one delivered to an instance that died).
 * A job's files are rows of `job_files` (bytea), inserted in its row's transaction, written by an attempt
 * under its fence (the job's row locked), deleted with the job (`ON DELETE CASCADE`).
 */
import type pg from 'pg';
import PgBoss from 'pg-boss';
import { createLease } from '../storage/lease.js';
import { createBossQueue, startBossWorkers } from '../storage/pg-boss.js';
import { type Queryable, transaction } from '../storage/postgres-resources.js';
import {
  DEFERRED_UNTIL,
  type JobBackend,
  type JobFence,
  type JobFiles,
  JobLimitExceeded,
  type JobRow,
  JobSuperseded,
  jobCrashPoints,
  type NewJob,
  type UsageCharge,
  usageOperationId,
} from './job-backend.js';

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A file read back as a stream: its bytes in slices (a reader may pause between them). */
async function* slices(data: Uint8Array, size = 64 * 1024): AsyncIterable<Uint8Array> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

/** The pg-boss queue of wake-ups. */
export const JOB_QUEUE = 'glossa-jobs';
/** First key of the instances' leases; the claims' lock. */
const LEASE_LOCK = 7_117_040;
const CLAIM_LOCK = 7_117_041;

export interface PostgresJobBackendOptions {
  /** How often an idle worker asks pg-boss for a wake-up, in seconds (default 2). */
  readonly pollingIntervalSeconds?: number;
  readonly onError?: ((error: unknown) => void) | undefined;
}

const asDb = (db: Queryable): PgBoss.Db => ({ executeSql: (text, values) => db.query(text, values) });

export function createPostgresJobBackend(
  url: string,
  pool: pg.Pool,
  options: PostgresJobBackendOptions = {},
): JobBackend {
  const lease = createLease(url, {
    lockKey: LEASE_LOCK,
    applicationName: 'glossa-jobs-lease',
    onLost: options.onError,
  });
  let boss: Promise<PgBoss> | undefined;
  let closed = false;
  let workerCount = 0;
  /** pg-boss, started at the first wake-up to send (an instance without workers sends them too). */
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
      await createBossQueue(started, JOB_QUEUE);
      return started;
    })();
    return boss;
  };
  /** A wake-up, sent in `db`'s transaction; `jobId` names the job it was sent for (for reading pg-boss). */
  const wakeUp = async (db: Queryable, data: { jobId?: string; startAfter?: string } = {}) => {
    const started = await startBoss();
    await started.send(JOB_QUEUE, data.jobId ? { jobId: data.jobId } : {}, {
      db: asDb(db),
      ...(data.startAfter ? { startAfter: new Date(data.startAfter) } : {}),
    });
  };
  const applyUsage = async (client: Queryable, jobId: string, usage: readonly UsageCharge[]) => {
    for (const { step, record } of usage) {
      await client.query(
        `WITH operation AS (
           INSERT INTO usage_operations (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id
         )
         INSERT INTO usage (account_id, key_id, product, day, custom_tag, units)
         SELECT $2, $3, $4, $5, $6, $7 FROM operation
         ON CONFLICT (account_id, day, product, key_id, custom_tag) DO UPDATE SET units = usage.units + excluded.units`,
        [
          usageOperationId(jobId, step),
          record.accountId,
          record.keyId,
          record.product,
          record.day,
          record.customTag,
          record.units,
        ],
      );
    }
  };
  const get = async (db: Queryable, id: string) =>
    (await db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [id])).rows[0];

  /** Whether `fence`'s attempt still runs its job (the row locked until the transaction ends). */
  const fenced = async (client: Queryable, fence: JobFence) =>
    (
      await client.query('SELECT 1 FROM jobs WHERE id = $1 AND attempt = $2 AND status = $3 FOR UPDATE', [
        fence.id,
        fence.attempt,
        'running',
      ])
    ).rowCount !== 0;
  const bytes = (rows: { data: Buffer }[]): Uint8Array | undefined => rows[0]?.data;
  const putFiles = async (client: Queryable, id: string, files: JobFiles) => {
    for (const [name, content] of Object.entries(files)) {
      const data = content instanceof Uint8Array ? content : await collect(content);
      await client.query(
        `INSERT INTO job_files (job_id, name, data) VALUES ($1, $2, $3)
         ON CONFLICT (job_id, name) DO UPDATE SET data = excluded.data`,
        [id, name, data],
      );
    }
  };

  async function readFile(id: string, name: string): Promise<Uint8Array | undefined> {
    const { rows } = await pool.query<{ data: Buffer }>(
      'SELECT data FROM job_files WHERE job_id = $1 AND name = $2',
      [id, name],
    );
    return bytes(rows);
  }

  /** The job queued with its files, and its wake-up sent, in `client`'s transaction. */
  const insert = async (client: Queryable, job: NewJob) => {
    // One account's submits in order, so the limit holds across instances.
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 41))', [job.accountId]);
    const existing = await get(client, job.id);
    if (existing) return existing;
    const { rows } = await client.query<{ n: string }>(
      `SELECT COUNT(*) AS n FROM jobs WHERE account_id = $1 AND status IN ('queued', 'running')
       AND (expires_at IS NULL OR expires_at > $2)`,
      [job.accountId, new Date().toISOString()],
    );
    if (Number(rows[0]!.n) >= job.maxQueued) throw new JobLimitExceeded(job.maxQueued);
    const now = new Date().toISOString();
    if (job.maxPerAccount !== undefined) {
      const held = await client.query<{ n: string }>(
        `SELECT COUNT(*) AS n FROM jobs WHERE account_id = $1 AND kind = $2 AND (expires_at IS NULL OR expires_at > $3)`,
        [job.accountId, job.kind, now],
      );
      if (Number(held.rows[0]!.n) >= job.maxPerAccount)
        throw new JobLimitExceeded(job.maxPerAccount, job.kind);
    }
    const inserted = await client.query<JobRow>(
      `INSERT INTO jobs (id, kind, account_id, status, input, run_after, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $7) RETURNING *`,
      [
        job.id,
        job.kind,
        job.accountId,
        job.input,
        job.releaseBy ? DEFERRED_UNTIL : now,
        job.releaseBy ?? null,
        now,
      ],
    );
    await putFiles(client, job.id, job.files ?? {});
    if (job.files) jobCrashPoints.filesStored?.(job.id);
    if (!job.releaseBy) await wakeUp(client, { jobId: job.id });
    return inserted.rows[0]!;
  };

  return {
    owner: lease.owner,
    insert: (job) => transaction(pool, (client) => insert(client, job)),
    get: (id) => get(pool, id),
    async claim(kinds, limit) {
      if (kinds.length === 0) return undefined;
      await lease.hold();
      return transaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
        const now = new Date().toISOString();
        const { rows } = await client.query<JobRow>(
          `UPDATE jobs SET status = 'running', owner = $1, attempt = attempt + 1, claimed_at = $2, updated_at = $2
           WHERE id = (
             SELECT j.id FROM jobs j
             WHERE j.status = 'queued' AND j.run_after <= $2 AND j.kind = ANY($3::text[])
               AND (SELECT COUNT(*) FROM jobs r WHERE r.account_id = j.account_id AND r.status = 'running') < $4
             ORDER BY (SELECT MAX(s.claimed_at) FROM jobs s WHERE s.account_id = j.account_id) ASC NULLS FIRST,
               j.seq
             LIMIT 1)
           RETURNING *`,
          [lease.owner, now, kinds, limit],
        );
        return rows[0];
      });
    },
    change: (fence, next, usage) =>
      transaction(pool, async (client) => {
        if (!(await fenced(client, fence))) throw new JobSuperseded(fence.id);
        const now = new Date().toISOString();
        if (next.status === 'running')
          await client.query('UPDATE jobs SET checkpoint = $1, updated_at = $2 WHERE id = $3', [
            next.checkpoint,
            now,
            fence.id,
          ]);
        else if (next.status === 'queued') {
          await client.query(
            `UPDATE jobs SET status = 'queued', owner = NULL, run_after = $1, failures = $2, error = $3, updated_at = $4
             WHERE id = $5`,
            [next.runAfter, next.failures, next.error, now, fence.id],
          );
          await wakeUp(client, { jobId: fence.id, startAfter: next.runAfter });
        } else
          await client.query(
            `UPDATE jobs SET status = $1, result = $2, error = $3, failures = COALESCE($4, failures), owner = NULL,
             expires_at = $5, updated_at = $6 WHERE id = $7`,
            [
              next.status,
              next.status === 'completed' ? next.result : null,
              next.status === 'failed' ? next.error : null,
              next.status === 'failed' ? next.failures : null,
              next.expiresAt,
              now,
              fence.id,
            ],
          );
        await applyUsage(client, fence.id, usage);
      }),
    cancel: (id, expiresAt, usage) =>
      transaction(pool, async (client) => {
        const row = (await client.query<JobRow>('SELECT * FROM jobs WHERE id = $1 FOR UPDATE', [id])).rows[0];
        if (!row || (row.status !== 'queued' && row.status !== 'running')) return row;
        await client.query(
          `UPDATE jobs SET status = 'cancelled', owner = NULL, expires_at = $1, updated_at = $2 WHERE id = $3`,
          [expiresAt, new Date().toISOString(), id],
        );
        await applyUsage(client, id, usage(row));
        return get(client, id);
      }),
    readFile,
    async streamFile(id, name) {
      const data = await readFile(id, name);
      return data && slices(data);
    },
    writeFile: (fence, name, data) =>
      transaction(pool, async (client) => {
        if (!(await fenced(client, fence))) throw new JobSuperseded(fence.id);
        await putFiles(client, fence.id, { [name]: data });
      }),
    async takeFile(id, name) {
      const { rows } = await pool.query<{ data: Buffer }>(
        'DELETE FROM job_files WHERE job_id = $1 AND name = $2 RETURNING data',
        [id, name],
      );
      return bytes(rows);
    },
    async listFiles(id) {
      const { rows } = await pool.query<{ name: string }>(
        'SELECT name FROM job_files WHERE job_id = $1 ORDER BY name',
        [id],
      );
      return rows.map((row) => row.name);
    },
    putFile: (id, name, data) =>
      transaction(pool, async (client) => {
        if (!(await client.query('SELECT 1 FROM jobs WHERE id = $1 FOR UPDATE', [id])).rowCount) return false;
        await putFiles(client, id, { [name]: data });
        return true;
      }),
    async pruneFiles(id, keep) {
      await pool.query('DELETE FROM job_files WHERE job_id = $1 AND NOT (name = ANY($2::text[]))', [
        id,
        keep,
      ]);
    },
    release: (id, files) =>
      transaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE jobs SET run_after = $1, expires_at = NULL, updated_at = $1
           WHERE id = $2 AND status = 'queued' AND run_after = $3 AND expires_at > $1`,
          [new Date().toISOString(), id, DEFERRED_UNTIL],
        );
        if (!rowCount) return false;
        await putFiles(client, id, files);
        await wakeUp(client, { jobId: id });
        return true;
      }),
    async remove(id) {
      const { rowCount } = await pool.query(
        `DELETE FROM jobs WHERE id = $1 AND status IN ('completed', 'failed', 'cancelled')`,
        [id],
      );
      return rowCount !== 0;
    },
    async count(kinds, states) {
      const { rows } = await pool.query<{ n: string }>(
        'SELECT COUNT(*) AS n FROM jobs WHERE kind = ANY($1::text[]) AND status = ANY($2::text[]) AND run_after <> $3',
        [kinds, states, DEFERRED_UNTIL],
      );
      return Number(rows[0]!.n);
    },
    async sweep(deleteBefore) {
      await lease.hold();
      const { rows: owners } = await pool.query<{ owner: string }>(
        `SELECT DISTINCT owner FROM jobs WHERE status = 'running' AND owner <> $1`,
        [lease.owner],
      );
      for (const { owner } of owners) {
        await transaction(pool, async (client) => {
          if (!(await lease.isFree(client, owner))) return;
          const { rowCount } = await client.query(
            `UPDATE jobs SET status = 'queued', owner = NULL, updated_at = $1 WHERE status = 'running' AND owner = $2`,
            [new Date().toISOString(), owner],
          );
          for (let n = 0; n < (rowCount ?? 0); n++) await wakeUp(client);
        });
      }
      // Queued rows due with no wake-up waiting to claim them (one delivered to an instance that died stays
      // active in pg-boss until it expires): one each, up to this instance's workers.
      if (workerCount > 0) {
        const { rows } = await pool.query<{ missing: string }>(
          `SELECT (SELECT COUNT(*) FROM jobs WHERE status = 'queued' AND run_after <= $1)
             - (SELECT COUNT(*) FROM pgboss.job WHERE name = $2 AND state IN ('created', 'retry')) AS missing`,
          [new Date().toISOString(), JOB_QUEUE],
        );
        for (let n = 0; n < Math.min(Number(rows[0]!.missing), workerCount); n++) await wakeUp(pool);
      }
      await pool.query('DELETE FROM jobs WHERE expires_at < $1', [deleteBefore]);
    },
    async oldestJob() {
      const { rows } = await pool.query<{ at: string | null }>('SELECT MIN(created_at) AS at FROM jobs');
      return rows[0]!.at === null ? undefined : new Date(rows[0]!.at);
    },
    async deliver(concurrency, runNext) {
      const started = await startBoss();
      workerCount = concurrency;
      await lease.hold();
      const workers = await startBossWorkers(
        started,
        JOB_QUEUE,
        { concurrency, pollingIntervalSeconds: options.pollingIntervalSeconds },
        async () => {
          while (await runNext()) {}
        },
      );
      return {
        notify: () => workers.notify(),
        async stop() {
          await workers.stop();
        },
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      const started = await boss?.catch(() => undefined);
      await started?.stop({ graceful: true, wait: true, timeout: 5000 }).catch(() => {});
      await lease.release();
    },
  };
}
