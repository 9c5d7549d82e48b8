/**
 * A server in a child process for the endpoint growth benchmarks (`growth-endpoints.ts`, and the full
 * server's bench/growth-features.ts through `serveForGrowth`; they measure its peak RSS from /proc): gets
 * `{"dataDir": …}` as its one argument, creates one account, waits for `/ready` and prints
 * `ready {"url":…,"key":…}`; SIGUSR2 collects its garbage. Rate limits are off (the benchmarks send
 * requests one by one). Run as a script, it is the spine with a paid account that has memory matches.
 */
import { pathToFileURL } from 'node:url';
import { type CreateAccountOptions, type CreateServerOptions, startServer } from '../src/index.js';

/** Starts the server with `options` (features, budget) and an account of `account`; prints `ready {…}`. */
export async function serveForGrowth(
  options: Partial<CreateServerOptions>,
  account: CreateAccountOptions,
): Promise<void> {
  const config = JSON.parse(process.argv[2]!) as { dataDir: string };
  const server = await startServer({
    ...options,
    dataDir: config.dataDir,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    rateLimit: false,
  });
  const created = await server.createAccount(account);
  while ((await fetch(`${server.url}/ready`)).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 250));
  process.stdout.write(`ready ${JSON.stringify({ url: server.url, key: created.key })}\n`);
  // The benchmark asks for a collection before each measurement (the child runs with --expose-gc).
  process.on('SIGUSR2', () => (globalThis as { gc?: () => void }).gc?.());
  process.once('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href)
  await serveForGrowth({}, { plan: 'paid', memoryMatches: true });
