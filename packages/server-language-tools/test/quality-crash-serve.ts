/**
 * A server with the language tools that kills itself (SIGKILL) at a quality job's crash point (service.ts
 * `qualityCrashPoints`), for quality-jobs-crash.test.ts. One argument, JSON:
 * `{ dataDir, devKey, crashPoint, databaseUrl? }`. Prints `ready <url>` once listening.
 */
import { startServer } from '@glossa/server';
import { languageToolsFeature } from '../src/index.js';
import { qualityCrashPoints } from '../src/quality/service.js';

const config = JSON.parse(process.argv[2]!) as {
  dataDir: string;
  devKey: string;
  crashPoint: 'evaluating' | 'afterReport';
  databaseUrl?: string;
};
const kill = () => process.kill(process.pid, 'SIGKILL');
if (config.crashPoint === 'evaluating')
  // Once the thread has had a moment of the evaluation (it is running, not merely posted).
  qualityCrashPoints.evaluating = () => setTimeout(kill, 200);
else qualityCrashPoints.afterReport = kill;
const server = await startServer({
  dataDir: config.dataDir,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  devKey: config.devKey,
  features: [languageToolsFeature({ warmUp: false })],
  ...(config.databaseUrl !== undefined ? { databaseUrl: config.databaseUrl } : {}),
});
process.stdout.write(`ready ${server.url}\n`);
