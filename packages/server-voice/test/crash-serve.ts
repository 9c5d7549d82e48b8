/**
 * A server with voice that a crash test kills (SIGKILL): itself at a voice job's crash point (job-support.ts
 * `crashPoints`), or the test at any moment (`crashPoint` absent). For voice-jobs-crash.test.ts. One
 * argument, JSON: `{ dataDir, devKey, crashPoint?, crashAfterChunks?, jobChunkSeconds?, databaseUrl? }`. Prints `ready <url>` once listening.
 */
import { startServer } from '@glossa/server';
import { voiceFeature } from '../src/index.js';
import { crashPoints } from '../src/job-support.js';

const config = JSON.parse(process.argv[2]!) as {
  dataDir: string;
  devKey: string;
  crashPoint?: 'beforeFinish' | 'afterChunk';
  /** With `crashPoint: 'afterChunk'`: killed once this many chunks of a job are checkpointed. */
  crashAfterChunks?: number;
  jobChunkSeconds?: number;
  databaseUrl?: string;
};
const kill = () => process.kill(process.pid, 'SIGKILL');
if (config.crashPoint === 'beforeFinish') crashPoints.beforeFinish = kill;
if (config.crashPoint === 'afterChunk')
  crashPoints.afterChunk = (_id, chunks) => {
    if (chunks >= (config.crashAfterChunks ?? 1)) kill();
  };
const server = await startServer({
  dataDir: config.dataDir,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  devKey: config.devKey,
  features: [
    voiceFeature(config.jobChunkSeconds !== undefined ? { jobChunkSeconds: config.jobChunkSeconds } : {}),
  ],
  ...(config.databaseUrl !== undefined ? { databaseUrl: config.databaseUrl } : {}),
});
process.stdout.write(`ready ${server.url}\n`);
