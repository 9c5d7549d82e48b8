/**
 * The embedded default (no `databaseUrl`): quality-evaluation jobs on the server's job runner (its `jobs`
 * table in `glossa.sqlite`, their request and report job files under `jobs/` of the data directory). A `glossa-server` process (test/quality-serve.ts) killed with SIGKILL while it evaluates a job runs it
 * again when it starts again on the same data directory, and its finished jobs are still answered.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, hasHaproxy, startFleet } from '../../server/test/fleet.js';

if (!hasHaproxy) console.warn('Skipping the quality restart test: it runs the server with haproxy.');

const DEV_KEY = 'restart-quality-dev-key-012345';
let fleet: Fleet;

beforeAll(async () => {
  if (!hasHaproxy) return;
  fleet = await startFleet({
    size: 1,
    devKey: DEV_KEY,
    script: new URL('./quality-serve.ts', import.meta.url).pathname,
  });
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
async function call(path: string, json?: unknown): Promise<{ status: number; data: any }> {
  const response = await fetch(`http://127.0.0.1:${fleet.instances[0]!.port}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Service-Auth-Key ${DEV_KEY}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: response.status, data: await response.json() };
}

/** The job's row in the job runner's table of the instance (read only, beside the running server). */
function row(id: string): { status: string; attempt: number } | undefined {
  const args = fleet.instances[0]!.child.spawnargs;
  const dataDir = args[args.indexOf('--data-dir') + 1]!;
  const db = new Database(join(dataDir, 'glossa.sqlite'), { readonly: true });
  try {
    return db
      .prepare(`SELECT status, attempt FROM jobs WHERE id = ? AND kind = 'quality/evaluate'`)
      .get(id) as { status: string; attempt: number } | undefined;
  } finally {
    db.close();
  }
}

describe.skipIf(!hasHaproxy)('quality-evaluation jobs of one process, across a kill -9', () => {
  it('a job running when the process is killed is run again at its next start; a finished one stays', async () => {
    const small = await call('/v1/quality-evaluation', {
      metadata: { source_language: 'en', target_language: 'es' },
      segments: [{ source: 'Keep 25 files.', target: 'Conserve 52 archivos.' }],
    });
    expect(small.status).toBe(202);
    let finished: { status: number; data: { status: string } } | undefined;
    for (let attempt = 0; attempt < 300 && finished?.status !== 200; attempt++) {
      finished = await call(small.data.poll_url);
      if (finished.status === 202) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(finished?.data.status).toBe('done');

    // Seconds of checks (7 s on an idle core): every word of the targets has numbers the source does not.
    const long = await call('/v1/quality-evaluation', {
      metadata: { source_language: 'en', target_language: 'es' },
      segments: Array.from({ length: 60 }, (_, segment) => ({
        source: `The file ${segment} is saved. `.repeat(400).slice(0, 10_000),
        target: Array.from({ length: 1000 }, (_, word) => `palabrx${segment}q${word}z`)
          .join(' ')
          .slice(0, 10_000),
      })),
    });
    expect(long.status).toBe(202);
    const deadline = Date.now() + 30_000;
    while (row(long.data.job_id)?.status !== 'running' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(row(long.data.job_id)).toEqual({ status: 'running', attempt: 1 });
    const instance = fleet.instances[0]!;
    instance.child.kill('SIGKILL');
    expect(await instance.exited).toBe('SIGKILL');
    expect(row(long.data.job_id)).toEqual({ status: 'running', attempt: 1 });

    await fleet.start(0);
    let done: { status: number; data: { status: string; summary: unknown } } | undefined;
    for (let attempt = 0; attempt < 600 && done?.status !== 200; attempt++) {
      done = await call(long.data.poll_url);
      if (done.status === 202) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(done?.status).toBe(200);
    expect(done?.data.status).toBe('done');
    expect(done?.data.summary).toMatchObject({
      granular_counts: { Accuracy: { Mistranslation: { Major: 57_840 } } },
    });
    expect(row(long.data.job_id)).toEqual({ status: 'completed', attempt: 2 });
    // The job finished before the kill is still answered after it.
    expect(await call(small.data.poll_url)).toEqual(finished);
  }, 180_000);
});
