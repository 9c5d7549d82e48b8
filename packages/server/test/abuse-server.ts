/**
 * The spine in a child process for the abuse test (its RSS is measured from outside): gets `config` (JSON:
 * `dataDir`, `memoryBudgetMb`) as its one argument, creates a free and a paid account, and prints
 * `ready {"paid":…,"free":…,"freeKey":…,"paidKey":…}` once listening.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { setThreadParseBytes } from '../src/http/body.js';
import { startServer } from '../src/index.js';

// GLOSSA_ABUSE_INLINE_PARSE=1: every JSON body parsed on the event loop, as before bodies of 256 KiB and
// more went to a thread (to compare the two in the same session).
if (process.env.GLOSSA_ABUSE_INLINE_PARSE) setThreadParseBytes(Number.POSITIVE_INFINITY);

// GLOSSA_ABUSE_TRACE=1: event-loop stalls over 40 ms and garbage collections over 20 ms, on stderr (the
// abuse test prints them), to see what is left on the event loop.
if (process.env.GLOSSA_ABUSE_TRACE) {
  const start = performance.now();
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 50)
      process.stderr.write(`stall ${Math.round(now - last - 10)} ms at ${Math.round(now - start)}\n`);
    last = now;
  }, 10).unref();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.duration > 20)
        process.stderr.write(
          `gc ${(entry as { detail?: { kind?: number } }).detail?.kind} ${Math.round(entry.duration)} ms at ${Math.round(entry.startTime - start)}\n`,
        );
  }).observe({ entryTypes: ['gc'] });
}

const config = JSON.parse(process.argv[2]!) as { dataDir: string; memoryBudgetMb: number };
const server = await startServer({
  dataDir: config.dataDir,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  memoryBudgetMb: config.memoryBudgetMb,
});
const free = await server.createAccount({ plan: 'free' });
const paid = await server.createAccount({ plan: 'paid' });
process.stdout.write(
  `ready ${JSON.stringify({ paid: server.url, free: server.freeUrl, freeKey: free.key, paidKey: paid.key })}\n`,
);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
