/**
 * Quality-evaluation jobs end to end, over HTTP on loopback, in one run: one server on SQLite (the embedded
 * default), one on PostgreSQL, and two on one PostgreSQL (submissions alternate between them); every one on
 * the server's job runner (`context.jobs`: its `jobs` table, with pg-boss wake-ups on PostgreSQL).
 * Each: `JOBS` small jobs (2 segments, en→es) submitted `CONCURRENCY` at a time; the submit latency, the
 * time until every job is done (the queue gauges of /metrics at 0), the poll latency of a done job (through
 * the other instance), and the CPU of this process (servers and client; PostgreSQL's own CPU is not
 * counted) per job, from the first submission to the last job done.
 * Run: npx tsx --conditions @glossa/source bench/quality-jobs.ts (needs Debian's postgresql).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import { BENCH_SERVER_OPTIONS } from '../../server/bench/bench-server.js';
import { startPostgres } from '../../server/test/services.js';
import { languageToolsFeature } from '../src/index.js';
import { closeHunspell } from '../src/write/hunspell.js';

const JOBS = 300;
const CONCURRENCY = 10;
const BODY = {
  metadata: { source_language: 'en', target_language: 'es' },
  segments: [
    { source: 'Keep 25 files.', target: 'Conserve 52 archivos.' },
    { source: 'Open the file now.', target: 'Abra el archivo ahora.' },
  ],
};

async function start(databaseUrl?: string): Promise<{ server: GlossaServer; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'glossa-quality-bench-'));
  const server = await startServer({
    dataDir,
    ...BENCH_SERVER_OPTIONS,
    features: [languageToolsFeature()],
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  return { server, dataDir };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function call(base: string, key: string, path: string, json?: unknown) {
  const started = performance.now();
  const response = await fetch(base + path, {
    method: json === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Service-Auth-Key ${key}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const data = (await response.json()) as { poll_url?: string; status?: string };
  return { status: response.status, data, ms: performance.now() - started };
}

async function pool<T>(count: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

async function run(name: string, bases: string[], key: string): Promise<void> {
  // Warm-up: the Spanish dictionary and the routes.
  const warm = await call(bases[0]!, key, '/v1/quality-evaluation', BODY);
  while ((await call(bases[0]!, key, warm.data.poll_url!)).status === 202)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const submitted = await pool(JOBS, (index) =>
    call(bases[index % bases.length]!, key, '/v1/quality-evaluation', BODY),
  );
  if (submitted.some((reply) => reply.status !== 202)) throw new Error(`${name}: a submission failed`);
  const submitSeconds = (performance.now() - started) / 1000;
  // Done when the queue gauges say nothing waits or runs (a poll of every job each round would measure the
  // polling); then every job is polled once, and must be done.
  for (;;) {
    const metrics = await (await fetch(`${bases[0]}/metrics`)).text();
    if (/^glossa_quality_jobs_queued 0$/m.test(metrics) && /^glossa_quality_jobs_running 0$/m.test(metrics))
      break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const drainSeconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const polls = await pool(JOBS, (index) =>
    call(bases[(index + 1) % bases.length]!, key, submitted[index]!.data.poll_url!),
  );
  if (polls.some((reply) => reply.status !== 200 || reply.data.status !== 'done'))
    throw new Error(`${name}: a job is not done`);
  const submitMs = submitted.map((reply) => reply.ms);
  const pollMs = polls.map((reply) => reply.ms);
  console.log(
    `| ${name} | ${(JOBS / submitSeconds).toFixed(0)} | ${percentile(submitMs, 0.5).toFixed(1)} / ${percentile(submitMs, 0.95).toFixed(1)} | ${drainSeconds.toFixed(2)} | ${percentile(pollMs, 0.5).toFixed(1)} / ${percentile(pollMs, 0.95).toFixed(1)} | ${((used.user + used.system) / 1000 / JOBS).toFixed(2)} |`,
  );
}

console.log(
  `${JOBS} jobs of 2 segments, ${CONCURRENCY} at a time, over HTTP on loopback (submit and poll alternate between the instances).\n`,
);
console.log(
  '| storage | submits/s | submit p50 / p95 ms | all done after s | poll of a done job p50 / p95 ms | CPU ms per job (this process) |',
);
console.log('|---|---|---|---|---|---|');
{
  const one = await start();
  const key = (await one.server.createAccount({ plan: 'paid', qualityAlpha: true })).key;
  await run('SQLite, 1 instance', [one.server.url], key);
  await one.server.close();
  rmSync(one.dataDir, { recursive: true, force: true });
}
const cluster = await startPostgres();
try {
  {
    const one = await start(await cluster.createDatabase());
    const key = (await one.server.createAccount({ plan: 'paid', qualityAlpha: true })).key;
    await run('PostgreSQL (job runner), 1 instance', [one.server.url], key);
    await one.server.close();
    rmSync(one.dataDir, { recursive: true, force: true });
  }
  {
    const url = await cluster.createDatabase();
    const a = await start(url);
    const b = await start(url);
    const key = (await a.server.createAccount({ plan: 'paid', qualityAlpha: true })).key;
    await run('PostgreSQL (job runner), 2 instances (one process)', [a.server.url, b.server.url], key);
    await a.server.close();
    await b.server.close();
    rmSync(a.dataDir, { recursive: true, force: true });
    rmSync(b.dataDir, { recursive: true, force: true });
  }
} finally {
  await cluster.stop();
  closeHunspell();
}
