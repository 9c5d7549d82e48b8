/**
 * The job runner killed (SIGKILL) at random moments: on SQLite, the one process owning the data directory,
 * restarted after each kill; on PostgreSQL, a fleet of two instances, one of them killed and restarted
 * each time while the other takes its jobs over. Every job must finish once, with the result of an
 * uninterrupted run, its usage (one unit per step) counted exactly once.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../src/feature-api.js';
import { createPostgresStorage } from '../src/storage/postgres.js';
import { createSqliteStorage } from '../src/storage/sqlite.js';
import type { Storage } from '../src/storage/storage.js';
import { type CrashChild, killHard, pollUntil, startChild } from './crash-harness.js';
import { DAY, expectedDigest, filesKind, KEY_ID, outputOf, stepsKind } from './jobs/steps-kind.js';
import { postgresForFile } from './postgres-for-file.js';
import { hasPostgres, onPostgres } from './services.js';

const cluster = postgresForFile('the job runner crash test on PostgreSQL (apt-get install postgresql)');
const child = join(import.meta.dirname, 'jobs', 'crash-child.ts');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const KILLS = 4;
const STEP_MS = 50;

/** A runner in a child process (jobs/crash-child.ts); `ready` is its owner id. */
const start = (backend: string, where: string, ...mode: string[]): Promise<CrashChild> =>
  startChild(child, [backend, where, ...mode]);
const kill = (instance: CrashChild) => killHard(instance);

const addAccounts = async (storage: Storage, ids: readonly string[]) => {
  for (const id of ids)
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
};

async function submitAll(storage: Storage, steps: number) {
  await addAccounts(storage, ['alice', 'bob']);
  // Submits and reads only: no workers in the test's process.
  const runner = createJobRunner(storage.openJobBackend(), { concurrency: 0 });
  const queue = runner.register(stepsKind());
  const ids: string[] = [];
  for (const account of ['alice', 'bob', 'alice', 'bob'])
    ids.push((await queue.submit(account, { steps, stepMs: STEP_MS })).id);
  return { runner, queue, ids, steps };
}

async function check(storage: Storage, submitted: Awaited<ReturnType<typeof submitAll>>) {
  const { queue, ids, runner, steps } = submitted;
  for (const id of ids)
    await pollUntil(
      () => queue.status(id),
      (job) => job?.status === 'completed',
      { timeoutMs: 60_000, what: `job ${id} completed` },
    );
  const jobs = await Promise.all(ids.map((id) => queue.status(id)));
  for (const job of jobs)
    expect(job).toMatchObject({ status: 'completed', result: { digest: expectedDigest(steps) } });
  // At least one job was interrupted mid-way and finished by a later attempt.
  expect(Math.max(...jobs.map((job) => job!.attempt))).toBeGreaterThan(1);
  for (const account of ['alice', 'bob']) {
    const totals = await storage.usageTotals(account, KEY_ID, DAY, '2026-12-01');
    expect(totals).toEqual([{ product: 'translate', accountUnits: 2 * steps, keyUnits: 2 * steps }]);
  }
  await runner.close();
  return jobs.map((job) => job!.attempt);
}

// Both backends in one run: the PostgreSQL pass of the suites (GLOSSA_TEST_POSTGRES) would repeat it.
describe.skipIf(onPostgres)('the job runner killed (SIGKILL) at random moments', () => {
  it('on SQLite, restarted after each kill: every job once, as uninterrupted, usage once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'glossa-jobs-crash-'));
    dirs.push(dir);
    const storage = createSqliteStorage(dir);
    try {
      // 4 jobs of 2 s, 2 at a time: 4 s of work; each instance lives 0.3 to 0.9 s.
      const submitted = await submitAll(storage, 40);
      for (let n = 0; n < KILLS; n++) {
        const running = await start('sqlite', dir);
        await sleep(300 + Math.random() * 600);
        await kill(running);
      }
      const last = await start('sqlite', dir);
      const attempts = await check(storage, submitted);
      console.log(`SQLite: ${KILLS} kills, attempts per job ${attempts.join(', ')}`);
      await kill(last);
    } finally {
      await storage.close();
    }
  }, 180_000);

  it.skipIf(!hasPostgres)(
    'on a PostgreSQL fleet of two, one killed and restarted each time: every job once, as uninterrupted, usage once',
    async () => {
      const url = await cluster().createDatabase();
      const storage = await createPostgresStorage(url, { poolSize: 2 });
      try {
        // 4 jobs of 4 s, 2 at a time per instance.
        const submitted = await submitAll(storage, 80);
        const fleet: (CrashChild | undefined)[] = await Promise.all([
          start('postgres', url),
          start('postgres', url),
        ]);
        const restarts: Promise<void>[] = [];
        let kills = 0;
        while (kills < KILLS) {
          await sleep(300 + Math.random() * 600);
          // An instance running a job at this moment (the other may be restarting meanwhile).
          const { rows } = await storage.pool.query<{ owner: string }>(
            `SELECT DISTINCT owner FROM jobs WHERE status = 'running'`,
          );
          const victim = fleet.findIndex((instance) => rows.some((row) => row.owner === instance?.ready));
          if (victim === -1) {
            if ((await submitted.runner.depth()) === 0) break;
            continue;
          }
          await kill(fleet[victim]!);
          fleet[victim] = undefined;
          kills++;
          restarts.push(
            start('postgres', url).then((instance) => {
              fleet[victim] = instance;
            }),
          );
        }
        await Promise.all(restarts);
        expect(kills).toBe(KILLS);
        const attempts = await check(storage, submitted);
        console.log(`PostgreSQL: ${KILLS} kills, attempts per job ${attempts.join(', ')}`);
        for (const running of fleet) await kill(running!);
      } finally {
        await storage.close();
      }
    },
    180_000,
  );
});

/** The files in `<data dir>/jobs` not of a job's directory: what a submit staged (SQLite). */
const staged = (dir: string) => readdirSync(join(dir, 'jobs')).filter((name) => name.startsWith('.'));

// Both backends in one run, as above.
describe.skipIf(onPostgres).each([
  ['SQLite', false],
  ['PostgreSQL', !hasPostgres],
] as const)('job files killed (SIGKILL) on %s', (backend, skip) => {
  it.skipIf(skip)(
    'a submit killed between its files and its row leaves neither; an attempt killed between its output and its completion is redone',
    async () => {
      let where: string;
      let storage: Storage;
      if (backend === 'SQLite') {
        where = mkdtempSync(join(tmpdir(), 'glossa-job-files-crash-'));
        dirs.push(where);
        storage = createSqliteStorage(where);
      } else {
        where = await cluster().createDatabase();
        storage = await createPostgresStorage(where, { poolSize: 2 });
      }
      const name = backend === 'SQLite' ? 'sqlite' : 'postgres';
      try {
        await addAccounts(storage, ['alice']);
        const runner = createJobRunner(storage.openJobBackend(), { concurrency: 0 });
        const queue = runner.register(filesKind());
        const raw = storage.openJobBackend();

        // Killed once the submit's files are stored, before its row commits: no job, no files of it.
        const submitter = await startChild(child, [name, where, 'submit', 'lost']);
        expect(await submitter.exited).toBe('SIGKILL');
        expect(await queue.status('lost')).toBeUndefined();
        expect(await raw.files.read('lost', 'input')).toBeUndefined();
        // SQLite: the staged directory stays until a sweep finds it without a job.
        if (backend === 'SQLite') expect(staged(where)).toHaveLength(1);

        const input = Buffer.from('the bytes of a job file, '.repeat(4000));
        await queue.submit('alice', {}, { id: 'lost', files: { input } });
        await queue.submit('alice', { killAfterOutput: true }, { id: 'killed', files: { input } });
        // The first attempt writes its output and dies before it completes the job.
        const first = await start(name, where, 'files');
        expect(await first.exited).toBe('SIGKILL');
        const interrupted = (await queue.status('killed'))!;
        expect(interrupted.status).toBe('running');
        expect(await queue.file('killed', 'output')).toBeUndefined();
        expect(Buffer.from((await raw.files.read('killed', 'output'))!).equals(outputOf(input))).toBe(true);

        const second = await start(name, where, 'files');
        for (const id of ['lost', 'killed'])
          await pollUntil(
            () => queue.status(id),
            (job) => job?.status === 'completed',
            { timeoutMs: 60_000, what: `job ${id} completed` },
          );
        expect((await queue.status('killed'))!.attempt).toBe(2);
        for (const id of ['lost', 'killed']) {
          expect((await queue.status(id))!.result).toEqual({ size: input.length });
          expect(Buffer.from((await queue.file(id, 'output'))!).equals(outputOf(input))).toBe(true);
        }
        if (backend === 'SQLite')
          await pollUntil(
            async () => staged(where),
            (left) => left.length === 0,
            { timeoutMs: 10_000, what: 'the staged directory removed' },
          );
        await kill(second);
        await runner.close();
        await raw.close();
      } finally {
        await storage.close();
      }
    },
    120_000,
  );
});
