/**
 * The project config: `glossa.config.ts` (or `.mts`, `.js`, `.mjs`, `.json`), one shape for the CLI and
 * every plugin. `loadConfig` finds and reads it; `resolveConfig` checks it and applies the defaults once.
 */
import { access, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TranslateRequest } from '@glossa/protocol';
import { openFileStore } from './cache/file-store.js';
import { createMemoryStore } from './cache/memory-store.js';
import { openRedisStore } from './cache/redis-store.js';
import type { CacheStore } from './cache/store.js';
import { createTranslationCache, type TranslationCache } from './cache/translation-cache.js';
import { ConfigError, resolveConfig } from './config-resolve.js';
import type { StyleListConfig } from './resources/sync.js';

export { ADAPTER_NAMES, ConfigError, defaultDataDir, resolveConfig } from './config-resolve.js';

/** Which adapter reads a file; by default chosen by extension (.md/.mdx, .html/.htm, .xlf/.xliff, .json). */
export type AdapterName = 'markdown' | 'html' | 'xliff' | 'i18next';

export interface FilesConfig {
  /** Globs (or files, or folders) relative to the project root, e.g. `docs/**\/*.md`. */
  readonly include: string | readonly string[];
  readonly exclude?: string | readonly string[];
  /** Default: by extension. */
  readonly adapter?: AdapterName;
  /**
   * Where each output goes, relative to the root: `{locale}`, `{path}` (path relative to the glob's
   * base folder), `{dir}`, `{name}` (without extension), `{ext}` (with the dot). Default
   * `<out>/{locale}/{path}`.
   */
  readonly output?: string;
}

export type CacheConfig =
  | false
  | { readonly store?: 'file'; readonly path?: string; readonly max?: number }
  | { readonly store: 'memory'; readonly max?: number }
  | {
      readonly store: 'redis';
      readonly url: string;
      readonly prefix?: string;
      readonly ttlSeconds?: number;
      readonly max?: number;
    };

export interface GlossaConfig {
  /** For editors: the JSON schema of the file (ignored). */
  readonly $schema?: string;
  /** Language of the source files. Default `en`. */
  readonly sourceLang?: string;
  /** Locales to produce, e.g. `['es', 'en-XA']` (the CLI's `--to` overrides). */
  readonly targetLocales?: readonly string[];
  readonly files?: readonly (string | FilesConfig)[];
  /** Output root for files without their own `output`. Default `i18n`. */
  readonly out?: string;
  /** Glossary files (TSV, CSV), for every target locale unless `targetLocales` says otherwise. */
  readonly glossaries?: readonly (
    | string
    | { readonly file: string; readonly targetLocales?: readonly string[] }
  )[];
  /** Translation memories (TMX). `threshold`: minimum fuzzy match, percent. */
  readonly memories?: readonly (
    | string
    | { readonly file: string; readonly targetLocales?: readonly string[]; readonly threshold?: number }
  )[];
  /** Style rule lists, kept in sync on the service; applied to their `language`. */
  readonly styleLists?: readonly StyleListConfig[];
  /** Persistent translation cache. Default: a file store at `.glossa/cache.jsonl`. `false`: none. */
  readonly cache?: CacheConfig;
  /** The lock file. Default `glossa.lock`; `false`: no lock (human edits are not protected). */
  readonly lock?: string | false;
  /**
   * The service. Unset `url` (and no `GLOSSA_SERVER_URL`): the embedded server runs in-process with its
   * data in `dataDir` (`GLOSSA_DATA_DIR`, default under the user's cache dir). Prefer `GLOSSA_API_KEY`
   * to `apiKey`: a config file is usually committed.
   */
  readonly service?: {
    readonly url?: string;
    readonly apiKey?: string;
    readonly dataDir?: string;
    /** Requests in flight at once. Default 4. */
    readonly concurrency?: number;
  };
  /** Sent with every translation request. */
  readonly translation?: {
    readonly formality?: TranslateRequest['formality'];
    readonly modelType?: TranslateRequest['model_type'];
    readonly customInstructions?: readonly string[];
    readonly context?: string;
  };
}

export interface ResolvedFiles {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly adapter?: AdapterName;
  /** Absolute output pattern with `{locale}` and `{path}` (and `{dir}`, `{name}`, `{ext}`). */
  readonly output: string;
}

export type ResolvedCache =
  | { readonly store: 'none' }
  | { readonly store: 'file'; readonly path: string; readonly max?: number }
  | { readonly store: 'memory'; readonly max?: number }
  | {
      readonly store: 'redis';
      readonly url: string;
      readonly prefix?: string;
      readonly ttlSeconds?: number;
      readonly max?: number;
    };

export interface ResolvedConfig {
  /** Folder paths are relative to: the config file's folder (or the working directory). */
  readonly root: string;
  readonly configFile: string | undefined;
  readonly sourceLang: string;
  /** Canonical codes; may be empty (then the CLI needs `--to`). */
  readonly targetLocales: readonly string[];
  readonly files: readonly ResolvedFiles[];
  readonly out: string;
  readonly glossaries: readonly { readonly file: string; readonly targetLocales: readonly string[] }[];
  readonly memories: readonly {
    readonly file: string;
    readonly targetLocales: readonly string[];
    readonly threshold?: number;
  }[];
  readonly styleLists: readonly StyleListConfig[];
  readonly cache: ResolvedCache;
  /** Absolute path of the lock, or `undefined` when disabled. */
  readonly lock: string | undefined;
  /** `url` and `apiKey` from the environment first (`GLOSSA_SERVER_URL`, `GLOSSA_API_KEY`), then the file. */
  readonly service: {
    readonly url?: string;
    readonly apiKey?: string;
    readonly dataDir: string;
    readonly concurrency: number;
  };
  readonly translation: NonNullable<GlossaConfig['translation']>;
}

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
    const { tsImport } = await import('tsx/esm/api');
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
