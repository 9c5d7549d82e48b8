import type { FastifyInstance } from 'fastify';
import {
  type CreateAccountOptions,
  type CreatedAccount,
  createAccount,
  ensureDevAccount,
} from './accounts.js';
import type { ServiceContext } from './context.js';
import { billedEngine } from './engines/billing.js';
import { createConfiguredRegistry, defaultEngines } from './engines/defaults.js';
import { createOutputCache } from './engines/output-cache.js';
import type { createEngineRegistry } from './engines/registry.js';
import { checkFeatures, type RunningFeature, type ServerFeature } from './features.js';
import { closeAgreementTools } from './glossaries/agreement.js';
import { sharedHelperLifetime } from './helper-lifetime.js';
import { buildApp } from './http/app.js';
import { CallerCache } from './http/caller-cache.js';
import { createRateLimiter } from './http/rate-limit.js';
import { createJobRunner, type JobRunner } from './jobs/job-runner.js';
import { hashKey } from './keys.js';
import { createLanguageCatalog } from './languages.js';
import { MEMORY_JOB_KIND } from './memories/jobs.js';
import { configureMemoryBudget } from './memory-budget.js';
import { createMetrics } from './metrics.js';
import { resolveOptions, type ServerOptions } from './options.js';
import { createResourceStore, type ResourceStore } from './resources.js';
import { SPINE_ROUTES } from './routes/index.js';
import {
  announceKeyRevoked,
  connectRedis,
  createRedisRateLimiter,
  subscribeKeyRevocations,
} from './shared-state.js';
import { createPostgresStorage } from './storage/postgres.js';
import { createSqliteStorage } from './storage/sqlite.js';
import type { Storage } from './storage/storage.js';
import { createSourceDetector } from './translate/detect-source.js';

/** `ServerOptions` and the feature packages to serve beside the spine. */
export interface CreateServerOptions extends ServerOptions {
  /**
   * E.g. `[documentsFeature(), languageToolsFeature(), voiceFeature()]`. Default none: their endpoints answer
   * 501 naming the package to install.
   */
  features?: readonly ServerFeature[];
  /** The server's job runner (`ServiceContext.jobs`), shared by every job kind (memories, documents, …). */
  jobs?: JobsOptions;
}

export interface JobsOptions {
  /** Jobs of every kind this instance runs at a time (default 4). */
  readonly concurrency?: number;
  /** Jobs of one account running at a time, across the fleet (default 2). */
  readonly maxRunningPerAccount?: number;
  /** Jobs of one account waiting or running past which a submit is refused (default 1000). */
  readonly maxQueuedPerAccount?: number;
  /** How often jobs of dead instances and expired jobs are looked for, in ms (default 5 s). */
  readonly sweepMs?: number;
  /** How often an idle worker looks for work (SQLite: default 500 ms; PostgreSQL: pg-boss's polling, 2 s, at least 500 ms). */
  readonly pollMs?: number;
}

export interface GlossaServer {
  /** Paid-plan base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Free-plan base URL (its own port). */
  readonly freeUrl: string;
  /** Key of the local development account (paid, admin, detection beta, quality alpha, voice jobs alpha, memory matches). */
  readonly devKey: string;
  /** True when this start created the development account (a new data directory). */
  readonly devAccountCreated: boolean;
  /** The Fastify apps of the two plans (for `inject` and hooks). */
  readonly paid: FastifyInstance;
  readonly free: FastifyInstance;
  createAccount(options: CreateAccountOptions): Promise<CreatedAccount>;
  /**
   * Deletes a key; every instance sharing this one's Redis forgets it at once (without Redis, other
   * instances within their key cache's 5 s). False when no such key exists.
   */
  revokeKey(key: string): Promise<boolean>;
  /** Binds both listeners. */
  listen(): Promise<void>;
  /**
   * Stops accepting requests, lets those in flight finish (at most `shutdownGraceMs`), then stops features,
   * engines, storage and Redis. Safe to call twice.
   */
  close(): Promise<void>;
}

/** The `lt-proc` processes of glossary term agreement, shared by every server of the process. */
const retainAgreementTools = sharedHelperLifetime(closeAgreementTools);

function baseUrl(address: string | { address: string; port: number } | null): string {
  if (address === null || typeof address === 'string') return String(address);
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Closes a listener: no new connection, idle keep-alive connections closed, requests in flight answered;
 * after `graceMs` the connections still open are cut.
 */
async function closeApp(app: FastifyInstance, graceMs: number): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/** How long `/ready` waits for a feature's `ready()` before it answers 503 "still loading". */
const FEATURE_READY_WAIT_MS = 1000;

/** A feature's `ready()`, rejected after `FEATURE_READY_WAIT_MS`: `/ready` answers, never hangs on a load. */
async function featureReady(feature: RunningFeature): Promise<void> {
  if (!feature.ready) return;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('a feature is still loading')), FEATURE_READY_WAIT_MS);
  });
  try {
    await Promise.race([feature.ready(), waited]);
  } finally {
    clearTimeout(timer);
  }
}

/** Creates the service (storage opened and migrated, development account ensured) without listening. */
export async function createServer(options: CreateServerOptions = {}): Promise<GlossaServer> {
  const resolved = resolveOptions(options);
  // The caches' ceiling, before any request (a glossary's upload reserves from it too).
  configureMemoryBudget(resolved.memoryBudgetMb);
  const features = checkFeatures(options.features);
  const metrics = createMetrics();
  const postgres =
    !options.storage && resolved.databaseUrl
      ? await createPostgresStorage(resolved.databaseUrl, { poolSize: resolved.databasePoolSize })
      : undefined;
  const storage: Storage = metrics.countUsage(
    options.storage ?? postgres ?? createSqliteStorage(resolved.dataDir),
  );
  const redis = resolved.redisUrl ? connectRedis(resolved.redisUrl) : undefined;
  // Errors surface on the commands (a request answers 5xx, /ready answers 503), not as process crashes.
  redis?.on('error', () => {});
  const callers = new CallerCache();
  let dev: Awaited<ReturnType<typeof ensureDevAccount>>;
  let engines: ReturnType<typeof createEngineRegistry>;
  let resources: ResourceStore | undefined;
  /** Errors of background work (the job runner): logged once the apps (and their logger) exist. */
  let reportError = (_error: unknown) => {};
  const onError = (error: unknown) => reportError(error);
  // One runner per server, for every job kind: features register theirs in `start`; started after them.
  const jobs: JobRunner = createJobRunner(
    storage.openJobBackend({
      onError,
      ...(options.jobs?.pollMs === undefined ? {} : { pollMs: options.jobs.pollMs }),
    }),
    {
      concurrency: options.jobs?.concurrency ?? 4,
      ...(options.jobs?.maxRunningPerAccount === undefined
        ? {}
        : { maxRunningPerAccount: options.jobs.maxRunningPerAccount }),
      ...(options.jobs?.maxQueuedPerAccount === undefined
        ? {}
        : { maxQueuedPerAccount: options.jobs.maxQueuedPerAccount }),
      ...(options.jobs?.sweepMs === undefined ? {} : { sweepMs: options.jobs.sweepMs }),
      storage,
      onError,
    },
  );
  let unsubscribe: (() => Promise<void>) | undefined;
  try {
    if (resolved.redisUrl)
      unsubscribe = await subscribeKeyRevocations(resolved.redisUrl, () => callers.clear());
    resources = await createResourceStore(resolved.dataDir, storage, {
      // The storage's pool: one pool per instance (closed with the storage).
      ...(postgres ? { databaseUrl: resolved.databaseUrl, pool: postgres.pool } : {}),
      jobs,
      onError,
    });
    metrics.gauge(
      'glossa_memory_jobs_processing',
      'Translation memory import/export jobs queued or running (on PostgreSQL: of every instance).',
      () => jobs.count([MEMORY_JOB_KIND], ['queued', 'running']),
    );
    metrics.gauge(
      'glossa_jobs_active',
      'Jobs of every kind queued or running on the job runner (on PostgreSQL: of every instance).',
      () => jobs.depth(),
    );
    dev = await ensureDevAccount(storage, resolved.dataDir, resolved.devKey);
    engines = createConfiguredRegistry(
      (options.engines ?? (await defaultEngines(resolved))).map((engine) =>
        billedEngine(metrics.countErrors(engine)),
      ),
      resolved,
      options.engines !== undefined,
    );
  } catch (error) {
    await jobs.close();
    await resources?.close();
    await unsubscribe?.();
    redis?.disconnect();
    await storage.close();
    throw error;
  }
  const hostForUrl = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const context: ServiceContext = {
    options: resolved,
    storage,
    resources,
    jobs,
    engines,
    languages: createLanguageCatalog(engines, features),
    outputs: createOutputCache(resolved.engineCacheEntries),
    detector: createSourceDetector(),
    rateLimiter:
      resolved.rateLimit === false
        ? undefined
        : redis
          ? createRedisRateLimiter(redis, resolved.rateLimit)
          : createRateLimiter(resolved.rateLimit),
    callers,
    metrics,
    async ready() {
      if (draining) throw new Error('the server is stopping');
      await storage.getSetting('glossa.ready');
      await redis?.ping();
      await Promise.all(running.map(featureReady));
    },
    urls: {
      paid: resolved.publicUrl ?? `http://${hostForUrl}:${resolved.port}`,
      free: resolved.freePublicUrl ?? `http://${hostForUrl}:${resolved.freePort}`,
    },
  };
  const routes = [...SPINE_ROUTES, ...features.flatMap((feature) => feature.routes)];
  const paid = buildApp('paid', context, routes, features);
  const free = buildApp('free', context, routes, features);
  reportError = (error) => paid.log.warn({ err: error }, 'job runner error');
  const running: RunningFeature[] = [];
  try {
    // A feature may refuse to start (the job stores of an earlier version in its data): nothing starts then.
    for (const feature of features) if (feature.start) running.push(await feature.start(context, paid.log));
    await jobs.start();
  } catch (error) {
    await Promise.allSettled(running.map((feature) => feature.close()));
    await jobs.close();
    await engines.close();
    await resources.close();
    await unsubscribe?.();
    redis?.disconnect();
    await storage.close();
    throw error;
  }
  const releaseAgreementTools = retainAgreementTools();
  let closed = false;
  let draining = false;

  return {
    get url() {
      return context.urls.paid;
    },
    get freeUrl() {
      return context.urls.free;
    },
    devKey: dev.key,
    devAccountCreated: dev.created,
    paid,
    free,
    createAccount: (accountOptions) => createAccount(storage, accountOptions),
    async revokeKey(key) {
      const hash = hashKey(key);
      const revoked = await storage.revokeKey(hash);
      callers.clear();
      if (revoked && resolved.redisUrl) await announceKeyRevoked(resolved.redisUrl, hash);
      return revoked;
    },
    async listen() {
      await paid.listen({ port: resolved.port, host: resolved.host });
      try {
        await free.listen({ port: resolved.freePort, host: resolved.host });
      } catch (error) {
        await paid.close();
        throw error;
      }
      if (!resolved.publicUrl) context.urls.paid = baseUrl(paid.server.address());
      if (!resolved.freePublicUrl) context.urls.free = baseUrl(free.server.address());
    },
    async close() {
      if (closed) return;
      closed = true;
      if (resolved.shutdownDrainMs > 0) {
        // Still serving, keep-alive connections included; only /ready says 503, so that a balancer takes
        // this instance out before any connection of it closes.
        draining = true;
        await new Promise((resolve) => setTimeout(resolve, resolved.shutdownDrainMs));
      }
      await Promise.allSettled([
        closeApp(paid, resolved.shutdownGraceMs),
        closeApp(free, resolved.shutdownGraceMs),
      ]);
      releaseAgreementTools();
      // Running jobs stop at their next step (and run again, here after a restart or on another instance).
      await jobs.close();
      await Promise.all(running.map((feature) => feature.close()));
      await engines.close();
      await resources.close();
      await unsubscribe?.();
      redis?.disconnect();
      await storage.close();
    },
  };
}

/** `createServer` and `listen` in one call: the embedded server every test and the framework start. */
export async function startServer(options: CreateServerOptions = {}): Promise<GlossaServer> {
  const server = await createServer(options);
  try {
    await server.listen();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}
