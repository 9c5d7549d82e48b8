/**
 * A server with document translation in a child process, for the crash tests: document-usage-crash.test.ts
 * lets it kill itself (SIGKILL) at one of the billing's crash points (document-job.ts `crashPoints`);
 * document-crash.test.ts kills it from outside at random moments. Its engine is the real Apertium, on
 * `modesDir` when given (the usage test's, whose `eng-spa` pipeline exits: every en→es job fails). One
 * argument, JSON: `{ dataDir, devKey, crashPoint?, modesDir?, databaseUrl? }`. Prints `ready <url>`.
 */
import { createApertiumEngine, startServer } from '@glossa/server';
import { crashPoints } from '../src/document-job.js';
import { documentsFeature } from '../src/index.js';

const config = JSON.parse(process.argv[2]!) as {
  dataDir: string;
  devKey: string;
  modesDir?: string;
  crashPoint?: 'afterReserve' | 'afterFail';
  databaseUrl?: string;
};
if (config.crashPoint) crashPoints[config.crashPoint] = () => process.kill(process.pid, 'SIGKILL');
const server = await startServer({
  dataDir: config.dataDir,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  devKey: config.devKey,
  rateLimit: false,
  engines: [createApertiumEngine(config.modesDir !== undefined ? { modesDir: config.modesDir } : {})],
  features: [documentsFeature()],
  // A dead instance's jobs are taken over within a fraction of a second (the test kills several).
  jobs: { sweepMs: 200, pollMs: 100 },
  ...(config.databaseUrl !== undefined ? { databaseUrl: config.databaseUrl } : {}),
});
process.stdout.write(`ready ${server.url}\n`);
