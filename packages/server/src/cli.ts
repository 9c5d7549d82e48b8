/**
 * The `glossa-server` command: run the server, or manage accounts and keys in a data directory.
 *   glossa-server [--data-dir DIR] [--port N] [--free-port N] [--host HOST] [--log-level LEVEL]
 *   glossa-server keys create --plan paid|free [--admin] [--detection-beta] [--quality-alpha]
 *                             [--voice-jobs-alpha] [--memory-matches] [--character-limit N] [--data-dir DIR]
 */
import { parseArgs } from 'node:util';
import { createAccount } from './accounts.js';
import type { ServerFeature } from './features.js';
import { resolveOptions } from './options.js';
import { startServer } from './server.js';
import { createSqliteStorage } from './storage/sqlite.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const USAGE = `Usage:
  glossa-server [--data-dir DIR] [--port N] [--free-port N] [--host HOST] [--log-level LEVEL]
  glossa-server keys create --plan paid|free [--admin] [--detection-beta] [--quality-alpha]
                            [--voice-jobs-alpha] [--memory-matches] [--character-limit N] [--data-dir DIR]`;

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new RangeError(`--${name}: expected a whole number, got '${value}'`);
  return Number(value);
}

async function keysCreate(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      plan: { type: 'string' },
      admin: { type: 'boolean', default: false },
      'detection-beta': { type: 'boolean', default: false },
      'quality-alpha': { type: 'boolean', default: false },
      'voice-jobs-alpha': { type: 'boolean', default: false },
      'memory-matches': { type: 'boolean', default: false },
      'character-limit': { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  if (values.plan !== 'paid' && values.plan !== 'free') {
    throw new TypeError(
      `--plan: expected 'paid' or 'free', got ${values.plan === undefined ? 'nothing' : `'${values.plan}'`}`,
    );
  }
  const { dataDir } = resolveOptions(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] });
  const storage = createSqliteStorage(dataDir);
  try {
    const limit = integer('character-limit', values['character-limit']);
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

async function serve(args: string[], io: CliIo, features: readonly ServerFeature[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      'free-port': { type: 'string' },
      host: { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
    },
  });
  const port = integer('port', values.port);
  const freePort = integer('free-port', values['free-port']);
  const server = await startServer({
    ...(values['data-dir'] === undefined ? {} : { dataDir: values['data-dir'] }),
    ...(port === undefined ? {} : { port }),
    ...(freePort === undefined ? {} : { freePort }),
    ...(values.host === undefined ? {} : { host: values.host }),
    logger: values['log-level'] === 'silent' ? false : { level: values['log-level'] },
    features,
  });
  if (server.devAccountCreated && !process.env.GLOSSA_API_KEY) {
    io.err(`glossa-server: local development account created; its key (shown once): ${server.devKey}`);
  }
  // Last, so a supervisor that waits for this line has everything above.
  io.err(`glossa-server: paid plan at ${server.url}, free plan at ${server.freeUrl}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

/**
 * Runs the command with the given feature packages (the `glossa-server` of `@glossa/server-full` passes all
 * of them); returns the exit code. Misuse prints the problem and the usage (exit 2).
 */
export async function runCli(
  argv: string[],
  io: CliIo,
  features: readonly ServerFeature[] = [],
): Promise<number> {
  try {
    if (argv[0] === 'keys') {
      if (argv[1] !== 'create') throw new TypeError(`keys: expected 'create', got '${argv[1] ?? ''}'`);
      return await keysCreate(argv.slice(2), io);
    }
    if (argv[0] === '--help' || argv[0] === '-h') {
      io.out(USAGE);
      return 0;
    }
    return await serve(argv, io, features);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) {
      io.err(`glossa-server: ${error.message}`);
      io.err(USAGE);
      return 2;
    }
    throw error;
  }
}
