import type { OutputCache } from './engines/output-cache.js';
import type { EngineRegistry } from './engines/registry.js';
import type { CallerCache } from './http/auth.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { LanguageCatalog } from './languages.js';
import type { ResolvedOptions } from './options.js';
import type { ResourceStore } from './resources.js';
import type { Account, ApiKeyRecord, Storage } from './storage/storage.js';
import type { SourceDetector } from './translate/detect-source.js';

/** Everything the routes of both plan listeners share. Resolved once by `createServer`. */
export interface ServiceContext {
  readonly options: ResolvedOptions;
  readonly storage: Storage;
  readonly resources: ResourceStore;
  readonly engines: EngineRegistry;
  /** Engine outputs already computed (see `engineCache`). */
  readonly outputs: OutputCache;
  readonly languages: LanguageCatalog;
  readonly detector: SourceDetector;
  readonly rateLimiter: RateLimiter | undefined;
  readonly callers: CallerCache;
  /** Base URLs of the two plans; known once the listeners are bound (or from `publicUrl` options). */
  readonly urls: { paid: string; free: string };
}

/** Who is calling: set by the auth hook on every endpoint that needs a key. */
export interface Caller {
  readonly account: Account;
  readonly key: ApiKeyRecord;
}
