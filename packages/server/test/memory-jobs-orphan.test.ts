/**
 * A memory job whose worker died between pg-boss's delivery and its claim of the row (real PostgreSQL,
 * real pg-boss): the row is processing with no owner, and its pg-boss wake-up is active with nobody
 * running it, so pg-boss alone would deliver it again only after its hour-long expiry. The job runner's
 * sweep sends a new wake-up for the queued job, and a live instance finishes it. Then an export's file (a job
 * file), removed with its job by the runner's sweep once the job expired.
 */
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../src/jobs/job-runner.js';
import { createPostgresJobBackend, JOB_QUEUE as MEMORY_JOB_QUEUE } from '../src/jobs/postgres-jobs.js';
import { createMemoryJobs } from '../src/memories/jobs.js';
import { migratePostgres } from '../src/storage/postgres.js';
import { createPostgresMemoryStore } from '../src/storage/postgres-memories.js';
import { postgresMemoryWriter } from '../src/storage/postgres-memory-jobs.js';
import { POSTGRES_MIGRATIONS } from '../src/storage/postgres-migrations.js';
import { POSTGRES_RESOURCE_MIGRATIONS } from '../src/storage/postgres-resources.js';
import { hasPostgres, sharedPostgres, stopSharedPostgres } from './services.js';

const TMX = `<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header srclang="en"/><body>
<tu><tuv xml:lang="en"><seg>The red car.</seg></tuv><tuv xml:lang="es"><seg>El coche rojo.</seg></tuv></tu>
</body></tmx>
`;

describe.skipIf(!hasPostgres)('memory jobs: a delivery whose worker died before claiming the row', () => {
  let url: string;
  let pool: pg.Pool;
  beforeAll(async () => {
    url = await (await sharedPostgres()).createDatabase();
    pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on('error', () => {});
    await migratePostgres(pool, 'glossa_schema', POSTGRES_MIGRATIONS);
    await migratePostgres(pool, 'glossa_resources_schema', POSTGRES_RESOURCE_MIGRATIONS);
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await stopSharedPostgres();
  });

  it('is queued again after orphanAfterMs and finished by a live instance, once', async () => {
    const memories = createPostgresMemoryStore(pool);
    // An instance with no workers takes the upload (the row and its pg-boss job, in one transaction).
    const frontRunner = createJobRunner(createPostgresJobBackend(url, pool), {
      concurrency: 0,
      sweepMs: 60_000,
    });
    const front = createMemoryJobs(frontRunner, memories, postgresMemoryWriter(pool, memories));
    const job = await front.createImport('acct-1', { file_name: 'a.tmx' }, Buffer.byteLength(TMX));
    await front.receive(job, async (sink) => {
      await new Promise<void>((resolve, reject) =>
        sink.end(Buffer.from(TMX), (error?: Error | null) => (error ? reject(error) : resolve())),
      );
    });
    // A worker fetches the delivery and dies before it claims the row.
    const dead = new PgBoss({ connectionString: url, max: 1, schedule: false, supervise: false });
    await dead.start();
    const fetched = await dead.fetch<{ jobId: string }>(MEMORY_JOB_QUEUE);
    expect(fetched?.[0]?.data.jobId).toBe(job.id);
    await dead.stop({ graceful: false, wait: true });
    expect((await front.get(job.id))?.status).toBe('processing');

    // A live instance: its lease check finds the orphan and queues it again; its worker runs it.
    const liveRunner = createJobRunner(createPostgresJobBackend(url, pool, { pollingIntervalSeconds: 0.5 }), {
      concurrency: 1,
      sweepMs: 200,
    });
    const live = createMemoryJobs(liveRunner, memories, postgresMemoryWriter(pool, memories));
    await liveRunner.start();
    try {
      const started = Date.now();
      let status = (await live.get(job.id))?.status;
      while (status === 'processing' && Date.now() - started < 30_000) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        status = (await live.get(job.id))?.status;
      }
      expect(status).toBe('completed');
      const finished = await live.get(job.id);
      const { rows } = await pool.query('SELECT id FROM memories WHERE account_id = $1 AND ready', [
        'acct-1',
      ]);
      expect(rows.map((row) => row.id)).toEqual([finished?.memoryId]);
    } finally {
      await liveRunner.close();
      await frontRunner.close();
    }
  }, 60_000);
  it('a job of a version before the job files (its record gone) fails, and the routes do not know it', async () => {
    const memories = createPostgresMemoryStore(pool);
    const runner = createJobRunner(createPostgresJobBackend(url, pool, { pollingIntervalSeconds: 0.5 }), {
      concurrency: 1,
      sweepMs: 200,
    });
    const jobs = createMemoryJobs(runner, memories, postgresMemoryWriter(pool, memories));
    const now = new Date().toISOString();
    await pool.query(
      `INSERT INTO jobs (id, kind, account_id, status, input, run_after, created_at, updated_at)
       VALUES ('old-job', 'memories/transfer', 'acct-1', 'queued', '{"jobId":"old-job"}', $1, $1, $1)`,
      [now],
    );
    await runner.start();
    try {
      const status = async () =>
        (await pool.query('SELECT status, error FROM jobs WHERE id = $1', ['old-job'])).rows[0];
      for (const started = Date.now(); (await status()).status !== 'failed'; ) {
        if (Date.now() - started > 30_000) throw new Error(`the old job is still ${(await status()).status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await status()).error).toMatch(/server stopped/);
      expect(await jobs.get('old-job')).toBeUndefined();
    } finally {
      await runner.close();
    }
  }, 60_000);

  it("an export's file is removed with its job by the runner's sweep once the job has expired", async () => {
    const memories = createPostgresMemoryStore(pool);
    const runner = createJobRunner(createPostgresJobBackend(url, pool, { pollingIntervalSeconds: 0.5 }), {
      concurrency: 1,
      sweepMs: 200,
      keepExpiredMs: 500,
    });
    const jobs = createMemoryJobs(runner, memories, postgresMemoryWriter(pool, memories));
    await runner.start();
    const until = async (check: () => Promise<boolean>, what: string) => {
      for (const started = Date.now(); !(await check()); ) {
        if (Date.now() - started > 30_000) throw new Error(`${what} did not happen in 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const files = async (id: string) =>
      Number((await pool.query('SELECT COUNT(*) AS n FROM job_files WHERE job_id = $1', [id])).rows[0].n);
    try {
      // The memory the test above imported.
      const { rows } = await pool.query('SELECT id FROM memories WHERE account_id = $1 AND ready', [
        'acct-1',
      ]);
      const { job } = await jobs.export('acct-1', rows[0].id);
      await until(async () => (await jobs.get(job.id))?.status === 'completed', 'the export');
      expect(await files(job.id)).toBe(1);
      await pool.query(`UPDATE jobs SET expires_at = $1 WHERE id = $2`, [new Date().toISOString(), job.id]);
      expect((await jobs.get(job.id))?.status).toBe('expired');
      await until(async () => (await files(job.id)) === 0, "the expired export file's removal");
      expect(await jobs.get(job.id)).toBeUndefined();
    } finally {
      await runner.close();
    }
  }, 60_000);
});
