/**
 * The full server (the spine with every feature package, as `glossa-server` runs it) in a child process for
 * abuse-full.test.ts (its RSS is measured from outside). Plain JavaScript importing the package by its own
 * name, so the one file runs both ways: with `--import tsx --conditions @glossa/source` the server and its
 * worker threads load the TypeScript sources (each thread registers tsx), with plain `node` they load the
 * built `dist/` as `glossa-server` does in production.
 *
 * Which of the two abuse-full.test.ts starts: the built one with `GLOSSA_ABUSE_BUILT=1`, as CI does (`.ci/run`
 * runs `pnpm build` first, then `GLOSSA_ABUSE_BUILT=1 pnpm test`); otherwise the sources, so that a `pnpm test`
 * without a build tests the code as it is. Both are held to the same budget (`FULL_MEMORY_BUDGET_MB`,
 * 1024); from the sources tsx in every thread adds about 100 MB (peaks of 2026-11-29: built 793–854 MB,
 * sources 930 and 976), so that run has less room. Built, the child refuses to start when a package the
 * server is made of has no `dist/` or a source file newer than its `dist/` (it would measure code that is no
 * longer the code): `pnpm build` again, or run without the variable.
 *
 * Its starters (abuse-full.test.ts, bench/abuse-latency.ts) give it `MALLOC_ARENA_MAX=2` on glibc unless their
 * environment sets it, as `glossa-server` runs (src/malloc-arenas.ts, `fewArenasEnv`): glibc reads it only
 * when a process starts, and the server's RSS is measured from this process, so it is set from outside.
 *
 * Gets `config` (JSON: `dataDir`, `memoryBudgetMb`, default the full server's)
 * as its one argument, creates a free account (with quality evaluation's closed alpha) and a paid one, and
 * prints `ready {"paid":…,"free":…,"freeKey":…,"paidKey":…}` once listening. GLOSSA_ABUSE_TRACE=1 prints
 * event-loop stalls over 40 ms on stderr; GLOSSA_ABUSE_MEMORY=1 prints the main thread's memory (RSS, V8 heap
 * used and total, external) every 500 ms, to split a peak into V8's heap and the rest (SQLite, WASM, threads).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';

if (!process.execArgv.includes('@glossa/source')) refuseStaleBuild();
const { allFeatures, FULL_MEMORY_BUDGET_MB, startServer } = await import('@glossa/server-full');

/** Built: throws when server-full or a workspace package it depends on has no `dist/` or a newer source. */
function refuseStaleBuild() {
  const packages = new URL('../../', import.meta.url);
  /** The newest modification time under `dir` (milliseconds; 0 when it is empty), and its file. */
  const newest = (/** @type {URL} */ dir) =>
    readdirSync(dir, { recursive: true })
      .map((file) => ({ file: String(file), time: statSync(new URL(String(file), dir)).mtimeMs }))
      .reduce((a, b) => (b.time > a.time ? b : a), { file: '', time: 0 });
  const seen = new Set(['server-full']);
  for (const name of seen) {
    const dir = new URL(`${name}/`, packages);
    const manifest = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
    for (const dependency of Object.keys(manifest.dependencies ?? {}))
      if (dependency.startsWith('@glossa/')) seen.add(dependency.slice('@glossa/'.length));
    let built;
    try {
      built = newest(new URL('dist/', dir));
    } catch {
      throw new Error(
        `packages/${name}/dist is missing: run \`pnpm build\`, or leave GLOSSA_ABUSE_BUILT unset to run the sources`,
      );
    }
    const source = newest(new URL('src/', dir));
    if (source.time > built.time)
      throw new Error(
        `packages/${name}/src/${source.file} is newer than packages/${name}/dist: run \`pnpm build\`, or leave GLOSSA_ABUSE_BUILT unset to run the sources`,
      );
  }
}

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
