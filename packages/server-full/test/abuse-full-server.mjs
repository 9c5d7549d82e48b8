/**
 * The full server (the spine with every feature package, as `glossa-server` runs it) in a child process for
 * abuse-full.test.ts (its RSS is measured from outside). Plain JavaScript importing the package by its own
 * name, so the one file runs both ways: with `--import tsx --conditions @glossa/source` the server and its
 * worker threads load the TypeScript sources (each thread registers tsx), with plain `node` they load the
 * built `dist/` as `glossa-server` does in production. Gets `config` (JSON: `dataDir`, `memoryBudgetMb`, default the full server's)
 * as its one argument, creates a free account (with quality evaluation's closed alpha) and a paid one, and
 * prints `ready {"paid":…,"free":…,"freeKey":…,"paidKey":…}` once listening. GLOSSA_ABUSE_TRACE=1 prints
 * event-loop stalls over 40 ms on stderr; GLOSSA_ABUSE_MEMORY=1 prints the main thread's memory (RSS, V8 heap
 * used and total, external) every 500 ms, to split a peak into V8's heap and the rest (SQLite, WASM, threads).
 */
import { readFileSync } from 'node:fs';
import { allFeatures, FULL_MEMORY_BUDGET_MB, startServer } from '@glossa/server-full';

if (process.env.GLOSSA_ABUSE_TRACE) {
  const start = performance.now();
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 50)
      process.stderr.write(`stall ${Math.round(now - last - 10)} ms at ${Math.round(now - start)}\n`);
    last = now;
  }, 10).unref();
}

if (process.env.GLOSSA_ABUSE_MEMORY) {
  const start = performance.now();
  const mb = (/** @type {number} */ bytes) => Math.round(bytes / 1048576);
  // RssAnon (heaps, malloc) and RssFile (mapped files: code, SQLite's mmap) from /proc; Node 20 has no heap
  // figures of a worker thread from outside it (Worker.getHeapStatistics is Node 22's).
  const status = (/** @type {string} */ field) =>
    Number(
      new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0,
    ) / 1024;
  setInterval(() => {
    const m = process.memoryUsage();
    process.stderr.write(
      `memory at ${Math.round(performance.now() - start)} ms: rss ${mb(m.rss)} heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} external ${mb(m.external)} anon ${Math.round(status('RssAnon'))} file ${Math.round(status('RssFile'))}\n`,
    );
  }, 500).unref();
}

/** @type {{ dataDir: string, memoryBudgetMb?: number }} */
const config = JSON.parse(process.argv[2] ?? '{}');
const server = await startServer({
  dataDir: config.dataDir,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  memoryBudgetMb: config.memoryBudgetMb ?? FULL_MEMORY_BUDGET_MB,
  features: allFeatures(),
});
const free = await server.createAccount({ plan: 'free', qualityAlpha: true });
const paid = await server.createAccount({ plan: 'paid' });
process.stdout.write(
  `ready ${JSON.stringify({ paid: server.url, free: server.freeUrl, freeKey: free.key, paidKey: paid.key })}\n`,
);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
