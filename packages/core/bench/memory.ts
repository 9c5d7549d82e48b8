// Peak memory of a 100,000-segment catalog run (real server, pseudo engine, file cache and lock), in a
// child process, against a baseline child that only builds the same catalog. Target: peak RSS <= 400 MB.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '@glossa/server';

const N = Number(process.env.BENCH_SEGMENTS ?? 100_000);
const dir = await mkdtemp(join(tmpdir(), 'glossa-bench-memory-'));
const server = await startServer({
  dataDir: join(dir, 'data'),
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
});
// Asynchronous on purpose: the server runs in this process and must keep answering.
const child = async (mode: string) => {
  const started = performance.now();
  const { stdout: out } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions',
      '@glossa/source',
      join(import.meta.dirname, 'rss-child.ts'),
      mode,
      String(N),
      dir,
    ],
    {
      env: { ...process.env, BENCH_URL: server.url, BENCH_KEY: server.devKey },
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  return { ...JSON.parse(out.trim().split('\n').at(-1)!), ms: Math.round(performance.now() - started) };
};
const baseline = await child('baseline');
const run = await child('run');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
console.log(
  `core memory benchmark: ${N}-segment catalog, real server (pseudo engine en-XA), file cache + lock`,
);
console.log('| process | peak RSS (MB) | ms | details |');
console.log('|---|---|---|---|');
console.log(`| baseline: build the catalog only | ${mb(baseline.maxRss)} | ${baseline.ms} | |`);
console.log(`| full run | ${mb(run.maxRss)} | ${run.ms} | ${JSON.stringify(run.report)} |`);
console.log(
  `ratio full run / baseline: ${(run.maxRss / baseline.maxRss).toFixed(2)}; target peak RSS <= 400 MB: ${run.maxRss <= 400 * 1024 * 1024 ? 'met' : 'NOT met'}`,
);
await server.close();
await rm(dir, { recursive: true, force: true });
if (run.maxRss > 400 * 1024 * 1024) process.exitCode = 1;
