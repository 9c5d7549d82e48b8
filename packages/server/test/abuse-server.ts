/**
 * The spine in a child process for the abuse test (its RSS is measured from outside): gets `config` (JSON:
 * `dataDir`, `memoryBudgetMb`) as its one argument, creates a free and a paid account, and prints
 * `ready {"paid":…,"free":…,"freeKey":…,"paidKey":…}` once listening.
 */
import { startServer } from '../src/index.js';

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
