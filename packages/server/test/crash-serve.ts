/**
 * The one crash server of every feature's crash tests (crash-harness.ts `startCrashServer`): a server with
 * the feature the config names, in a child process, that kills itself (SIGKILL) at the crash point the config
 * arms, or that the test kills at any moment. One argument, JSON (`CrashServerConfig`). Prints
 * `ready <url>` once listening.
 */
import { pathToFileURL } from 'node:url';
import { createApertiumEngine, startServer } from '../src/index.js';
import type { CrashServerConfig } from './crash-harness.js';

const config = JSON.parse(process.argv[2]!) as CrashServerConfig;
const load = (path: string) => import(pathToFileURL(path).href) as Promise<Record<string, unknown>>;
if (config.crash) {
  const { point, delayMs, atLeast } = config.crash;
  const hooks = (await load(config.crash.module))[config.crash.hooks] as Record<string, unknown>;
  const kill = () => process.kill(process.pid, 'SIGKILL');
  hooks[point] = (...args: unknown[]) => {
    if (atLeast && Number(args[atLeast[0]]) < atLeast[1]) return;
    if (delayMs === undefined) kill();
    else setTimeout(kill, delayMs);
  };
}
const factory = (await load(config.feature.module))[config.feature.factory] as (options?: object) => never;
const server = await startServer({
  dataDir: config.dataDir,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  devKey: config.devKey,
  features: [factory(config.feature.options ?? {})],
  ...(config.apertium ? { engines: [createApertiumEngine(config.apertium)] } : {}),
  ...(config.databaseUrl !== undefined ? { databaseUrl: config.databaseUrl } : {}),
  ...config.server,
});
process.stdout.write(`ready ${server.url}\n`);
