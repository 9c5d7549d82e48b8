/**
 * Quality-evaluation jobs on a fleet (issue 19): two `glossa-server` processes with the language tools
 * (test/quality-serve.ts) on one real PostgreSQL, behind a real haproxy (round robin). A job submitted
 * through one instance is polled to done through the other; another account gets 404 on both; the
 * per-account limit holds across instances (429), with concurrent submissions through both; an instance
 * killed (SIGKILL) while it evaluates a job leaves it to the other (the job runner's takeover), which finishes
 * it once (its request and report are job files, which every instance reads).
 * The shared acceptance checks of the language tools pass against the fleet.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, hasHaproxy, startFleet } from '../../server/test/fleet.js';
import { hasPostgres, sharedPostgres, stopSharedPostgres } from '../../server/test/services.js';

const ready = hasPostgres && hasHaproxy;
if (!ready) console.warn('Skipping the quality fleet tests: they need postgresql and haproxy installed.');

const DEV_KEY = 'fleet-quality-dev-key-0123456';
let fleet: Fleet;
let database: pg.Pool;

beforeAll(async () => {
  if (!ready) return;
  const databaseUrl = await (await sharedPostgres()).createDatabase();
  database = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  database.on('error', () => {});
  fleet = await startFleet({
    size: 2,
    databaseUrl,
    devKey: DEV_KEY,
    script: new URL('./quality-serve.ts', import.meta.url).pathname,
    // Without Redis the request rate limit is per instance; off, so that only the job limit answers 429.
    flags: ['--rate-limit', 'off'],
  });
}, 180_000);

afterAll(async () => {
  await database?.end();
  await fleet?.stop();
  await stopSharedPostgres();
});

const base = (index: number) => `http://127.0.0.1:${fleet.instances[index]!.port}`;

/** A new paid account with the quality alpha: its id and key. */
async function newAccount(): Promise<{ id: string; key: string }> {
  const created = await fleet.run(['keys', 'create', '--plan', 'paid', '--quality-alpha']);
  const id = /^account: (\S+)$/m.exec(created.stdout)?.[1];
  const key = /^key: (\S+)$/m.exec(created.stdout)?.[1];
  if (!id || !key) throw new Error(`keys create failed: ${created.stderr}`);
  return { id, key };
}

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Reply = { status: number; data: any };

async function call(url: string, key: string, path: string, json?: unknown): Promise<Reply> {
  const response = await fetch(`${url}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Service-Auth-Key ${key}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  return { status: response.status, data: text ? JSON.parse(text) : undefined };
}

const submit = (url: string, key: string, body: unknown) => call(url, key, '/v1/quality-evaluation', body);

/** Polls through `url` until the job is no longer processing. */
async function result(url: string, key: string, pollUrl: string, timeoutMs = 60_000): Promise<Reply> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await call(url, key, pollUrl);
    if (reply.status !== 202) return reply;
    if (Date.now() > deadline) throw new Error(`${pollUrl} still processing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const SMALL = {
  metadata: { source_language: 'en', target_language: 'es' },
  segments: [
    { source: 'Keep 25 files.', target: 'Conserve 52 archivos.' },
    { source: 'Open the file now.', target: 'Abra el archivo ahora.' },
  ],
};

describe.skipIf(!ready)('quality-evaluation jobs on two instances on one PostgreSQL', () => {
  it('a job submitted on one instance is polled to done on the other; another account gets 404 on both', async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    for (const [from, to] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const created = await submit(base(from), owner.key, SMALL);
      expect(created.status).toBe(202);
      const done = await result(base(to), owner.key, created.data.poll_url);
      expect(done.status).toBe(200);
      expect(done.data).toMatchObject({
        job_id: created.data.job_id,
        status: 'done',
        segments: [
          {
            segment_index: 0,
            errors: [
              {
                type: 'Accuracy',
                sub_type: 'Mistranslation',
                severity: 'Major',
                explanation: 'The number 52 differs from 25 in the source.',
              },
            ],
          },
          { segment_index: 1, errors: [] },
        ],
        summary: { overall_score: 95 },
      });
      // The same report through the instance that took it.
      expect(await call(base(from), owner.key, created.data.poll_url)).toEqual(done);
      for (const index of [0, 1]) {
        const other = await call(base(index), stranger.key, created.data.poll_url);
        expect(other.status).toBe(404);
        expect(other.data.message).toBe('Quality estimation job not found.');
      }
    }
    // A job_id the servers never gave is unknown on both.
    for (const index of [0, 1])
      expect((await call(base(index), owner.key, `/v1/quality-evaluation/${randomUUID()}`)).status).toBe(404);
    // Through the balancer too: each request may reach either instance.
    const created = await submit(fleet.url, owner.key, SMALL);
    expect((await result(fleet.url, owner.key, created.data.poll_url)).data.status).toBe('done');
    // Every instance reports the shared queue: nothing waiting, nothing running.
    for (const index of [0, 1]) {
      const metrics = await (await fetch(`${base(index)}/metrics`)).text();
      expect(metrics).toMatch(/^glossa_quality_jobs_queued 0$/m);
      expect(metrics).toMatch(/^glossa_quality_jobs_running 0$/m);
    }
  }, 120_000);

  it('the limit of 1,000 jobs per account holds across instances: concurrent submissions through both, then 429 on both', async () => {
    const account = await newAccount();
    // 985 jobs the account already holds (finished, not expired), 5 that expired (they no longer count).
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    await database.query(
      `INSERT INTO jobs (id, kind, account_id, status, input, result, run_after, expires_at, created_at, updated_at)
       SELECT gen_random_uuid()::text, 'quality/evaluate', $1, 'completed', '{}', 'null', $2,
         CASE WHEN n <= 985 THEN $3 ELSE $4 END, $2, $2
       FROM generate_series(1, 990) AS n`,
      [account.id, at(0), at(3_600_000), at(-1000)],
    );
    // 5 through each instance: 995 held.
    for (let index = 0; index < 10; index++)
      expect((await submit(base(index % 2), account.key, SMALL)).status).toBe(202);
    // 20 at once, 10 through each instance: exactly the 5 left are accepted.
    const raced = await Promise.all(
      Array.from({ length: 20 }, (_, index) => submit(base(index % 2), account.key, SMALL)),
    );
    const statuses = raced.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect(raced.find((reply) => reply.status === 429)!.data.message).toBe(
      'Too many jobs: an account may hold 1000 jobs of quality/evaluate.',
    );
    const { rows } = await database.query(
      `SELECT COUNT(*)::int AS n FROM jobs WHERE account_id = $1 AND kind = 'quality/evaluate'
       AND (expires_at IS NULL OR expires_at > $2)`,
      [account.id, new Date().toISOString()],
    );
    expect(rows[0].n).toBe(1000);
    for (const index of [0, 1]) expect((await submit(base(index), account.key, SMALL)).status).toBe(429);
    // Another account is not affected.
    expect((await submit(base(1), (await newAccount()).key, SMALL)).status).toBe(202);
  }, 120_000);

  it('an instance killed (SIGKILL) while it evaluates a job leaves it to the other: finished once', async () => {
    const account = await newAccount();
    // Seconds of checks (7 s on an idle core): 60 segments of 10,000 characters, each target word with
    // numbers that the source does not have.
    const segments = Array.from({ length: 60 }, (_, segment) => ({
      source: `The file ${segment} is saved. `.repeat(400).slice(0, 10_000),
      target: Array.from({ length: 1000 }, (_, word) => `palabrx${segment}q${word}z`)
        .join(' ')
        .slice(0, 10_000),
    }));
    const created = await submit(fleet.url, account.key, {
      metadata: { source_language: 'en', target_language: 'es' },
      segments,
    });
    expect(created.status).toBe(202);

    let row: { owner: string; attempt: number } | undefined;
    const deadline = Date.now() + 60_000;
    while (!row && Date.now() < deadline) {
      const { rows } = await database.query('SELECT owner, attempt, status FROM jobs WHERE id = $1', [
        created.data.job_id,
      ]);
      if (rows[0]?.status === 'running') row = rows[0];
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(row, 'the job did not start within 60 s').toBeDefined();
    expect(row!.attempt).toBe(1);
    const victim = fleet.indexOfOwner(row!.owner);
    fleet.instances[victim]!.child.kill('SIGKILL');
    expect(await fleet.instances[victim]!.exited).toBe('SIGKILL');
    // Still running on the dead instance's lease, as the database sees it: the survivor's runner takes it over.
    const survivor = base(1 - victim);
    const done = await result(survivor, account.key, created.data.poll_url, 180_000);
    expect(done.status).toBe(200);
    expect(done.data.status).toBe('done');
    expect(done.data.segments).toHaveLength(60);
    // Every number of the targets is reported (the checks ran whole on the survivor).
    expect(done.data.segments[59].errors).toHaveLength(949);
    expect(done.data.summary.granular_counts.Accuracy).toEqual({ Mistranslation: { Major: 57_840 } });
    const { rows } = await database.query(
      `SELECT j.attempt, j.status, (SELECT array_agg(f.name ORDER BY f.name) FROM job_files f
       WHERE f.job_id = j.id) AS files FROM jobs j WHERE j.id = $1`,
      [created.data.job_id],
    );
    expect(rows[0]).toEqual({ attempt: 2, status: 'completed', files: ['report', 'request'] });
    // The killed instance, started again, answers the job too.
    await fleet.start(victim);
    const again = await call(base(victim), account.key, created.data.poll_url);
    expect(again.status).toBe(200);
    expect(again.data).toEqual(done.data);
  }, 300_000);

  const acceptance = '/work/shared/acceptance/language-tools.mjs';
  it.skipIf(!existsSync(acceptance))(
    'passes the shared acceptance checks of the language tools through the balancer',
    async () => {
      const child = spawn(process.execPath, [acceptance, fleet.url, DEV_KEY], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(output).toMatch(/: (\d+)\/\1 checks pass/);
      expect(code, output).toBe(0);
    },
    300_000,
  );
});
