/**
 * Checks a project config (the `GlossaConfig` shape, from `glossa.config.ts` or `.json`) and resolves it
 * once into a read-only `ResolvedConfig`: defaults applied, paths absolute, environment read.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { canonicalLanguage, FORMALITIES, MODEL_TYPES } from '@glossa/protocol';
import type {
  AdapterName,
  CacheConfig,
  GlossaConfig,
  ResolvedCache,
  ResolvedConfig,
  ResolvedFiles,
} from './config-types.js';
import {
  CATALOG_SYNTAXES,
  ENGINE_PROVIDERS,
  MARKDOWN_DIALECTS,
  type ResolvedEngines,
} from './config-types.js';
import { GlossaCoreError } from './errors.js';

/** The config file (or object) has a wrong field; the message names the file and the field. */
export class ConfigError extends GlossaCoreError {
  override name = 'ConfigError';
  /** The config file, when the config came from one. */
  readonly file: string | undefined;
  constructor(message: string, file?: string, options?: { cause?: unknown }) {
    super(file === undefined ? message : `${file}: ${message}`, 'config', options);
    this.file = file;
  }
}

export const ADAPTER_NAMES: readonly AdapterName[] = ['markdown', 'html', 'xliff', 'i18next'];
const TOP_LEVEL = new Set([
  '$schema',
  'sourceLang',
  'targetLocales',
  'files',
  'out',
  'glossaries',
  'doNotTranslate',
  'memories',
  'styleLists',
  'cache',
  'lock',
  'service',
  'translation',
  'markdown',
  'engines',
]);

/**
 * Where the embedded server keeps its data when `GLOSSA_DATA_DIR` is not set: `glossa/server` under the
 * user's cache dir (`$XDG_CACHE_HOME` or `~/.cache`; `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on
 * Windows), the same folder `glossa-server` uses.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32') {
    return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'glossa', 'server');
  }
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'glossa', 'server');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'glossa', 'server');
}

interface Ctx {
  readonly file: string | undefined;
  readonly root: string;
}

const describe = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `${typeof value} ${JSON.stringify(value)}`;

function fail(ctx: Ctx, field: string, expected: string, got: unknown): never {
  throw new ConfigError(`\`${field}\` must be ${expected}, got ${describe(got)}`, ctx.file);
}

function str(ctx: Ctx, field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') fail(ctx, field, 'a non-empty string', value);
  return value;
}

function lang(ctx: Ctx, field: string, value: unknown): string {
  const code = canonicalLanguage(str(ctx, field, value));
  if (code === undefined) fail(ctx, field, 'a language code the interface knows (e.g. "es", "en-XA")', value);
  return code;
}

function list<T>(ctx: Ctx, field: string, value: unknown, item: (v: unknown, f: string) => T): T[] {
  const items = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(items)) fail(ctx, field, 'an array', value);
  return items.map((v, i) => item(v, `${field}[${i}]`));
}

function object(ctx: Ctx, field: string, value: unknown, keys: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(ctx, field, 'an object', value);
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) {
      throw new ConfigError(`unknown field \`${field}.${key}\` (known: ${keys.join(', ')})`, ctx.file);
    }
  }
  return value as Record<string, unknown>;
}

const abs = (ctx: Ctx, path: string) => (isAbsolute(path) ? path : resolve(ctx.root, path));

function files(ctx: Ctx, value: unknown, out: string): ResolvedFiles[] {
  return list(ctx, 'files', value, (v, field) => {
    const o = object(ctx, field, typeof v === 'string' ? { include: v } : v, [
      'include',
      'exclude',
      'adapter',
      'output',
      'syntax',
    ]);
    const adapter = o.adapter;
    if (o.syntax !== undefined && !(CATALOG_SYNTAXES as readonly unknown[]).includes(o.syntax)) {
      fail(ctx, `${field}.syntax`, `one of ${CATALOG_SYNTAXES.join(', ')}`, o.syntax);
    }
    if (adapter !== undefined && !ADAPTER_NAMES.includes(adapter as AdapterName)) {
      fail(ctx, `${field}.adapter`, `one of ${ADAPTER_NAMES.join(', ')}`, adapter);
    }
    const output = o.output === undefined ? undefined : str(ctx, `${field}.output`, o.output);
    if (output !== undefined && !output.includes('{locale}')) {
      fail(ctx, `${field}.output`, 'a path pattern containing {locale}', output);
    }
    return {
      include: list(ctx, `${field}.include`, o.include, (g, f) => str(ctx, f, g)),
      exclude:
        o.exclude === undefined ? [] : list(ctx, `${field}.exclude`, o.exclude, (g, f) => str(ctx, f, g)),
      ...(adapter !== undefined && { adapter: adapter as AdapterName }),
      ...(o.syntax !== undefined &&
        o.syntax !== 'auto' && { syntax: o.syntax as NonNullable<ResolvedFiles['syntax']> }),
      output: abs(ctx, output ?? join(out, '{locale}', '{path}')),
    };
  });
}

function cache(ctx: Ctx, value: CacheConfig | undefined): ResolvedCache {
  if (value === false) return { store: 'none' };
  const o = object(ctx, 'cache', value ?? {}, ['store', 'path', 'url', 'prefix', 'ttlSeconds', 'max']);
  const max = o.max === undefined ? {} : { max: positive(ctx, 'cache.max', o.max) };
  switch (o.store ?? 'file') {
    case 'file':
      return {
        store: 'file',
        path: abs(ctx, o.path === undefined ? '.glossa/cache.jsonl' : str(ctx, 'cache.path', o.path)),
        ...max,
      };
    case 'memory':
      return { store: 'memory', ...max };
    case 'redis':
      return {
        store: 'redis',
        url: str(ctx, 'cache.url', o.url),
        ...(o.prefix !== undefined && { prefix: str(ctx, 'cache.prefix', o.prefix) }),
        ...(o.ttlSeconds !== undefined && { ttlSeconds: positive(ctx, 'cache.ttlSeconds', o.ttlSeconds) }),
        ...max,
      };
    default:
      return fail(ctx, 'cache.store', '"file", "memory" or "redis"', o.store);
  }
}

function positive(ctx: Ctx, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    fail(ctx, field, 'a positive integer', value);
  }
  return value;
}

/**
 * Resolves `config` against `root` (the folder of the config file) and `env`. Throws `ConfigError`
 * naming the field that is wrong; `file` is put in front of every message.
 */
export function resolveConfig(
  config: GlossaConfig,
  options: { root: string; file?: string; env?: NodeJS.ProcessEnv },
): ResolvedConfig {
  const ctx: Ctx = { file: options.file, root: options.root };
  const env = options.env ?? process.env;
  const c = object(ctx, 'config', config, [...TOP_LEVEL]) as GlossaConfig;
  const out = abs(ctx, c.out === undefined ? 'i18n' : str(ctx, 'out', c.out));
  const targetLocales =
    c.targetLocales === undefined
      ? []
      : list(ctx, 'targetLocales', c.targetLocales, (v, f) => lang(ctx, f, v));
  const service = object(ctx, 'service', c.service ?? {}, ['url', 'apiKey', 'dataDir', 'concurrency']);
  const translation = object(ctx, 'translation', c.translation ?? {}, [
    'formality',
    'modelType',
    'customInstructions',
    'context',
  ]);
  const url =
    env.GLOSSA_SERVER_URL || (service.url === undefined ? undefined : str(ctx, 'service.url', service.url));
  const apiKey =
    env.GLOSSA_API_KEY ||
    (service.apiKey === undefined ? undefined : str(ctx, 'service.apiKey', service.apiKey));
  const dataDir =
    env.GLOSSA_DATA_DIR ||
    (service.dataDir === undefined
      ? defaultDataDir(env)
      : abs(ctx, str(ctx, 'service.dataDir', service.dataDir)));
  return Object.freeze({
    root: options.root,
    configFile: options.file,
    sourceLang: c.sourceLang === undefined ? 'en' : lang(ctx, 'sourceLang', c.sourceLang),
    targetLocales,
    files: c.files === undefined ? [] : files(ctx, c.files, out),
    out,
    glossaries:
      c.glossaries === undefined
        ? []
        : list(ctx, 'glossaries', c.glossaries, (v, f) => {
            const g = object(ctx, f, typeof v === 'string' ? { file: v } : v, ['file', 'targetLocales']);
            return {
              file: abs(ctx, str(ctx, `${f}.file`, g.file)),
              targetLocales:
                g.targetLocales === undefined
                  ? targetLocales
                  : list(ctx, `${f}.targetLocales`, g.targetLocales, (l, lf) => lang(ctx, lf, l)),
            };
          }),
    doNotTranslate:
      c.doNotTranslate === undefined
        ? []
        : list(ctx, 'doNotTranslate', c.doNotTranslate, (v, f) => str(ctx, f, v)),
    memories:
      c.memories === undefined
        ? []
        : list(ctx, 'memories', c.memories, (v, f) => {
            const m = object(ctx, f, typeof v === 'string' ? { file: v } : v, [
              'file',
              'targetLocales',
              'threshold',
            ]);
            return {
              file: abs(ctx, str(ctx, `${f}.file`, m.file)),
              targetLocales:
                m.targetLocales === undefined
                  ? targetLocales
                  : list(ctx, `${f}.targetLocales`, m.targetLocales, (l, lf) => lang(ctx, lf, l)),
              ...(m.threshold !== undefined && { threshold: positive(ctx, `${f}.threshold`, m.threshold) }),
            };
          }),
    styleLists:
      c.styleLists === undefined
        ? []
        : list(ctx, 'styleLists', c.styleLists, (v, f) => {
            const s = object(ctx, f, v, ['name', 'language', 'configuredRules', 'customInstructions']);
            str(ctx, `${f}.name`, s.name);
            lang(ctx, `${f}.language`, s.language);
            return v as ResolvedConfig['styleLists'][number];
          }),
    cache: cache(ctx, c.cache),
    lock:
      c.lock === false
        ? undefined
        : abs(ctx, c.lock === undefined ? 'glossa.lock' : str(ctx, 'lock', c.lock)),
    service: {
      ...(url !== undefined && { url }),
      ...(apiKey !== undefined && { apiKey }),
      dataDir,
      concurrency:
        service.concurrency === undefined ? 4 : positive(ctx, 'service.concurrency', service.concurrency),
      ...engines(ctx, c.engines, env.GLOSSA_ENGINES),
    },
    translation: checkTranslation(ctx, translation),
    markdown: checkMarkdown(
      ctx,
      object(ctx, 'markdown', c.markdown ?? {}, ['dialect', 'frontmatter', 'mdxAttributes']),
    ),
  });
}

function checkMarkdown(ctx: Ctx, m: Record<string, unknown>): ResolvedConfig['markdown'] {
  if (m.dialect !== undefined && !(MARKDOWN_DIALECTS as readonly unknown[]).includes(m.dialect)) {
    fail(ctx, 'markdown.dialect', `one of ${MARKDOWN_DIALECTS.join(', ')}`, m.dialect);
  }
  for (const field of ['frontmatter', 'mdxAttributes'])
    if (m[field] !== undefined) list(ctx, `markdown.${field}`, m[field], (v, f) => str(ctx, f, v));
  return Object.freeze({ ...m }) as ResolvedConfig['markdown'];
}

function checkTranslation(ctx: Ctx, t: Record<string, unknown>): ResolvedConfig['translation'] {
  if (t.formality !== undefined && !(FORMALITIES as readonly unknown[]).includes(t.formality)) {
    fail(ctx, 'translation.formality', `one of ${FORMALITIES.join(', ')}`, t.formality);
  }
  if (t.modelType !== undefined && !(MODEL_TYPES as readonly unknown[]).includes(t.modelType)) {
    fail(ctx, 'translation.modelType', `one of ${MODEL_TYPES.join(', ')}`, t.modelType);
  }
  if (t.customInstructions !== undefined) {
    list(ctx, 'translation.customInstructions', t.customInstructions, (v, f) => str(ctx, f, v));
  }
  if (t.context !== undefined) str(ctx, 'translation.context', t.context);
  return t as ResolvedConfig['translation'];
}

/**
 * The `engines` section: arrays are engine orders (per `default`, target or `source:target`), objects are a
 * provider's settings. `GLOSSA_ENGINES` (`a,b` for every pair, or `a,b;de=c,d;en:ja=e`) replaces the order.
 */
function engines(ctx: Ctx, value: unknown, fromEnv: string | undefined): { engines?: ResolvedEngines } {
  const section =
    value === undefined
      ? {}
      : object(ctx, 'engines', value, typeof value === 'object' && value !== null ? Object.keys(value) : []);
  const order: Record<string, string[]> = {};
  const providers: Record<string, Record<string, unknown>> = {};
  for (const [key, item] of Object.entries(section)) {
    if (Array.isArray(item)) {
      if (key !== 'default' && !/^([a-z]{2,3}:)?[a-z]{2,3}(-[a-z0-9]{2,4})?$/i.test(key)) {
        fail(ctx, `engines.${key}`, "'default', a target language ('de') or a pair ('en:de')", key);
      }
      order[key] = list(ctx, `engines.${key}`, item, (v, f) => str(ctx, f, v));
    } else if ((ENGINE_PROVIDERS as readonly string[]).includes(key)) {
      providers[key] = { ...object(ctx, `engines.${key}`, item, Object.keys(item ?? {})) };
    } else {
      fail(ctx, `engines.${key}`, `an engine list or the settings of ${ENGINE_PROVIDERS.join(', ')}`, item);
    }
  }
  if (fromEnv) {
    for (const key of Object.keys(order)) delete order[key];
    for (const part of fromEnv
      .split(';')
      .map((piece) => piece.trim())
      .filter(Boolean)) {
      const [key, names] = part.includes('=') ? part.split('=', 2) : ['default', part];
      order[key!.trim()] = names!
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
    }
  }
  if (Object.keys(order).length === 0 && Object.keys(providers).length === 0) return {};
  return {
    engines: {
      ...(Object.keys(order).length > 0 && { order }),
      ...(Object.keys(providers).length > 0 && { providers }),
    },
  };
}
