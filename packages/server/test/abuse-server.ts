/**
 * The spine in a child process for the abuse test (its RSS is measured from outside): gets `config` (JSON:
 * `dataDir`, `memoryBudgetMb`) as its one argument, creates a free and a paid account, and prints
 * `ready {"paid":…,"free":…,"freeKey":…,"paidKey":…}` once listening.
 */
import { subscribe } from 'node:diagnostics_channel';
import { PerformanceObserver } from 'node:perf_hooks';
import { setThreadParseBytes } from '../src/http/body.js';
import { startServer } from '../src/index.js';

// GLOSSA_ABUSE_INLINE_PARSE=1: every JSON body parsed on the event loop, as before bodies of 256 KiB and
// more went to a thread (to compare the two in the same session).
if (process.env.GLOSSA_ABUSE_INLINE_PARSE) setThreadParseBytes(Number.POSITIVE_INFINITY);

/** The paid listener's host (the normal client's): its translations are not traced one by one. */
let paidHost = '';

// GLOSSA_ABUSE_TRACE=1: event-loop stalls over 40 ms, garbage collections over 20 ms and when each abusive
// request began and was answered, on stderr (the abuse test prints them), to see what is left on the event loop.
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
  // Requests other than the normal client's short translations: when each began and ended.
  const seen = new WeakMap<object, string>();
  const at = () => Math.round(performance.now() - start);
  subscribe('http.server.request.start', (message) => {
    const { request } = message as {
      request: { method?: string; url?: string; headers: Record<string, unknown> };
    };
    const length = Number(request.headers['content-length'] ?? 0);
    if (request.url === '/v2/translate' && request.headers.host === paidHost) return;
    const name = `${request.method} ${request.url?.split('?')[0]} ${length} B`;
    seen.set(request, name);
    process.stderr.write(`request ${name} at ${at()}\n`);
  });
  subscribe('http.server.response.finish', (message) => {
    const { request, response } = message as { request: object; response: { statusCode: number } };
    const name = seen.get(request);
    if (name) process.stderr.write(`answer ${response.statusCode} ${name} at ${at()}\n`);
  });
}

const config = JSON.parse(process.argv[2]!) as {
  dataDir: string;
  memoryBudgetMb: number;
  databaseUrl?: string;
};
const server = await startServer({
  dataDir: config.dataDir,
  ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  memoryBudgetMb: config.memoryBudgetMb,
});
paidHost = new URL(server.url).host;
const free = await server.createAccount({ plan: 'free' });
const paid = await server.createAccount({ plan: 'paid' });
process.stdout.write(
  `ready ${JSON.stringify({ paid: server.url, free: server.freeUrl, freeKey: free.key, paidKey: paid.key })}\n`,
);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
