/**
 * Quality-evaluation jobs on the job runner across SIGKILL (issue 32), on SQLite and on PostgreSQL. A server
 * (the crash harness's one server script, packages/server/test/crash-serve.ts) kills itself while it runs a job:
 * - while the evaluation runs on its thread (`evaluating`);
 * - after the report is stored (its job file), before the runner completes the job (`afterReport`).
 * A server started again on the same storage finishes the job once: its report is byte for byte that of
 * the same request run there without interruption (the job's id aside), the runner's row says two
 * attempts, and nothing was evaluated twice after the report was stored. A job that kills its server
 * `MAX_EVALUATION_ATTEMPTS` times is not run again: it ends with the abandoned report. Quality evaluation
 * is not billed: the account's usage stays empty.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@glossa/server';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pollUntil, startCrashServer } from '../../server/test/crash-harness.js';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { languageToolsFeature } from '../src/index.js';
import { MAX_EVALUATION_ATTEMPTS, qualityCrashPoints } from '../src/quality/service.js';

/** The feature in the crash server, and its crash points (service.ts `qualityCrashPoints`). */
const FEATURE = {
  module: join(import.meta.dirname, '../src/index.ts'),
  factory: 'languageToolsFeature',
  options: { warmUp: false },
};
const crashAt = (point: 'evaluating' | 'afterReport') => ({
  module: join(import.meta.dirname, '../src/quality/service.ts'),
  hooks: 'qualityCrashPoints',
  point,
  // Evaluating: once the thread has had a moment of the evaluation (it is running, not merely posted).
  ...(point === 'evaluating' ? { delayMs: 200 } : {}),
});
const DEV_KEY = 'quality-jobs-crash-dev-key-01234';
const headers = { authorization: `Service-Auth-Key ${DEV_KEY}` };

/**
 * 8 segments whose target words all hold numbers the source does not have: about 0.4 s of checks on an idle
 * core, after the thread loads its modules (seconds), so a kill 200 ms after the start is mid-evaluation.
 */
const BODY = {
  metadata: { source_language: 'en', target_language: 'es' },
  segments: Array.from({ length: 8 }, (_, segment) => ({
    source: `The file ${segment} is saved. `.repeat(400).slice(0, 10_000),
    target: Array.from({ length: 1000 }, (_, word) => `palabrx${segment}q${word}z`)
      .join(' ')
      .slice(0, 10_000),
  })),
};

const dir = mkdtempSync(join(tmpdir(), 'glossa-quality-crash-'));
const cluster = postgresForFile('the PostgreSQL quality crash tests');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Storage {
  readonly dataDir: string;
  readonly databaseUrl?: string;
}

async function submit(url: string): Promise<string> {
  const reply = await fetch(`${url}/v1/quality-evaluation`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(BODY),
  });
  expect(reply.status).toBe(202);
  return ((await reply.json()) as { job_id: string }).job_id;
}

/** Polls job `id` until it is no longer processing; the report's text. */
async function report(url: string, id: string): Promise<string> {
  const reply = await pollUntil(
    () => fetch(`${url}/v1/quality-evaluation/${id}`, { headers }),
    (polled) => polled.status !== 202,
    { timeoutMs: 180_000, intervalMs: 200, what: `${id} done` },
  );
  expect(reply.status).toBe(200);
  return reply.text();
}

/** The runner's row of job `id`, and whether it has its report (the job file `report`). */
async function rows(
  storage: Storage,
  id: string,
): Promise<{ status: string; attempt: number; report: boolean }> {
  if (storage.databaseUrl) {
    const client = new pg.Client({ connectionString: storage.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT j.status, j.attempt,
         EXISTS (SELECT 1 FROM job_files f WHERE f.job_id = j.id AND f.name = 'report') AS report
         FROM jobs j WHERE j.id = $1`,
        [id],
      );
      return rows[0];
    } finally {
      await client.end();
    }
  }
  const jobs = new Database(join(storage.dataDir, 'glossa.sqlite'), { readonly: true });
  try {
    const job = jobs.prepare('SELECT status, attempt FROM jobs WHERE id = ?').get(id) as {
      status: string;
      attempt: number;
    };
    return { ...job, report: existsSync(join(storage.dataDir, 'jobs', id, 'report')) };
  } finally {
    jobs.close();
  }
}

/**
 * On a server started again on `storage` (in this process): job `id` finishes with the report of the same
 * request run there without interruption; how many evaluations that server started for `id`.
 */
async function expectFinishedOnce(
  storage: Storage,
  id: string,
): Promise<{ evaluated: number; text: string }> {
  let evaluated = 0;
  qualityCrashPoints.evaluating = (job) => {
    if (job === id) evaluated++;
  };
  const server = await startServer({
    ...storage,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    devKey: DEV_KEY,
    features: [languageToolsFeature({ warmUp: false })],
  });
  try {
    const text = await report(server.url, id);
    const referenceId = await submit(server.url);
    const reference = await report(server.url, referenceId);
    expect(text).toBe(reference.replaceAll(referenceId, id));
    // Not billed: nothing in the account's usage.
    const usage = (await (await fetch(`${server.url}/v2/usage`, { headers })).json()) as {
      products?: { account_unit_count: number }[];
    };
    expect((usage.products ?? []).reduce((sum, product) => sum + product.account_unit_count, 0)).toBe(0);
    return { evaluated, text };
  } finally {
    delete qualityCrashPoints.evaluating;
    await server.close();
  }
}

const BACKENDS: [string, () => Promise<Storage>, boolean][] = [
  ['SQLite', async () => ({ dataDir: mkdtempSync(join(dir, 'data-')) }), false],
  [
    'PostgreSQL',
    async () => ({ dataDir: mkdtempSync(join(dir, 'data-')), databaseUrl: await cluster().createDatabase() }),
    !hasPostgres,
  ],
];

for (const [name, open, skip] of BACKENDS) {
  describe.skipIf(skip)(`quality jobs killed (SIGKILL) on the job runner (${name})`, () => {
    it('killed while its evaluation runs: run again once, its report as without the kill', async () => {
      const storage = await open();
      const crashing = await startCrashServer({
        ...storage,
        devKey: DEV_KEY,
        feature: FEATURE,
        crash: crashAt('evaluating'),
      });
      const id = await submit(crashing.url);
      expect(await crashing.exited, crashing.output()).toBe('SIGKILL');
      expect(await rows(storage, id)).toEqual({ status: 'running', attempt: 1, report: false });
      const { evaluated, text } = await expectFinishedOnce(storage, id);
      expect(evaluated).toBe(1);
      expect(JSON.parse(text)).toMatchObject({ job_id: id, status: 'done' });
      expect(await rows(storage, id)).toEqual({ status: 'completed', attempt: 2, report: true });
    }, 300_000);

    it('killed after its report is stored, before the runner completes it: completed without a second evaluation', async () => {
      const storage = await open();
      const crashing = await startCrashServer({
        ...storage,
        devKey: DEV_KEY,
        feature: FEATURE,
        crash: crashAt('afterReport'),
      });
      const id = await submit(crashing.url);
      expect(await crashing.exited, crashing.output()).toBe('SIGKILL');
      expect(await rows(storage, id)).toEqual({ status: 'running', attempt: 1, report: true });
      const { evaluated } = await expectFinishedOnce(storage, id);
      expect(evaluated).toBe(0);
      expect(await rows(storage, id)).toEqual({ status: 'completed', attempt: 2, report: true });
    }, 300_000);
  });
}

describe('a quality job that kills its server every time (SQLite)', () => {
  it(`is abandoned after ${MAX_EVALUATION_ATTEMPTS} attempts: its report says so, it is not evaluated again`, async () => {
    const storage = { dataDir: mkdtempSync(join(dir, 'data-')) };
    let id: string | undefined;
    for (let kill = 0; kill < MAX_EVALUATION_ATTEMPTS; kill++) {
      const crashing = await startCrashServer({
        ...storage,
        devKey: DEV_KEY,
        feature: FEATURE,
        crash: crashAt('evaluating'),
      });
      id ??= await submit(crashing.url);
      expect(await crashing.exited, crashing.output()).toBe('SIGKILL');
    }
    expect(await rows(storage, id!)).toEqual({
      status: 'running',
      attempt: MAX_EVALUATION_ATTEMPTS,
      report: false,
    });
    let evaluated = 0;
    qualityCrashPoints.evaluating = () => evaluated++;
    const server = await startServer({
      ...storage,
      port: 0,
      freePort: 0,
      host: '127.0.0.1',
      logger: false,
      devKey: DEV_KEY,
      features: [languageToolsFeature({ warmUp: false })],
    });
    try {
      expect(JSON.parse(await report(server.url, id!))).toMatchObject({
        job_id: id,
        status: 'error',
        error: { message: expect.stringContaining(`stopped ${MAX_EVALUATION_ATTEMPTS} times`) },
      });
      expect(evaluated).toBe(0);
    } finally {
      delete qualityCrashPoints.evaluating;
      await server.close();
    }
    expect(await rows(storage, id!)).toEqual({
      status: 'completed',
      attempt: MAX_EVALUATION_ATTEMPTS + 1,
      report: true,
    });
  }, 300_000);
});
