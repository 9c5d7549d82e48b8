/**
 * The project config: `glossa.config.ts` (or `.mts`, `.js`, `.mjs`, `.json`), one shape for the CLI and
 * every plugin. `loadConfig` finds and reads it; `resolveConfig` checks it and applies the defaults once.
 */
import { access, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openFileStore } from './cache/file-store.js';
import { createMemoryStore } from './cache/memory-store.js';
import { openRedisStore } from './cache/redis-store.js';
import type { CacheStore } from './cache/store.js';
import { createTranslationCache, type TranslationCache } from './cache/translation-cache.js';
import { ConfigError, resolveConfig } from './config-resolve.js';
import type { GlossaConfig, ResolvedConfig } from './config-types.js';
import { importOptional } from './optional-package.js';

export { DEFAULT_ENGINES, engineFingerprint, enginesFor } from './config-engines.js';
export { ADAPTER_NAMES, ConfigError, defaultDataDir, resolveConfig } from './config-resolve.js';
export type * from './config-types.js';
export { CATALOG_SYNTAXES, MARKDOWN_DIALECTS } from './config-types.js';

/** Types a config in `glossa.config.ts`: `export default defineConfig({ ... })`. */
export function defineConfig(config: GlossaConfig): GlossaConfig {
  return config;
}

/** File names looked for, in this order. */
export const CONFIG_FILE_NAMES = [
  'glossa.config.ts',
  'glossa.config.mts',
  'glossa.config.js',
  'glossa.config.mjs',
  'glossa.config.json',
] as const;

/** The first config file in `dir` or one of its parents, or `undefined`. */
export async function findConfigFile(dir: string): Promise<string | undefined> {
  for (let current = resolve(dir); ; current = dirname(current)) {
    for (const name of CONFIG_FILE_NAMES) {
      const path = join(current, name);
      if (
        await access(path).then(
          () => true,
          () => false,
        )
      )
        return path;
    }
    if (dirname(current) === current) return undefined;
  }
}

export interface LoadConfigOptions {
  /** Where to start looking (and the root when there is no file). Default `process.cwd()`. */
  readonly cwd?: string;
  /** An explicit config file (then it must exist). */
  readonly configFile?: string;
  /** Applied over the file's contents (e.g. CLI flags). */
  readonly overrides?: GlossaConfig;
  readonly env?: NodeJS.ProcessEnv;
}

/** Reads the raw config object from a file (`.json` parsed; TS and JS modules imported, `default` export). */
export async function readConfigFile(file: string): Promise<GlossaConfig> {
  if (file.endsWith('.json')) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`cannot read: ${(error as Error).message}`, file, { cause: error });
    }
    try {
      return JSON.parse(text) as GlossaConfig;
    } catch (error) {
      throw new ConfigError(`not valid JSON: ${(error as Error).message}`, file, { cause: error });
    }
  }
  const url = `${pathToFileURL(file).href}?t=${Math.floor((await stat(file)).mtimeMs)}`;
  let module: { default?: unknown };
  try {
    module = await import(url);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new ConfigError(`cannot load: ${(error as Error).message}`, file, { cause: error });
    }
    // Plain Node without a TypeScript loader: compile through tsx.
    const { tsImport } = await importOptional(
      'tsx',
      () => import('tsx/esm/api'),
      `${file} is TypeScript, which this Node cannot load by itself: install tsx (npm install -D tsx), ` +
        'or write the config as glossa.config.mjs or .json.',
    );
    module = await tsImport(url, import.meta.url).catch((cause: Error) => {
      throw new ConfigError(`cannot load: ${cause.message}`, file, { cause });
    });
  }
  let exported = module.default;
  // A .ts file outside a `"type": "module"` package is compiled as CommonJS: unwrap its `default`.
  if (typeof exported === 'object' && exported !== null && 'default' in exported) {
    exported = (exported as { default: unknown }).default;
  }
  const config = typeof exported === 'function' ? await exported() : exported;
  if (typeof config !== 'object' || config === null) {
    throw new ConfigError('expected `export default defineConfig({ ... })`', file);
  }
  return config as GlossaConfig;
}

/**
 * Finds, reads and resolves the project config. Without a file the defaults apply (rooted at `cwd`),
 * so the CLI works with flags alone. Throws `ConfigError` for a wrong field or an unreadable file.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<ResolvedConfig> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const file = options.configFile ? resolve(cwd, options.configFile) : await findConfigFile(cwd);
  if (
    options.configFile &&
    !(await access(file!).then(
      () => true,
      () => false,
    ))
  ) {
    throw new ConfigError(`config file not found: ${file}`);
  }
  const raw = file ? await readConfigFile(file) : {};
  const merged = { ...raw, ...withoutUndefined(options.overrides ?? {}) };
  return resolveConfig(merged, {
    root: file ? dirname(file) : cwd,
    ...(file !== undefined && { file }),
    ...(options.env !== undefined && { env: options.env }),
  });
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Opens the configured cache: a memory tier in front of the persistent one. Close it when done. */
export async function openConfiguredCache(config: Pick<ResolvedConfig, 'cache'>): Promise<TranslationCache> {
  const c = config.cache;
  if (c.store === 'none') return createTranslationCache([]);
  const tiers: CacheStore[] = [createMemoryStore(c.max === undefined ? {} : { max: c.max })];
  if (c.store === 'file') tiers.push(await openFileStore({ path: c.path }));
  if (c.store === 'redis') {
    tiers.push(
      await openRedisStore({
        url: c.url,
        ...(c.prefix !== undefined && { prefix: c.prefix }),
        ...(c.ttlSeconds !== undefined && { ttlSeconds: c.ttlSeconds }),
      }),
    );
  }
  return createTranslationCache(tiers);
}
