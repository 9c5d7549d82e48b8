/** `glossa sync`, `glossa usage` and `glossa serve`: the commands about the service itself. */
import { loadCommandConfig, type ProjectFlags, targetLocales } from '../context.js';
import { UsageError } from '../errors.js';
import { syncResources } from '../resources.js';
import { openService } from '../service.js';
import type { CommandEnv } from './translate.js';

export async function syncCommand(ctx: CommandEnv, flags: ProjectFlags): Promise<number> {
  const config = await loadCommandConfig(ctx.cwd, [], flags, ctx.env);
  const locales = targetLocales(config, flags);
  if (config.glossaries.length + config.memories.length + config.styleLists.length === 0) {
    ctx.io.out('nothing to sync: the config has no glossaries, memories or styleLists');
    return 0;
  }
  const service = await openService(config);
  try {
    const { lines } = await syncResources(service.client, config, locales);
    for (const line of lines) ctx.io.out(line);
  } finally {
    await service.close();
  }
  return 0;
}

export async function usageCommand(
  ctx: CommandEnv,
  flags: ProjectFlags & { json?: boolean },
): Promise<number> {
  const config = await loadCommandConfig(ctx.cwd, [], flags, ctx.env);
  const service = await openService(config);
  try {
    const usage = await service.client.getUsage();
    if (flags.json) ctx.io.out(JSON.stringify(usage, null, 2));
    else {
      const limit = usage.character_limit === 0 ? 'no limit' : usage.character_limit.toLocaleString('en-US');
      ctx.io.out(`characters: ${usage.character_count.toLocaleString('en-US')} of ${limit}`);
      if ('start_time' in usage) ctx.io.out(`period:     ${usage.start_time} to ${usage.end_time}`);
      ctx.io.out(`service:    ${service.embedded ? `embedded (${config.service.dataDir})` : service.url}`);
    }
  } finally {
    await service.close();
  }
  return 0;
}

function port(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--${name}: expected a port number, got '${value}'`);
  return n;
}

export interface ServeFlags extends ProjectFlags {
  readonly port?: unknown;
  readonly freePort?: unknown;
  readonly host?: string;
  readonly dataDir?: string;
}

/** Runs `@glossa/server` until SIGINT/SIGTERM (or `signal` aborts). */
export async function serveCommand(
  ctx: CommandEnv,
  flags: ServeFlags,
  signal?: AbortSignal,
): Promise<number> {
  const config = await loadCommandConfig(ctx.cwd, [], flags, ctx.env);
  const { startServer } = await import('@glossa/server');
  const server = await startServer({
    dataDir: flags.dataDir ?? config.service.dataDir,
    port: port('port', flags.port, 8080),
    freePort: port('free-port', flags.freePort, 8081),
    host: flags.host ?? '127.0.0.1',
    logger: false,
    ...(config.service.apiKey !== undefined && { devKey: config.service.apiKey }),
  });
  ctx.io.out(`glossa: serving the paid plan at ${server.url} and the free plan at ${server.freeUrl}`);
  if (server.devAccountCreated && config.service.apiKey === undefined) {
    ctx.io.err(`glossa: local development account created; its key (shown once): ${server.devKey}`);
  }
  ctx.io.out(`glossa: data in ${flags.dataDir ?? config.service.dataDir}; Ctrl-C stops`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
  });
  await server.close();
  return 0;
}
