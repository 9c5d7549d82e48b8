/**
 * The spine in a child process for the endpoint growth benchmark (`growth-endpoints.ts` measures its
 * peak RSS from /proc): gets `{"dataDir": …}` as its one argument, creates a paid account, and prints
 * `ready {"url":…,"key":…}` once listening. Rate limits are off (the benchmark sends requests one by one).
 */
import { startServer } from '../src/index.js';

const config = JSON.parse(process.argv[2]!) as { dataDir: string };
const server = await startServer({
  dataDir: config.dataDir,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  rateLimit: false,
});
const paid = await server.createAccount({ plan: 'paid', memoryMatches: true });
process.stdout.write(`ready ${JSON.stringify({ url: server.url, key: paid.key })}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
