import type { OutputCache } from './engines/output-cache.js';
import type { EngineRegistry } from './engines/registry.js';
import type { CallerCache } from './http/caller-cache.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { LanguageCatalog } from './languages.js';
import type { ServerMetrics } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import type { ResourceStore } from './resources.js';
import type { Storage } from './storage/storage.js';
import type { SourceDetector } from './translate/detect-source.js';

/** Everything the routes of both plan listeners share. Resolved once by `createServer`. */
export interface ServiceContext {
  readonly options: ResolvedOptions;
  readonly storage: Storage;
  readonly resources: ResourceStore;
  /**
   * The server's one durable job runner (`jobs/job-runner.ts`), on the storage's backend (SQLite, or
   * PostgreSQL + pg-boss for a fleet). A feature registers its job kinds in `start` (`jobs.register(kind)`:
   * submit, status, cancel, result of its jobs); the server starts the workers once every feature started,
   * and closes the runner before the features. Never start or close it from a feature.
   */
  readonly jobs: JobRunner;
  readonly engines: EngineRegistry;
  /** Engine outputs already computed (see `engineCache`). */
  readonly outputs: OutputCache;
  readonly languages: LanguageCatalog;
  readonly detector: SourceDetector;
  readonly rateLimiter: RateLimiter | undefined;
  readonly callers: CallerCache;
  /** Prometheus metrics of this server (`GET /metrics`); features may add gauges (queue depth). */
  readonly metrics: ServerMetrics;
  /** Resolves when storage (and Redis, when configured) answer; rejects otherwise (`GET /ready`). */
  ready(): Promise<void>;
  /** Base URLs of the two plans; known once the listeners are bound (or from `publicUrl` options). */
  readonly urls: { paid: string; free: string };
}

export type { Caller } from './http/caller-cache.js';
