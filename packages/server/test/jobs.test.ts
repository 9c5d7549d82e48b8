/**
 * The job runner's contract (src/jobs), one suite run on both backends: SQLite (a real file) and
 * PostgreSQL + pg-boss (a real cluster started for this file). Crashes (SIGKILL) are in jobs-crash.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createJobRunner,
  type JobInfo,
  JobLimitExceeded,
  type JobQueue,
  type JobRunner,
  type JobRunnerOptions,
  type JobStatus,
  JobSuperseded,
} from '../src/feature-api.js';
import { createPostgresStorage } from '../src/storage/postgres.js';
import { createSqliteStorage } from '../src/storage/sqlite.js';
import type { Storage } from '../src/storage/storage.js';
import {
  DAY,
  expectedDigest,
  filesKind,
  KEY_ID,
  outputOf,
  type StepsCheckpoint,
  type StepsInput,
  type StepsResult,
  stepsKind,
} from './jobs/steps-kind.js';
import { postgresForFile } from './postgres-for-file.js';
import { hasPostgres, onPostgres } from './services.js';

const cluster = postgresForFile('the job runner on PostgreSQL (apt-get install postgresql)');
const dirs: string[] = [];
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const BACKENDS: [string, () => Promise<Storage>, boolean][] = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'glossa-jobs-'));
      dirs.push(dir);
      return createSqliteStorage(dir);
    },
    false,
  ],
  ['PostgreSQL', async () => createPostgresStorage(await cluster().createDatabase()), !hasPostgres],
];

type Steps = JobQueue<StepsInput, StepsCheckpoint, StepsResult>;
type StepsJob = JobInfo<StepsInput, StepsCheckpoint, StepsResult>;
const FINAL: readonly JobStatus[] = ['completed', 'failed', 'cancelled', 'expired'];

async function until(queue: Steps, id: string, states: readonly JobStatus[] = FINAL): Promise<StepsJob> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const job = await queue.status(id);
    if (job && states.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} is still ${job?.status}`);
    await sleep(20);
  }
}

// Both backends in one run: the PostgreSQL pass of the suites (GLOSSA_TEST_POSTGRES) would repeat it.
describe.skipIf(onPostgres).each(BACKENDS)('the job runner on %s', (_name, openStorage, skip) => {
  async function withAccounts(): Promise<Storage> {
    const storage = await openStorage();
    open.push(storage);
    for (const id of ['alice', 'bob'])
      await storage.createAccount({
        id,
        plan: 'paid',
        admin: false,
        detectionBeta: false,
        qualityAlpha: false,
        voiceJobsAlpha: false,
        memoryMatches: false,
        characterLimit: 1_000_000,
      });
    return storage;
  }

  async function setUp(
    options: JobRunnerOptions = {},
    kind: Parameters<typeof stepsKind>[0] = {},
  ): Promise<{
    storage: Storage;
    runner: JobRunner;
    queue: Steps;
    units: (account: string) => Promise<number>;
  }> {
    const storage = await withAccounts();
    const runner = createJobRunner(storage.openJobBackend({ pollMs: 500 }), {
      sweepMs: 100,
      storage,
      ...options,
    });
    open.push(runner);
    const queue = runner.register(stepsKind(kind));
    await runner.start();
    const units = async (account: string) => {
      const totals = await storage.usageTotals(account, KEY_ID, DAY, '2026-12-01');
      return totals.find((total) => total.product === 'translate')?.accountUnits ?? 0;
    };
    return { storage, runner, queue, units };
  }

  it.skipIf(skip)('runs a job to its result, its usage applied once per step', async () => {
    const { queue, units, runner } = await setUp();
    const submitted = await queue.submit('alice', { steps: 5, stepMs: 5 });
    expect(submitted.status).toBe('queued');
    const job = await until(queue, submitted.id);
    expect(job).toMatchObject({
      status: 'completed',
      attempt: 1,
      failures: 0,
      result: { digest: expectedDigest(5) },
    });
    expect((await queue.status(submitted.id))?.result).toEqual({ digest: expectedDigest(5) });
    expect(await units('alice')).toBe(5);
    expect(await runner.depth()).toBe(0);
    expect(await runner.count(['test/steps'], ['completed'])).toBe(1);
    expect(await runner.count(['test/steps'], ['queued', 'running'])).toBe(0);
  });

  it.skipIf(skip)("finds a kind's queue by name, and a job only for its own account", async () => {
    const { queue, runner } = await setUp();
    expect(runner.queue('test/steps')).toBe(queue);
    expect(() => runner.queue('test/none')).toThrow(new TypeError('No job kind test/none is registered.'));
    const { id } = await queue.submit('alice', { steps: 1, stepMs: 1 });
    expect((await queue.status(id, { accountId: 'alice' }))?.id).toBe(id);
    expect(await queue.status(id, { accountId: 'bob' })).toBeUndefined();
    expect(await queue.status('unknown', { accountId: 'alice' })).toBeUndefined();
    expect((await queue.status(id))?.accountId).toBe('alice');
  });

  it.skipIf(skip)('retries a failed attempt with backoff, then completes from the start', async () => {
    const { queue, units } = await setUp();
    const started = Date.now();
    const { id } = await queue.submit('alice', { steps: 3, stepMs: 1, failAttempts: 2 });
    const job = await until(queue, id);
    expect(job).toMatchObject({
      status: 'completed',
      attempt: 3,
      failures: 2,
      result: { digest: expectedDigest(3) },
    });
    // 100 ms, then 200 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(await units('alice')).toBe(3);
  });

  it.skipIf(skip)(
    'fails a job after maxFailures, or at once on JobFailed, its refund applied once',
    async () => {
      const { queue, units } = await setUp({}, { maxFailures: 2 });
      const retried = await queue.submit('alice', { steps: 1, stepMs: 1, failAttempts: 9, refund: 7 });
      expect(await until(queue, retried.id)).toMatchObject({
        status: 'failed',
        failures: 2,
        error: 'attempt 2 failed',
      });
      const bad = await queue.submit('bob', { steps: 1, stepMs: 1, bad: true, refund: 3 });
      expect(await until(queue, bad.id)).toMatchObject({
        status: 'failed',
        attempt: 1,
        error: 'this input cannot be processed',
      });
      // Cancelling a failed job changes nothing, refunds nothing.
      expect((await queue.cancel(bad.id))?.status).toBe('failed');
      expect(await units('alice')).toBe(-7);
      expect(await units('bob')).toBe(-3);
    },
  );

  it.skipIf(skip)(
    'cancels a queued job (never run) and a running one (stopped at its next step), refunded once',
    async () => {
      const seen: string[] = [];
      const { queue, units } = await setUp({ concurrency: 1 }, { seen });
      const running = await queue.submit('alice', { steps: 50, stepMs: 20, refund: 50 });
      const queued = await queue.submit('alice', { steps: 5, stepMs: 1, refund: 5 });
      await until(queue, running.id, ['running']);
      expect((await queue.cancel(queued.id))?.status).toBe('cancelled');
      await sleep(100);
      expect((await queue.cancel(running.id))?.status).toBe('cancelled');
      expect((await queue.cancel(running.id))?.status).toBe('cancelled');
      await sleep(200);
      const stepsRun = seen.filter((step) => step.startsWith(running.id)).length;
      expect(stepsRun).toBeGreaterThan(0);
      expect(stepsRun).toBeLessThan(50);
      expect(seen.some((step) => step.startsWith(queued.id))).toBe(false);
      // Each saved step charged once; refunds once each.
      const charged = (await queue.status(running.id))!.checkpoint!.done;
      expect(await units('alice')).toBe(charged - 50 - 5);
      expect((await queue.status(running.id))?.result).toBeUndefined();
    },
  );

  it.skipIf(skip)(
    'resumes a job stopped by a closing runner from its checkpoint on the next runner',
    async () => {
      const seen: string[] = [];
      const storage = await withAccounts();
      const first = createJobRunner(storage.openJobBackend({ pollMs: 500 }), { storage });
      const queue = first.register(stepsKind({ seen }));
      await first.start();
      const { id } = await queue.submit('alice', { steps: 20, stepMs: 20 });
      await until(queue, id, ['running']);
      await sleep(150);
      await first.close();
      const stopped = (await queue.status(id))!;
      expect(stopped.status).toBe('queued');
      const done = stopped.checkpoint!.done;
      expect(done).toBeGreaterThan(0);
      const second = createJobRunner(storage.openJobBackend({ pollMs: 500 }), { storage });
      open.push(second);
      const again = second.register(stepsKind({ seen }));
      await second.start();
      expect(await until(again, id)).toMatchObject({
        status: 'completed',
        attempt: 2,
        result: { digest: expectedDigest(20) },
      });
      // The second attempt started where the first saved its last checkpoint.
      expect(seen.find((step) => step.startsWith(`${id}:2:`))).toBe(`${id}:2:${done}`);
    },
  );

  it.skipIf(skip)(
    "serves an account's single job before another account's hundred waiting ones",
    async () => {
      const seen: string[] = [];
      const { queue } = await setUp({ concurrency: 1 }, { seen });
      const many: string[] = [];
      for (let n = 0; n < 100; n++) many.push((await queue.submit('alice', { steps: 1, stepMs: 30 })).id);
      await until(queue, many[0]!, ['running', 'completed']);
      const startedBefore = seen.length;
      const single = await queue.submit('bob', { steps: 1, stepMs: 1 });
      expect((await until(queue, single.id)).status).toBe('completed');
      // Bob's job started next, or after the one alice's claim took while he submitted: within one job's time.
      const position = seen.indexOf(`${single.id}:1:0`);
      expect(position).toBeGreaterThanOrEqual(startedBefore);
      expect(position).toBeLessThanOrEqual(startedBefore + 1);
    },
  );

  it.skipIf(skip)('limits the jobs an account has waiting, and the jobs it runs at once', async () => {
    const seen: string[] = [];
    const { queue } = await setUp(
      { concurrency: 3, maxQueuedPerAccount: 3, maxRunningPerAccount: 1 },
      { seen },
    );
    const jobs = [
      await queue.submit('alice', { steps: 3, stepMs: 30 }),
      await queue.submit('alice', { steps: 3, stepMs: 30 }),
      await queue.submit('alice', { steps: 3, stepMs: 30 }),
    ];
    await expect(queue.submit('alice', { steps: 1, stepMs: 1 })).rejects.toBeInstanceOf(JobLimitExceeded);
    // bob is not limited by alice's jobs.
    const bob = await queue.submit('bob', { steps: 1, stepMs: 1 });
    for (const job of jobs) await until(queue, job.id);
    await until(queue, bob.id);
    // One of alice's jobs at a time: each finished before the next started.
    const starts = seen.filter((step) => step.endsWith(':0')).map((step) => step.split(':')[0]);
    const aliceIds = jobs.map((job) => job.id);
    expect(starts.filter((id) => aliceIds.includes(id!))).toEqual(aliceIds);
    expect(seen.filter((step) => aliceIds.includes(step.split(':')[0]!))).toEqual(
      aliceIds.flatMap((id) => [`${id}:1:0`, `${id}:1:1`, `${id}:1:2`]),
    );
    expect(await queue.submit('alice', { steps: 1, stepMs: 1 })).toMatchObject({ status: 'queued' });
  });

  it.skipIf(skip)(
    'stores a job with its files, serves its outputs once completed (one taker), limits those held',
    async () => {
      const { runner } = await setUp();
      const queue = runner.register(filesKind());
      const input = randomBytes(3 * 1024 * 1024);
      await expect(queue.submit('alice', {}, { files: { '../input': input } })).rejects.toThrow(TypeError);
      const { id } = await queue.submit('alice', {}, { files: { input } });
      const job = await until(queue as unknown as Steps, id, ['completed']);
      expect(job.result).toEqual({ size: input.length });
      expect(Buffer.from((await queue.file(id, 'output'))!).equals(outputOf(input))).toBe(true);
      expect(Buffer.from((await queue.file(id, 'input'))!).equals(input)).toBe(true);
      expect(await queue.file(id, 'missing')).toBeUndefined();
      // Submitting again under the id changes nothing.
      await queue.submit('alice', {}, { id, files: { input: new Uint8Array([1]) } });
      expect(Buffer.from((await queue.file(id, 'input'))!).equals(input)).toBe(true);
      // A one-time download: of concurrent takers one gets it.
      const taken = await Promise.all([1, 2, 3].map(() => queue.takeFile(id, 'output')));
      expect(taken.filter((file) => file !== undefined)).toHaveLength(1);
      expect(Buffer.from(taken.find((file) => file !== undefined)!).equals(outputOf(input))).toBe(true);
      expect(await queue.file(id, 'output')).toBeUndefined();
      // The kind's limit: 3 jobs held per account (queued, running, or finished and not expired).
      await queue.submit('alice', {}, { files: { input } });
      await queue.submit('alice', {}, { files: { input } });
      const refused = await queue.submit('alice', {}, { files: { input } }).catch((error) => error);
      expect(refused).toBeInstanceOf(JobLimitExceeded);
      expect(refused).toMatchObject({ limit: 3, kind: 'test/files' });
      expect((await queue.submit('bob', {}, { files: { input } })).status).toBe('queued');
    },
  );

  it.skipIf(skip)(
    'runs a deferred job once released with its files; lists, marks, prunes and removes them',
    async () => {
      const { runner } = await setUp();
      const queue = runner.register(filesKind({ keepFiles: ['output'] }));
      const files = queue as unknown as Steps;
      const input = randomBytes(1024);
      const deferred = await queue.submit('alice', {}, { deferred: true });
      expect(deferred.status).toBe('deferred');
      // A job submitted after it runs; the deferred one is not taken.
      const other = await queue.submit('alice', {}, { files: { input } });
      await until(files, other.id, ['completed']);
      expect(await queue.status(deferred.id)).toMatchObject({ status: 'deferred', attempt: 0 });
      expect(await queue.files(deferred.id)).toEqual([]);
      // Released once: of concurrent releases one stores its files.
      const released = await Promise.all([1, 2].map(() => queue.release(deferred.id, { input })));
      expect(released.sort()).toEqual([false, true]);
      expect(await queue.release(other.id, { input })).toBe(false);
      await until(files, deferred.id, ['completed']);
      // The ended job kept only its `keepFiles` (SQLite deletes the others once the change committed).
      const deadline = Date.now() + 10_000;
      while ((await queue.files(deferred.id)).length > 1 && Date.now() < deadline) await sleep(50);
      expect(await queue.files(deferred.id)).toEqual(['output']);
      expect(Buffer.from((await queue.file(deferred.id, 'output'))!).equals(outputOf(input))).toBe(true);
      // A mark on the finished job, then the job removed now, files and all.
      expect(await queue.writeFile(deferred.id, 'downloaded', new Uint8Array())).toBe(true);
      expect((await queue.files(deferred.id)).sort()).toEqual(['downloaded', 'output']);
      expect(await queue.writeFile('unknown', 'downloaded', new Uint8Array())).toBe(false);
      expect(await queue.remove(deferred.id)).toBe(true);
      expect(await queue.status(deferred.id)).toBeUndefined();
      expect(await queue.files(deferred.id)).toEqual([]);
      expect(await queue.remove(deferred.id)).toBe(false);
      // A job not finished is not removed.
      const waiting = await queue.submit('bob', {}, { deferred: true });
      expect(await queue.remove(waiting.id)).toBe(false);
      expect((await queue.status(waiting.id))?.status).toBe('deferred');
    },
  );

  it.skipIf(skip)('expires a deferred job not released in time, which then counts in no limit', async () => {
    const { runner, queue: steps } = await setUp({ maxQueuedPerAccount: 1 });
    // Its kind's time to release is over at once (a negative result time).
    const queue = runner.register(filesKind({ resultTtlMs: -1 }));
    const { id } = await queue.submit('alice', {}, { deferred: true });
    expect((await queue.status(id))?.status).toBe('expired');
    expect(await queue.release(id, { input: new Uint8Array([1]) })).toBe(false);
    expect(await queue.files(id)).toEqual([]);
    // The expired one is not counted; a deferred one within its time is.
    expect((await steps.submit('alice', { steps: 1, stepMs: 1 }, { deferred: true })).status).toBe(
      'deferred',
    );
    await expect(steps.submit('alice', { steps: 1, stepMs: 1 }, { deferred: true })).rejects.toBeInstanceOf(
      JobLimitExceeded,
    );
  });

  it.skipIf(skip)('serves no file of an expired job, and deletes its files with it', async () => {
    const { runner, storage } = await setUp({ keepExpiredMs: 300 });
    const queue = runner.register(filesKind({ resultTtlMs: 200 }));
    const input = randomBytes(1024);
    const { id } = await queue.submit('alice', {}, { files: { input } });
    await until(queue as unknown as Steps, id, ['completed', 'expired']);
    await until(queue as unknown as Steps, id, ['expired']);
    expect(await queue.file(id, 'input')).toBeUndefined();
    expect(await queue.takeFile(id, 'output')).toBeUndefined();
    const backend = storage.openJobBackend();
    open.push(backend);
    expect(Buffer.from((await backend.files.read(id, 'output'))!).equals(outputOf(input))).toBe(true);
    const deadline = Date.now() + 10_000;
    while ((await queue.status(id)) && Date.now() < deadline) await sleep(50);
    expect(await queue.status(id)).toBeUndefined();
    // SQLite removes the directory once the row's deletion committed.
    while ((await backend.files.read(id, 'input')) && Date.now() < deadline) await sleep(50);
    expect(await backend.files.read(id, 'input')).toBeUndefined();
    expect(await backend.files.read(id, 'output')).toBeUndefined();
  });

  it.skipIf(skip)("never lets a superseded attempt's file replace the current one", async () => {
    const storage = await withAccounts();
    const backend = storage.openJobBackend();
    open.push(backend);
    const later = new Date(Date.now() + 60_000).toISOString();
    await backend.insert({ id: 'fenced', kind: 'test/raw', accountId: 'alice', input: '{}', maxQueued: 9 });
    const row = (await backend.claim(['test/raw'], 2))!;
    const fence = { id: 'fenced', attempt: row.attempt };
    await backend.writeFile(fence, 'output', new Uint8Array([1, 2]));
    await backend.writeFile(fence, 'output', new Uint8Array([3]));
    expect([...(await backend.files.read('fenced', 'output'))!]).toEqual([3]);
    await backend.cancel('fenced', later, () => []);
    await expect(backend.writeFile(fence, 'output', new Uint8Array([4]))).rejects.toBeInstanceOf(
      JobSuperseded,
    );
    await expect(backend.writeFile(fence, 'other', new Uint8Array([4]))).rejects.toBeInstanceOf(
      JobSuperseded,
    );
    expect([...(await backend.files.read('fenced', 'output'))!]).toEqual([3]);
    expect(await backend.files.read('fenced', 'other')).toBeUndefined();
  });

  it.skipIf(skip)('answers expired past the result time, then deletes the job', async () => {
    const { queue, units } = await setUp({ keepExpiredMs: 300 }, { resultTtlMs: 200 });
    const { id } = await queue.submit('alice', { steps: 2, stepMs: 1 });
    expect((await until(queue, id, ['completed'])).result).toEqual({ digest: expectedDigest(2) });
    const expired = await until(queue, id, ['expired']);
    expect(expired.result).toBeUndefined();
    expect((await queue.status(id))?.result).toBeUndefined();
    const deadline = Date.now() + 10_000;
    while ((await queue.status(id)) && Date.now() < deadline) await sleep(50);
    expect(await queue.status(id)).toBeUndefined();
    expect(await units('alice')).toBe(2);
  });
});
