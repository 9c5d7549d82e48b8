/** What every project command starts from: the config (found next to the inputs or in `cwd`) and the locales. */
import { dirname, isAbsolute, resolve } from 'node:path';
import { ConfigError, findConfigFile, loadConfig, type ResolvedConfig } from '@glossa/core';
import { canonicalLanguage } from '@glossa/protocol';
import { isDynamicPattern } from 'tinyglobby';
import { UsageError } from './errors.js';

export interface ProjectFlags {
  readonly config?: string;
  readonly to?: string;
  readonly out?: string;
}

/** Parses `--to es,en-XA` into canonical codes. */
export function parseLocales(value: unknown): string[] {
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError('--to: expected locales, e.g. --to es,en-XA');
  return value.split(',').map((code) => {
    const canonical = canonicalLanguage(code);
    if (canonical === undefined) throw new UsageError(`--to: unknown language code '${code.trim()}'`);
    return canonical;
  });
}

/**
 * Loads the config: `--config`, else the nearest `glossa.config.*` above the first path argument, else
 * above `cwd`; no file: defaults rooted at `cwd`. `--out` is relative to `cwd`.
 */
export async function loadCommandConfig(
  cwd: string,
  args: readonly string[],
  flags: ProjectFlags,
  env: NodeJS.ProcessEnv,
) {
  let configFile = flags.config === undefined ? undefined : resolve(cwd, flags.config);
  const firstPath = args.find((a) => !isDynamicPattern(a));
  if (configFile === undefined && firstPath !== undefined) {
    const start = resolve(cwd, firstPath);
    configFile = (await findConfigFile(dirname(start))) ?? undefined;
  }
  let config: ResolvedConfig;
  try {
    config = await loadConfig({
      cwd,
      ...(configFile !== undefined && { configFile }),
      ...(flags.out !== undefined && {
        overrides: { out: isAbsolute(flags.out) ? flags.out : resolve(cwd, flags.out) },
      }),
      env,
    });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  return config;
}

/** The locales of a command: `--to`, else the config's `targetLocales`. */
export function targetLocales(config: ResolvedConfig, flags: ProjectFlags): string[] {
  const locales = flags.to === undefined ? [...config.targetLocales] : parseLocales(flags.to);
  if (locales.length === 0)
    throw new UsageError('no target locales: pass --to es,en-XA or set `targetLocales` in glossa.config');
  return locales;
}
