/**
 * A server with voice that kills itself (SIGKILL) at one of a voice job's crash points (usage.ts
 * `crashPoints`), for voice-usage-crash.test.ts, voice-usage-prune.test.ts and voice-leftovers.test.ts.
 * One argument, JSON: `{ dataDir, devKey, crashPoint, databaseUrl? }`. Prints `ready <url>` once
 * listening.
 */
import { startServer } from '@glossa/server';
import { voiceFeature } from '../src/index.js';
import { crashPoints } from '../src/usage.js';

const config = JSON.parse(process.argv[2]!) as {
  dataDir: string;
  devKey: string;
  crashPoint: 'afterFinish' | 'afterUsage' | 'afterAudio';
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
  features: [voiceFeature()],
  ...(config.databaseUrl !== undefined ? { databaseUrl: config.databaseUrl } : {}),
});
process.stdout.write(`ready ${server.url}\n`);
