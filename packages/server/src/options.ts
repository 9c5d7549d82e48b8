import { homedir } from 'node:os';
import { join } from 'node:path';
import type { TranslationEngine } from './engines/engine.js';
import type { Storage } from './storage/storage.js';

export interface LogStream {
  write(line: string): void;
}

export interface RateLimitOptions {
  /** Sustained requests per second per key. */
  requestsPerSecond: number;
  /** Requests a key may make at once before the sustained rate applies. Default: twice the rate. */
  burst?: number;
}

export interface UpstreamOptions {
  /** Paid-plan base URL of the remote service. */
  url: string;
  key: string;
}

/** The engines `createServer` can build itself. */
export const BUILT_IN_ENGINES = [
  'pseudo',
  'apertium',
  'upstream',
  'openai',
  'anthropic',
  'deepl',
  'google',
  'libretranslate',
] as const;
export type BuiltInEngine = (typeof BUILT_IN_ENGINES)[number];
/** What runs when no order is given. */
export const DEFAULT_ENGINE_ORDER: readonly BuiltInEngine[] = ['pseudo', 'apertium', 'upstream'];

/**
 * Engines per target language or pair: `default` for the rest (`{ default: ['pseudo', 'apertium'], de:
 * ['openai', 'deepl'], 'en:ja': ['deepl'] }`). A plain list means that list, in that order, for every pair.
 */
export type EngineOrderOption = readonly BuiltInEngine[] | Readonly<Record<string, readonly BuiltInEngine[]>>;

/** Settings of the remote engines; each falls back to the provider's own environment variables. */
export interface ProviderOptions {
  /** Any OpenAI-compatible chat-completions service (OpenAI, Azure, Ollama, vLLM, llama.cpp, OpenRouter…). */
  openai?: import('./engines/openai.js').OpenAiOptions;
  anthropic?: import('./engines/anthropic.js').AnthropicOptions;
  deepl?: import('./engines/deepl.js').DeeplOptions;
  google?: import('./engines/google.js').GoogleOptions;
  libretranslate?: import('./engines/libretranslate.js').LibreTranslateOptions;
}

export interface ServerOptions {
  /** Where the database and the development key live. Default: `GLOSSA_DATA_DIR`, else `~/.cache/glossa/server`. */
  dataDir?: string;
  /** Paid-plan port. Default 8080; 0 picks a free port. */
  port?: number;
  /** Free-plan port. Default 8081; 0 picks a free port. */
  freePort?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Request log (never holds a key or a body). `true`: info level to stdout. Default false. */
  logger?: boolean | { level?: string; stream?: LogStream };
  /** Key of the local development account. Default: `GLOSSA_API_KEY`, else generated once and kept. */
  devKey?: string;
  /** Engines to serve, in priority order. Default: pseudo, Apertium (pairs installed), upstream (when set). */
  engines?: readonly TranslationEngine[];
  /**
   * Which of the built-in engines to serve, in priority order, when `engines` is not given (what
   * `glossa-server --engines` sets). Default `['pseudo', 'apertium', 'upstream']`; upstream needs `upstream`.
   */
  engineOrder?: EngineOrderOption;
  /** Settings of the remote engines (`openai`, `deepl`, …) the order names. */
  providers?: ProviderOptions;
  /**
   * Called for each segment that every engine of its list failed ("never worse": it was answered in the
   * source language), with what each engine got wrong. Never holds a key.
   */
  onKeptSource?: (event: import('./engines/chain.js').KeptSource) => void;
  upstream?: UpstreamOptions;
  /** Engine outputs kept in memory, in units (a unit is a sentence or a tagged block). Default 50,000; 0 turns it off. */
  engineCacheEntries?: number;
  /**
   * Memory this process may use, in MiB. Caches and compiled structures (glossaries and their term indexes)
   * are budgeted from it, per process and per account, and a request that would need more is answered 503
   * with `Retry-After` instead of growing the process. Default 768 (fits a 1 GiB container).
   */
  memoryBudgetMb?: number;
  /** Per-key rate limit. Default 100 requests/s, burst 200. `false` turns it off. */
  rateLimit?: false | RateLimitOptions;
  /** Storage to use instead of SQLite in `dataDir` (or PostgreSQL at `databaseUrl`). */
  storage?: Storage;
  /**
   * PostgreSQL (`postgres://user:password@host:5432/database`) for accounts, keys, settings and usage,
   * shared by every instance given the same URL. Default: SQLite in `dataDir`.
   */
  databaseUrl?: string;
  /**
   * Redis (`redis://host:6379`) that instances of a fleet share: per-key rate limits hold across them, and a
   * revoked key leaves every instance's key cache at once. Default: both per instance, in memory.
   */
  redisUrl?: string;
  /** Connections of this instance's PostgreSQL pool. Default 10. */
  databasePoolSize?: number;
  /**
   * On `close()`, how long requests in flight may take to finish before their connections are cut, in ms.
   * Default 10,000.
   */
  shutdownGraceMs?: number;
  /**
   * On `close()`, how long to keep serving normally while `GET /ready` answers 503, before closing, in ms:
   * a load balancer checking /ready stops sending requests first, so none meets a closing connection.
   * Default 0 (set it to the balancer's time to take a server out: check interval × failures).
   */
  shutdownDrainMs?: number;
  /** Serve `GET /metrics` (Prometheus text) on both listeners. Default true. */
  metrics?: boolean;
  /** Base URLs clients reach this server at, when behind a proxy. Default: the listening addresses. */
  publicUrl?: string;
  freePublicUrl?: string;
}

export interface ResolvedOptions {
  readonly dataDir: string;
  readonly port: number;
  readonly freePort: number;
  readonly host: string;
  readonly logger: false | { level: string; stream?: LogStream };
  readonly devKey: string | undefined;
  readonly rateLimit: false | Required<RateLimitOptions>;
  readonly engineCacheEntries: number;
  readonly memoryBudgetMb: number;
  readonly upstream: UpstreamOptions | undefined;
  readonly publicUrl: string | undefined;
  readonly freePublicUrl: string | undefined;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly databasePoolSize: number;
  readonly shutdownGraceMs: number;
  readonly shutdownDrainMs: number;
  readonly metrics: boolean;
  /** Every engine to start, in the default list's order first. */
  readonly engineOrder: readonly BuiltInEngine[];
  /** Per target or pair (`default` for the rest), when the order was given per language. */
  readonly enginesByTarget: Readonly<Record<string, readonly BuiltInEngine[]>> & {
    readonly default: readonly BuiltInEngine[];
  };
  readonly providers: ProviderOptions;
  readonly onKeptSource: ((event: import('./engines/chain.js').KeptSource) => void) | undefined;
}

function url(name: string, value: unknown, protocols: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = typeof value === 'string' ? new URL(value) : undefined;
  } catch {}
  if (!parsed || !protocols.includes(parsed.protocol)) {
    // Never echo the value: it may hold a password.
    throw new TypeError(`${name}: expected a ${protocols.map((p) => `${p}//`).join(' or ')} URL`);
  }
  return value as string;
}

function count(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < min) {
    throw new RangeError(`${name}: expected an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return value as number;
}

function port(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 65535) {
    throw new RangeError(`${name}: expected an integer port from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return value as number;
}

function engineList(name: string, value: unknown, empty = false): readonly BuiltInEngine[] {
  if (
    !Array.isArray(value) ||
    (value.length === 0 && !empty) ||
    !value.every((item) => (BUILT_IN_ENGINES as readonly string[]).includes(item)) ||
    new Set(value).size !== value.length
  ) {
    throw new TypeError(
      `${name}: expected distinct names among ${BUILT_IN_ENGINES.join(', ')}, got ${JSON.stringify(value)}`,
    );
  }
  return Object.freeze([...value]);
}

/** The engines to start, and the order per target; a plain list is the default for every pair. */
function engineOrder(value: unknown): Pick<ResolvedOptions, 'engineOrder' | 'enginesByTarget'> {
  if (value === undefined) {
    return { engineOrder: DEFAULT_ENGINE_ORDER, enginesByTarget: { default: DEFAULT_ENGINE_ORDER } };
  }
  if (Array.isArray(value)) {
    const list = engineList('engineOrder', value);
    return { engineOrder: list, enginesByTarget: { default: list } };
  }
  if (typeof value !== 'object' || value === null) {
    throw new TypeError(
      `engineOrder: expected a list of engines or { default: [...], <target or source:target>: [...] }, got ${JSON.stringify(value)}`,
    );
  }
  const byTarget: Record<string, readonly BuiltInEngine[]> = {};
  for (const [key, list] of Object.entries(value)) {
    if (key !== 'default' && !/^([a-z]{2,3}:)?[a-z]{2,3}(-[a-z0-9]{2,4})?$/i.test(key)) {
      throw new TypeError(
        `engineOrder: '${key}' is not a target language ('de', 'pt-BR'), a pair ('en:de') or 'default'`,
      );
    }
    byTarget[key] = engineList(`engineOrder.${key}`, list, key !== 'default');
  }
  const fallback = byTarget.default ?? DEFAULT_ENGINE_ORDER;
  const all = [...new Set([...fallback, ...Object.values(byTarget).flat()])];
  return { engineOrder: Object.freeze(all), enginesByTarget: { ...byTarget, default: fallback } };
}

/** Checks and completes the options once; everything else reads the resolved form. */
export function resolveOptions(options: ServerOptions = {}): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`createServer: expected an options object, got ${String(options)}`);
  }
  const dataDir =
    options.dataDir ?? process.env.GLOSSA_DATA_DIR ?? join(homedir(), '.cache', 'glossa', 'server');
  if (typeof dataDir !== 'string' || dataDir === '') {
    throw new TypeError(`dataDir: expected a directory path, got ${JSON.stringify(options.dataDir)}`);
  }
  const paidPort = port('port', options.port, 8080);
  const freePort = port('freePort', options.freePort, 8081);
  if (paidPort !== 0 && paidPort === freePort) {
    throw new RangeError(`freePort: the free plan needs its own port, got the paid port ${paidPort} twice`);
  }
  let rateLimit: ResolvedOptions['rateLimit'] = { requestsPerSecond: 100, burst: 200 };
  if (options.rateLimit === false) rateLimit = false;
  else if (options.rateLimit !== undefined) {
    const { requestsPerSecond, burst = requestsPerSecond * 2 } = options.rateLimit;
    if (!(requestsPerSecond > 0) || !(burst >= 1)) {
      throw new RangeError(
        `rateLimit: expected requestsPerSecond > 0 and burst >= 1, got ${JSON.stringify(options.rateLimit)}`,
      );
    }
    rateLimit = { requestsPerSecond, burst };
  }
  const engineCacheEntries = options.engineCacheEntries ?? 50_000;
  if (!Number.isSafeInteger(engineCacheEntries) || engineCacheEntries < 0) {
    throw new RangeError(`engineCacheEntries: expected a non-negative integer, got ${engineCacheEntries}`);
  }
  const logger = options.logger ?? false;
  const devKey = options.devKey ?? (process.env.GLOSSA_API_KEY || undefined);
  return {
    dataDir,
    port: paidPort,
    freePort,
    host: options.host ?? '127.0.0.1',
    logger:
      logger === false
        ? false
        : logger === true
          ? { level: 'info' }
          : { level: logger.level ?? 'info', ...(logger.stream ? { stream: logger.stream } : {}) },
    devKey,
    rateLimit,
    engineCacheEntries,
    memoryBudgetMb: count('memoryBudgetMb', options.memoryBudgetMb, 768, 64),
    upstream: options.upstream,
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    freePublicUrl: options.freePublicUrl?.replace(/\/+$/, ''),
    databaseUrl: url('databaseUrl', options.databaseUrl, ['postgres:', 'postgresql:']),
    redisUrl: url('redisUrl', options.redisUrl, ['redis:', 'rediss:']),
    databasePoolSize: count('databasePoolSize', options.databasePoolSize, 10, 1),
    shutdownGraceMs: count('shutdownGraceMs', options.shutdownGraceMs, 10_000, 0),
    shutdownDrainMs: count('shutdownDrainMs', options.shutdownDrainMs, 0, 0),
    metrics: options.metrics ?? true,
    ...engineOrder(options.engineOrder),
    providers: options.providers ?? {},
    onKeptSource: options.onKeptSource,
  };
}
