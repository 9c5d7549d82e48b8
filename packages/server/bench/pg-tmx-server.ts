/**
 * The spine on PostgreSQL in a child process for `pg-tmx-import.ts`: `test/abuse-server.ts` (its config
 * with `databaseUrl`; it prints `ready {…}`) with a probe of the event loop. On SIGUSR2 it prints
 * `loop {…}`: the event loop's busy share and the longest stalls (gaps between two 5 ms ticks over 50 ms,
 * with when they began, ms since the probe started) since the last report.
 */
import { performance } from 'node:perf_hooks';

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

await import('../test/abuse-server.js');
