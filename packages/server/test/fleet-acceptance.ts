/**
 * Runs acceptance scripts (the shared wire checks, e.g. /work/shared/acceptance/resources.mjs) against a
 * fleet of two `glossa-server` instances on one PostgreSQL and one Redis behind haproxy, as they run
 * against one instance on SQLite. Starts and stops everything itself.
 *
 *   node --import tsx --conditions @glossa/source test/fleet-acceptance.ts [--entry ENTRY.ts] \
 *     SCRIPT.mjs [ARG ...] [--and SCRIPT.mjs [ARG ...]] ...
 *
 * Each script is run as `node SCRIPT BASE_URL KEY ARG...` (BASE_URL: the balancer); the exit code is
 * non-zero when a script fails. The instances run test/serve.ts (the spine alone) unless `--entry` names
 * another `runCli` entry, e.g. packages/server-full/src/bin.ts for every feature.
 */
import { spawn } from 'node:child_process';
import { startFleet } from './fleet.js';
import { startPostgres, startRedis } from './services.js';

const args = process.argv.slice(2);
let entry: string | undefined;
if (args[0] === '--entry') {
  entry = args[1];
  args.splice(0, 2);
}
/** Each script with its own arguments: the command line split at `--and`. */
const scripts: string[][] = [[]];
for (const arg of args) {
  if (arg === '--and') scripts.push([]);
  else scripts.at(-1)!.push(arg);
}
if (scripts.some((script) => script.length === 0)) {
  console.error(
    'usage: fleet-acceptance.ts [--entry ENTRY.ts] SCRIPT.mjs [ARG ...] [--and SCRIPT.mjs [ARG ...]] ...',
  );
  process.exit(2);
}

const DEV_KEY = 'fleet-acceptance-key-0123456789';
const cluster = await startPostgres();
const redis = await startRedis();
let failed = 0;
try {
  const fleet = await startFleet({
    size: 2,
    databaseUrl: await cluster.createDatabase(),
    redisUrl: redis.url,
    devKey: DEV_KEY,
    flags: ['--engines', 'pseudo,apertium'],
    ...(entry === undefined ? {} : { script: entry }),
  });
  try {
    for (const [script, ...scriptArgs] of scripts) {
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [script!, fleet.url, DEV_KEY, ...scriptArgs], {
          stdio: 'inherit',
        });
        child.on('exit', resolve);
      });
      if (code !== 0) failed++;
    }
    const served = new Set(
      fleet.balancerLog.map((line) => /instances\/(glossa\d+)/.exec(line)?.[1]).filter(Boolean),
    );
    console.log(`balancer: ${fleet.balancerLog.length} requests over ${[...served].sort().join(', ')}`);
  } finally {
    await fleet.stop();
  }
} finally {
  await redis.stop();
  await cluster.stop();
}
process.exit(failed === 0 ? 0 : 1);
