/**
 * The `glossa-server` command: run the server, or manage accounts and keys in its storage.
 *   glossa-server [--config FILE] [--SETTING VALUE ...]          (settings: cli-config.ts, `--help`)
 *   glossa-server keys create --plan paid|free [--admin] [--detection-beta] [--quality-alpha]
 *                             [--voice-jobs-alpha] [--memory-matches] [--character-limit N]
 *   glossa-server keys revoke --key KEY
 * The keys commands use the same storage settings (--data-dir, --database-url, --redis-url, --config, env).
 */
import { parseArgs } from 'node:util';
import { createAccount } from './accounts.js';
import { type CliSettings, resolveSettings, settingFlags, settingsUsage } from './cli-config.js';
import { StartRefused } from './earlier-stores.js';
import type { ServerFeature } from './features.js';
import { hashKey } from './keys.js';
import { resolveOptions } from './options.js';
import { startServer } from './server.js';
import { announceKeyRevoked } from './shared-state.js';
import { createPostgresStorage } from './storage/postgres.js';
import { createSqliteStorage } from './storage/sqlite.js';
import type { Storage } from './storage/storage.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const USAGE = `Usage:
  glossa-server [--config FILE] [--SETTING VALUE ...]
  glossa-server keys create --plan paid|free [--admin] [--detection-beta] [--quality-alpha]
                            [--voice-jobs-alpha] [--memory-matches] [--character-limit N]
  glossa-server keys revoke --key KEY
Settings (a flag wins over its environment variable, which wins over the --config file, GLOSSA_CONFIG):
${settingsUsage()}`;

/** The feature packages to serve, built from their options (`documents: {...}` of the settings). */
export type FeatureFactory = (options: CliSettings['features']) => readonly ServerFeature[];

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new RangeError(`--${name}: expected a whole number, got '${value}'`);
  return Number(value);
}

async function openStorage(settings: CliSettings): Promise<Storage> {
  const options = resolveOptions(settings.server);
  return options.databaseUrl
    ? createPostgresStorage(options.databaseUrl, { poolSize: 2 })
    : createSqliteStorage(options.dataDir);
}

async function keysCreate(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...settingFlags(),
      plan: { type: 'string' },
      admin: { type: 'boolean', default: false },
      'detection-beta': { type: 'boolean', default: false },
      'quality-alpha': { type: 'boolean', default: false },
      'voice-jobs-alpha': { type: 'boolean', default: false },
      'memory-matches': { type: 'boolean', default: false },
      'character-limit': { type: 'string' },
    },
  });
  if (values.plan !== 'paid' && values.plan !== 'free') {
    throw new TypeError(
      `--plan: expected 'paid' or 'free', got ${values.plan === undefined ? 'nothing' : `'${values.plan}'`}`,
    );
  }
  const limit = integer('character-limit', values['character-limit']);
  const storage = await openStorage(resolveSettings(values));
  try {
    const created = await createAccount(storage, {
      plan: values.plan,
      admin: values.admin,
      detectionBeta: values['detection-beta'],
      qualityAlpha: values['quality-alpha'],
      voiceJobsAlpha: values['voice-jobs-alpha'],
      memoryMatches: values['memory-matches'],
      ...(limit === undefined ? {} : { characterLimit: limit }),
    });
    io.out(`account: ${created.accountId}`);
    io.out(`key: ${created.key}`);
    io.err('The key is shown only this once; the server keeps only its hash.');
    return 0;
  } finally {
    await storage.close();
  }
}

async function keysRevoke(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { ...settingFlags(), key: { type: 'string' } } });
  if (!values.key) throw new TypeError('--key: expected the key to revoke');
  const settings = resolveSettings(values);
  const storage = await openStorage(settings);
  try {
    const hash = hashKey(values.key);
    if (!(await storage.revokeKey(hash))) {
      io.err('glossa-server: no such key');
      return 1;
    }
    io.out('revoked');
    const redisUrl = resolveOptions(settings.server).redisUrl;
    // Instances sharing this Redis forget the key at once; others within their key cache's 5 s.
    if (redisUrl) {
      await announceKeyRevoked(redisUrl, hash).catch((error: unknown) => {
        io.err(
          `glossa-server: the key is revoked, but Redis could not tell the instances (${error instanceof Error ? error.message : String(error)}); they refuse it within 5 s, when their key cache expires`,
        );
      });
    }
    return 0;
  } finally {
    await storage.close();
  }
}

async function serve(args: string[], io: CliIo, features: FeatureFactory): Promise<number> {
  const { values } = parseArgs({ args, options: settingFlags() });
  const settings = resolveSettings(values);
  const server = await startServer({ ...settings.server, features: features(settings.features) });
  if (server.devAccountCreated && !process.env.GLOSSA_API_KEY) {
    io.err(`glossa-server: local development account created; its key (shown once): ${server.devKey}`);
  }
  // Last, so a supervisor that waits for this line has everything above.
  io.err(`glossa-server: paid plan at ${server.url}, free plan at ${server.freeUrl}`);
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  // Graceful: no new connection, requests in flight answered (shutdownGraceMs), job steps finished,
  // pools closed.
  io.err(`glossa-server: ${signal}, stopping`);
  await server.close();
  io.err('glossa-server: stopped');
  return 0;
}

/**
 * Runs the command with the given feature packages, or a function building them from their settings (the
 * `glossa-server` of `@glossa/server-full` passes all of them that way); returns the exit code. Misuse prints the problem and the usage (exit 2).
 */
export async function runCli(
  argv: string[],
  io: CliIo,
  features: readonly ServerFeature[] | FeatureFactory = [],
): Promise<number> {
  try {
    if (argv[0] === 'keys') {
      if (argv[1] === 'create') return await keysCreate(argv.slice(2), io);
      if (argv[1] === 'revoke') return await keysRevoke(argv.slice(2), io);
      throw new TypeError(`keys: expected 'create' or 'revoke', got '${argv[1] ?? ''}'`);
    }
    if (argv[0] === '--help' || argv[0] === '-h') {
      io.out(USAGE);
      return 0;
    }
    return await serve(argv, io, typeof features === 'function' ? features : () => features);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) {
      io.err(`glossa-server: ${error.message}`);
      io.err(USAGE);
      return 2;
    }
    if (error instanceof StartRefused) {
      io.err(`glossa-server: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
