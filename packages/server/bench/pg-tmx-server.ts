/**
 * The spine on PostgreSQL in a child process for `pg-tmx-import.ts`: `config` (JSON: `dataDir`, `databaseUrl`)
 * as its one argument; a free and a paid account; prints `ready {…}` as `test/abuse-server.ts` does. On
 * SIGUSR2 it prints `loop {…}`: the event loop's busy share and the longest stalls (gaps between two 5 ms
 * ticks over 50 ms, with when they began) since the last report.
 */
import { performance } from 'node:perf_hooks';
import { createPostgresStorage, startServer } from '../src/index.js';

const config = JSON.parse(process.argv[2]!) as { dataDir: string; databaseUrl: string };
const origin = performance.now();
let last = performance.now();
let stalls: [number, number][] = [];
let elu = performance.eventLoopUtilization();
setInterval(() => {
  const now = performance.now();
  if (now - last > 55) stalls.push([Math.round(now - last - 5), Math.round(last - origin)]);
  last = now;
}, 5).unref();
process.on('SIGUSR2', () => {
  const used = performance.eventLoopUtilization(elu);
  elu = performance.eventLoopUtilization();
  const longest = stalls.sort((a, b) => b[0] - a[0]).slice(0, 5);
  stalls = [];
  process.stdout.write(
    `loop ${JSON.stringify({ busy: used.utilization, busyMs: used.active, stalls: longest })}\n`,
  );
});

const storage = await createPostgresStorage(config.databaseUrl, { poolSize: 4 });
const server = await startServer({
  dataDir: config.dataDir,
  storage,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
});
const free = await server.createAccount({ plan: 'free' });
const paid = await server.createAccount({ plan: 'paid' });
process.stdout.write(
  `ready ${JSON.stringify({ paid: server.url, free: server.freeUrl, freeKey: free.key, paidKey: paid.key })}\n`,
);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
