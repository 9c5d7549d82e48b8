/**
 * What `glossa-server` reads its settings from, and in which order: a flag wins over a `GLOSSA_*`
 * environment variable, which wins over the config file (`--config FILE` or `GLOSSA_CONFIG`, JSON), which
 * wins over the library's defaults. Every setting has the three forms; SETTINGS lists them.
 */
import { readFileSync } from 'node:fs';
import type { CreateServerOptions } from './server.js';

type Kind = 'string' | 'integer' | 'number' | 'list' | 'boolean' | 'rate' | 'engines';

interface Setting {
  /** Path in the config file (and in the options), dot-separated. */
  readonly path: string;
  readonly flag: string;
  readonly env: string;
  readonly kind: Kind;
  readonly help: string;
}

const setting = (path: string, flag: string, kind: Kind, help: string): Setting => ({
  path,
  flag,
  env: `GLOSSA_${flag.replace(/-/g, '_').toUpperCase()}`,
  kind,
  help,
});

/** Every server setting: config path, flag, environment variable (GLOSSA_ + the flag), kind. */
export const SETTINGS: readonly Setting[] = [
  setting('dataDir', 'data-dir', 'string', 'SQLite files, dev key, memory and document files'),
  setting('port', 'port', 'integer', 'paid-plan port (default 8080; 0: any free port)'),
  setting('freePort', 'free-port', 'integer', 'free-plan port (default 8081)'),
  setting('host', 'host', 'string', 'address to listen on (default 127.0.0.1)'),
  setting('publicUrl', 'public-url', 'string', 'paid-plan base URL clients use (behind a proxy)'),
  setting('freePublicUrl', 'free-public-url', 'string', 'free-plan base URL clients use'),
  setting('logLevel', 'log-level', 'string', 'info (default), debug, warn, error, silent'),
  setting('databaseUrl', 'database-url', 'string', 'postgres://… shared by a fleet (default SQLite)'),
  setting('databasePoolSize', 'database-pool-size', 'integer', 'PostgreSQL connections per instance (10)'),
  setting('redisUrl', 'redis-url', 'string', 'redis://… for fleet-wide rate limits and key revocation'),
  setting('upstream.url', 'upstream-url', 'string', 'gateway mode: paid-plan URL of the upstream service'),
  setting('upstream.key', 'upstream-key', 'string', 'its key (prefer the environment variable)'),
  setting(
    'engineOrder',
    'engines',
    'engines',
    'engines in order (pseudo,apertium,upstream); per target: "pseudo,apertium;de=openai,deepl;en:ja=deepl"',
  ),
  setting(
    'providers.openai.baseUrl',
    'openai-base-url',
    'string',
    'OpenAI-compatible base URL (OPENAI_BASE_URL)',
  ),
  setting('providers.openai.model', 'openai-model', 'string', 'its model (gpt-4o-mini); key: OPENAI_API_KEY'),
  setting('providers.openai.contextTokens', 'openai-context-tokens', 'integer', "the model's context size"),
  setting('providers.openai.maxOutputTokens', 'openai-max-output-tokens', 'integer', 'tokens per answer'),
  setting('providers.openai.concurrency', 'openai-concurrency', 'integer', 'calls in flight (4)'),
  setting(
    'providers.openai.responseFormat',
    'openai-response-format',
    'string',
    'json_schema (default), json_object or none',
  ),
  setting(
    'providers.anthropic.model',
    'anthropic-model',
    'string',
    'Anthropic model; key: ANTHROPIC_API_KEY',
  ),
  setting(
    'providers.anthropic.baseUrl',
    'anthropic-base-url',
    'string',
    'Anthropic base URL (ANTHROPIC_BASE_URL)',
  ),
  setting(
    'providers.deepl.serverUrl',
    'deepl-server-url',
    'string',
    'DeepL base URL (DEEPL_SERVER_URL); key: DEEPL_AUTH_KEY',
  ),
  setting('providers.deepl.concurrency', 'deepl-concurrency', 'integer', 'DeepL requests in flight (4)'),
  setting(
    'providers.google.baseUrl',
    'google-base-url',
    'string',
    'Cloud Translation base URL; key: GOOGLE_API_KEY',
  ),
  setting(
    'providers.google.projectId',
    'google-project',
    'string',
    'Cloud Translation v3 project (GOOGLE_CLOUD_PROJECT); service account: GOOGLE_APPLICATION_CREDENTIALS',
  ),
  setting('providers.google.location', 'google-location', 'string', 'Cloud Translation v3 location (global)'),
  setting(
    'providers.libretranslate.url',
    'libretranslate-url',
    'string',
    'LibreTranslate URL (LIBRETRANSLATE_URL)',
  ),
  setting('rateLimit.requestsPerSecond', 'rate-limit', 'rate', "requests/s per key (100), or 'off'"),
  setting('rateLimit.burst', 'rate-limit-burst', 'integer', 'requests at once per key (twice the rate)'),
  setting('engineCacheEntries', 'engine-cache-entries', 'integer', 'engine outputs kept (50000; 0 off)'),
  setting(
    'memoryBudgetMb',
    'memory-budget-mb',
    'integer',
    'MiB for caches and compiled glossaries (768; 1024 with every feature, @glossa/server-full)',
  ),
  setting('shutdownGraceMs', 'shutdown-grace-ms', 'integer', 'on SIGTERM, ms for requests in flight (10000)'),
  setting(
    'shutdownDrainMs',
    'shutdown-drain-ms',
    'integer',
    'on SIGTERM, ms serving with /ready at 503 before closing, for a balancer (0)',
  ),
  setting('metrics', 'metrics', 'boolean', 'serve GET /metrics (true)'),
  setting('devKey', 'dev-key', 'string', 'key of the development account (prefer GLOSSA_API_KEY)'),
  setting('documents.concurrency', 'document-concurrency', 'integer', 'documents translated at once (2)'),
  setting('documents.expirySeconds', 'document-expiry-seconds', 'integer', 'document lifetime (86400)'),
  setting('documents.xmlAttributes', 'document-xml-attributes', 'list', 'xml attributes translated'),
  setting('documents.ditaAttributes', 'document-dita-attributes', 'list', 'dita attributes translated'),
  setting(
    'quality.evaluationTimeoutSeconds',
    'quality-timeout-seconds',
    'integer',
    'time per evaluation (300)',
  ),
  setting(
    'quality.threadHeapMb',
    'quality-thread-heap-mb',
    'integer',
    'heap per evaluation thread (1024; 0 off)',
  ),
  setting('quality.syncConcurrency', 'quality-sync-concurrency', 'integer', 'sync evaluations at once (2)'),
];

/** The development key's variable has kept its historical name. */
const ENV_NAMES: Record<string, string> = { devKey: 'GLOSSA_API_KEY' };

export function settingsUsage(): string {
  return SETTINGS.map(
    (item) => `  --${item.flag.padEnd(26)} ${(ENV_NAMES[item.path] ?? item.env).padEnd(32)} ${item.help}`,
  ).join('\n');
}

/** `parseArgs` options of every setting, plus `--config`. */
export function settingFlags(): Record<string, { type: 'string' }> {
  const flags: Record<string, { type: 'string' }> = { config: { type: 'string' } };
  for (const item of SETTINGS) flags[item.flag] = { type: 'string' };
  return flags;
}

function parse(item: Setting, raw: string, from: string): unknown {
  switch (item.kind) {
    case 'string':
      return raw;
    case 'integer':
      if (!/^\d+$/.test(raw)) throw new RangeError(`${from}: expected a whole number, got '${raw}'`);
      return Number(raw);
    case 'number':
    case 'rate':
      if (item.kind === 'rate' && raw === 'off') return false;
      if (!/^\d+(\.\d+)?$/.test(raw)) throw new RangeError(`${from}: expected a number, got '${raw}'`);
      return Number(raw);
    case 'engines': {
      // `a,b` is a list for every pair; `a,b;de=c,d;en:ja=e` sets the default and per-target lists.
      if (!raw.includes('=')) return parse({ ...item, kind: 'list' }, raw, from);
      const order: Record<string, string[]> = {};
      for (const part of raw
        .split(';')
        .map((piece) => piece.trim())
        .filter(Boolean)) {
        const [key, list] = part.includes('=') ? part.split('=', 2) : ['default', part];
        order[key!.trim()] = list!
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
      }
      return order;
    }
    case 'list':
      return raw
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
    case 'boolean':
      if (['true', 'on', '1', 'yes'].includes(raw)) return true;
      if (['false', 'off', '0', 'no'].includes(raw)) return false;
      throw new TypeError(`${from}: expected true or false, got '${raw}'`);
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === false) return; // `rateLimit: false` in a file: the burst has nothing to apply to
    if (typeof next !== 'object' || next === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

function apply(merged: Record<string, unknown>, item: Setting, value: unknown): void {
  // `--rate-limit off` turns the limit off as a whole (the file's `"rateLimit": false`).
  if (item.kind === 'rate' && value === false) merged.rateLimit = false;
  else setPath(merged, item.path, value);
}

const TOP_KEYS = new Set([...SETTINGS.map((item) => item.path.split('.')[0]!), 'rateLimit']);

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TypeError(`--config: cannot read ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TypeError(`--config: ${file} is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TypeError(`--config: ${file} must hold a JSON object`);
  const unknown = Object.keys(value).filter((key) => !TOP_KEYS.has(key));
  if (unknown.length > 0)
    throw new TypeError(`--config: ${file} has unknown settings: ${unknown.join(', ')}`);
  return structuredClone(value) as Record<string, unknown>;
}

/** The merged settings: config file, then environment, then flags. */
export interface CliSettings {
  readonly server: CreateServerOptions;
  /** Options of the feature packages, by feature (`documents`, `quality`). */
  readonly features: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export function resolveSettings(
  flags: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv = process.env,
): CliSettings {
  const file = (flags.config as string | undefined) ?? env.GLOSSA_CONFIG;
  const merged: Record<string, unknown> = file ? readConfigFile(file) : {};
  for (const item of SETTINGS) {
    const envName = ENV_NAMES[item.path] ?? item.env;
    const fromEnv = env[envName];
    // GLOSSA_API_KEY and GLOSSA_DATA_DIR are also read by the library itself; empty means unset.
    if (fromEnv !== undefined && fromEnv !== '') apply(merged, item, parse(item, fromEnv, envName));
    const fromFlag = flags[item.flag];
    if (typeof fromFlag === 'string') apply(merged, item, parse(item, fromFlag, `--${item.flag}`));
  }
  // A burst alone keeps the default rate.
  const rate = merged.rateLimit as Record<string, unknown> | false | undefined;
  if (rate && rate.requestsPerSecond === undefined) rate.requestsPerSecond = 100;
  const { documents, quality, logLevel, ...server } = merged as Record<string, unknown> & {
    documents?: Record<string, unknown>;
    quality?: Record<string, unknown>;
    logLevel?: string;
  };
  const level = logLevel ?? 'info';
  return {
    server: {
      ...(server as CreateServerOptions),
      logger: level === 'silent' ? false : { level },
    },
    features: { documents: documents ?? {}, quality: quality ?? {} },
  };
}
