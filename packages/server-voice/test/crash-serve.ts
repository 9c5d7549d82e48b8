/**
 * A server with voice that a crash test kills (SIGKILL): itself at a voice job's crash point (job-support.ts
 * `crashPoints`), or the test at any moment (`crashPoint` absent). For voice-jobs-crash.test.ts. One
 * argument, JSON: `{ dataDir, devKey, crashPoint?, databaseUrl? }`. Prints `ready <url>` once listening.
 */
import { startServer } from '@glossa/server';
import { voiceFeature } from '../src/index.js';
import { crashPoints } from '../src/job-support.js';

const config = JSON.parse(process.argv[2]!) as {
  dataDir: string;
  devKey: string;
  crashPoint?: 'beforeFinish';
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
  features: [voiceFeature()],
  ...(config.databaseUrl !== undefined ? { databaseUrl: config.databaseUrl } : {}),
});
process.stdout.write(`ready ${server.url}\n`);
