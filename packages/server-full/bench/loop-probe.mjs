/**
 * Preloaded into the abuse server's child process (`node --import …/loop-probe.mjs`) by abuse-latency.ts:
 * on each SIGUSR2 it prints, on stderr, one line `probe {…}` with what the main thread's event loop went
 * through since the previous signal, and starts again: the event-loop delay (`monitorEventLoopDelay`, 1 ms
 * resolution: how late a timer ran, i.e. how long the loop was held by one piece of work), its utilization
 * (`performance.eventLoopUtilization`: the share of wall time the loop was busy) and the main thread's GC
 * pauses (count, total and longest, from a `gc` PerformanceObserver). PROBE_STALLS=1 also prints each stall
 * of the loop over 40 ms as `stall <ms> ending at <µs>` on the clock of `--cpu-prof` profiles (hrtime), to
 * find in the profile what held the loop.
 */
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
let utilization = performance.eventLoopUtilization();
let gc = { count: 0, ms: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.count++;
    gc.ms += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

if (process.env.PROBE_STALLS) {
  let last = process.hrtime.bigint();
  setInterval(() => {
    const now = process.hrtime.bigint();
    const stalled = Number(now - last) / 1e6 - 10;
    if (stalled > 40) process.stderr.write(`stall ${Math.round(stalled)} ending at ${now / 1000n}\n`);
    last = now;
  }, 10).unref();
}

const ms = (/** @type {number} */ ns) => Math.round(ns / 1e4) / 100;
process.on('SIGUSR2', () => {
  const busy = performance.eventLoopUtilization(utilization);
  const figures = {
    delay: {
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
    },
    busy: Math.round(busy.utilization * 1000) / 1000,
    gc: { count: gc.count, ms: Math.round(gc.ms), maxMs: Math.round(gc.maxMs) },
  };
  process.stderr.write(`probe ${JSON.stringify(figures)}\n`);
  delay.reset();
  utilization = performance.eventLoopUtilization();
  gc = { count: 0, ms: 0, maxMs: 0 };
});
