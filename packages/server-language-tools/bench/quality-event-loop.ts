/**
 * The server's event loop during a quality-evaluation job at the input limits (500 segments of 10,000
 * characters, every target word with numbers the source lacks: about 480,000 issues, an 80 MB report), in one
 * run, on one server (SQLite, in this process):
 *
 * - after: the job submitted over HTTP and evaluated on a worker thread (src/quality/pool.ts), as the server
 *   runs it now;
 * - before: the same job evaluated on the event loop (`evaluate` and the report's JSON.stringify, what the
 *   job runner did before the worker threads); its report must equal the stored one byte for byte;
 * - the poll of the finished report (by curl): as the server answers it now (the stored report as is, gzip, or
 *   decompressed on libuv's thread pool for a client that does not accept gzip), and what it did before (parse
 *   the stored JSON, serialize it again), in-process.
 *
 * - a synchronous evaluation (`POST /v3/quality/evaluate`) of a 0.9 MiB body (50 of those segments): as the
 *   server runs it now (on a worker thread of the same pool), and as before, on a second server in this
 *   process with `syncOnEventLoop` (the old path, the same run's baseline); both answers must be equal byte
 *   for byte. Each is probed through its own server's `/ready` (both servers share this event loop).
 *
 * Meanwhile another process asks `/ready` every 100 ms (as a load balancer would) and this one records the
 * event loop's delay (monitorEventLoopDelay) and its RSS every 100 ms.
 * Run: npx tsx --conditions @glossa/source bench/quality-event-loop.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { startServer } from '@glossa/server';
import { BENCH_SERVER_OPTIONS } from '../../server/bench/bench-server.js';
import { languageToolsFeature } from '../src/index.js';
import { evaluate } from '../src/quality/evaluate.js';
import { closeHunspell } from '../src/write/hunspell.js';

const segments = Array.from({ length: 500 }, (_, segment) => ({
  source: `The file ${segment} is saved. `.repeat(400).slice(0, 10_000),
  target: Array.from({ length: 1000 }, (_, word) => `palabrx${segment}q${word}z`)
    .join(' ')
    .slice(0, 10_000),
}));
const body = { metadata: { source_language: 'en', target_language: 'es' }, segments };

const dataDir = mkdtempSync(join(tmpdir(), 'glossa-quality-loop-'));
// Two servers in this process, with the bench's own copies of the bodies: a budget for both (the default one
// server's made the memory admission refuse the synchronous alias with 503).
const options = { dataDir, ...BENCH_SERVER_OPTIONS, memoryBudgetMb: 2048 };
const server = await startServer({ ...options, features: [languageToolsFeature()] });
const loopDir = mkdtempSync(join(tmpdir(), 'glossa-quality-loop-'));
// The old path of the synchronous alias, for its baseline.
const onLoop = await startServer({
  ...options,
  dataDir: loopDir,
  features: [languageToolsFeature({ quality: { syncOnEventLoop: true } })],
});
const key = (await server.createAccount({ plan: 'paid', qualityAlpha: true })).key;
const loopKey = (await onLoop.createAccount({ plan: 'paid', qualityAlpha: true })).key;
const headers = { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' };

/** A prober: one /ready at a time, 100 ms apart; `<epoch ms> <latency ms>` per answer. */
function probe(url: string): { probes: [number, number][]; stop(): void } {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const url = process.argv[1];
       (async () => { while ((await fetch(url)).status !== 200) await new Promise((ok) => setTimeout(ok, 100));
         for (;;) { const t = Date.now(); const r = await fetch(url);
         if (r.status !== 200) process.exit(1); await r.text();
         console.log(t + ' ' + (Date.now() - t)); await new Promise((ok) => setTimeout(ok, 100)); } })();`,
      `${url}/ready`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const probes: [number, number][] = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) probes.push(line.split(' ').map(Number) as [number, number]);
  });
  return { probes, stop: () => child.kill() };
}
const prober = probe(server.url);
const loopProber = probe(onLoop.url);

const MiB = 2 ** 20;
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);

/** Runs `work`, then says how the event loop and /ready (of `probes`) fared meanwhile; the slowest /ready. */
async function phase(
  name: string,
  work: () => Promise<void>,
  pause = 1000,
  probes = prober.probes,
): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, pause));
  peakRss = process.memoryUsage().rss;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The histogram starts with its timer's first run.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const from = Date.now();
  await work();
  const to = Date.now();
  // The histogram records a delay when its timer runs late: let it run once more.
  await new Promise((resolve) => setTimeout(resolve, 50));
  delay.disable();
  // Probes sent during the phase, and the one in flight when it ended.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const during = probes.filter(([sent, ms]) => sent + ms >= from && sent <= to).map(([, ms]) => ms);
  during.sort((a, b) => a - b);
  console.log(
    `| ${name} | ${((to - from) / 1000).toFixed(1)} | ${(delay.max / 1e6).toFixed(0)} / ${(delay.percentile(99) / 1e6).toFixed(0)} | ${during.length} | ${during[Math.floor(during.length / 2)]} / ${during.at(-1)} | ${(peakRss / MiB).toFixed(0)} |`,
  );
  return during.at(-1) ?? Number.NaN;
}

// Warm-up: the Spanish dictionary, the routes, a worker thread.
const warm = await fetch(`${server.url}/v1/quality-evaluation`, {
  method: 'POST',
  headers,
  body: JSON.stringify({ ...body, segments: segments.slice(0, 1) }),
});
const warmUrl = ((await warm.json()) as { poll_url: string }).poll_url;
while ((await fetch(server.url + warmUrl, { headers })).status === 202)
  await new Promise((resolve) => setTimeout(resolve, 50));

console.log(`one job of ${segments.length} segments of 10,000 characters (en → es); /ready every 100 ms\n`);
console.log(
  '| phase | s | event-loop delay max / p99 ms | /ready answers | /ready p50 / max ms | peak RSS MiB |',
);
console.log('|---|---|---|---|---|---|');
let id = '';
let pollUrl = '';
const text = JSON.stringify(body);
await phase('submission (10 MB of JSON; the same before and after)', async () => {
  const created = await fetch(`${server.url}/v1/quality-evaluation`, { method: 'POST', headers, body: text });
  ({ job_id: id, poll_url: pollUrl } = (await created.json()) as { job_id: string; poll_url: string });
});
await phase(
  'after: the job on a worker thread',
  async () => {
    for (;;) {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      if (/^glossa_quality_jobs_queued 0$/m.test(metrics) && /^glossa_quality_jobs_running 0$/m.test(metrics))
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  },
  0,
);
let json = '';
await phase('before: the same job on the event loop', async () => {
  const request = {
    sourceLang: 'en',
    targetLang: 'es',
    segments: segments.map(({ source, target }) => ({ source, translation: target })),
  };
  json = JSON.stringify(await evaluate(id, request));
});
/** Polls the finished job from another process, as a client would; the size of the answer (decompressed). */
async function poll(compressed: boolean): Promise<number> {
  const curl = spawn(
    'curl',
    [
      '-s',
      ...(compressed ? ['--compressed'] : []),
      '-H',
      `authorization: ${headers.authorization}`,
      server.url + pollUrl,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let size = 0;
  curl.stdout.on('data', (chunk: Buffer) => {
    size += chunk.length;
  });
  await new Promise((resolve) => curl.on('close', resolve));
  return size;
}
let size = 0;
let plainSize = 0;
await phase('after: poll, the client accepts gzip (the stored report as is)', async () => {
  size = await poll(true);
});
await phase('after: poll, the client does not accept gzip (decompressed)', async () => {
  plainSize = await poll(false);
});
await phase('before: the poll parsed the stored report and serialized it again', async () => {
  JSON.stringify(JSON.parse(json));
});

// The synchronous alias: a 0.9 MiB body, on a worker thread (now) and on the event loop (before), twice each.
const syncBody = JSON.stringify({
  source_lang: 'en',
  target_lang: 'es',
  segments: segments.slice(0, 50).map(({ source, target }) => ({ source, translation: target })),
});
const answers: string[] = [];
const evaluateOn = (url: string, authorization: string) => async () => {
  const reply = await fetch(`${url}/v3/quality/evaluate`, {
    method: 'POST',
    headers: { ...headers, authorization },
    body: syncBody,
  });
  if (reply.status !== 200) throw new Error(`/v3/quality/evaluate: ${reply.status}`);
  answers.push(await reply.text());
};
const slowest = { thread: [] as number[], loop: [] as number[] };
for (let round = 1; round <= 2; round++) {
  slowest.thread.push(
    await phase(
      `now: POST /v3/quality/evaluate, ${(syncBody.length / MiB).toFixed(2)} MiB, on a worker thread (${round})`,
      evaluateOn(server.url, headers.authorization),
    ),
  );
  slowest.loop.push(
    await phase(
      `before: the same on the event loop (syncOnEventLoop) (${round})`,
      evaluateOn(onLoop.url, `Service-Auth-Key ${loopKey}`),
      1000,
      loopProber.probes,
    ),
  );
}

// The job's report file (the SQLite backend's job files: <data dir>/jobs/<job id>/report, gzip-compressed).
const compressed = readFileSync(join(dataDir, 'jobs', encodeURIComponent(id), 'report'));
const stored = gunzipSync(compressed).toString();
console.log(
  `\nreport ${(stored.length / 1e6).toFixed(1)} MB, stored gzip-compressed in ${(compressed.length / 1e6).toFixed(1)} MB (poll answers ${(size / 1e6).toFixed(1)} / ${(plainSize / 1e6).toFixed(1)} MB); stored report equals the in-process one byte for byte: ${stored === json}`,
);
if (stored !== json || size !== Buffer.byteLength(json) || plainSize !== size)
  throw new Error('the reports differ');

const worst = (list: number[]) => Math.max(...list);
console.log(
  `synchronous evaluation: answers equal byte for byte: ${new Set(answers).size === 1} (${answers.length}); slowest /ready on the event loop ${worst(slowest.loop)} ms, on a thread ${worst(slowest.thread)} ms: ${(worst(slowest.loop) / worst(slowest.thread)).toFixed(1)}× less`,
);
if (new Set(answers).size !== 1) throw new Error('the synchronous answers differ');

clearInterval(sampler);
prober.stop();
loopProber.stop();
await Promise.all([server.close(), onLoop.close()]);
closeHunspell();
rmSync(dataDir, { recursive: true, force: true });
rmSync(loopDir, { recursive: true, force: true });
