/**
 * A server with document translation that kills itself (SIGKILL) at one of the billing's crash points
 * (job.ts `crashPoints`), for document-usage-crash.test.ts. Its engine is the real Apertium, on `modesDir`
 * when given (the test's, whose `eng-spa` pipeline exits: every en→es job fails and owes its refund). One
 * argument, JSON: `{ dataDir, devKey, crashPoint, modesDir?, databaseUrl? }`. Prints `ready <url>`.
 */
import { createApertiumEngine, startServer } from '@glossa/server';
import { documentsFeature } from '../src/index.js';
import { crashPoints } from '../src/job.js';

const config = JSON.parse(process.argv[2]!) as {
  dataDir: string;
  devKey: string;
  modesDir?: string;
  crashPoint: 'afterReserve' | 'afterFail' | 'afterRefund';
  databaseUrl?: string;
};
crashPoints[config.crashPoint] = () => process.kill(process.pid, 'SIGKILL');
const server = await startServer({
  dataDir: config.dataDir,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  devKey: config.devKey,
  engines: [createApertiumEngine(config.modesDir !== undefined ? { modesDir: config.modesDir } : {})],
  features: [documentsFeature()],
  ...(config.databaseUrl !== undefined ? { databaseUrl: config.databaseUrl } : {}),
});
process.stdout.write(`ready ${server.url}\n`);
