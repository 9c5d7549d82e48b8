import type { Account, ApiKeyRecord } from '../storage/storage.js';

/** Who is calling: set by the auth hook on every endpoint that needs a key. */
export interface Caller {
  readonly account: Account;
  readonly key: ApiKeyRecord;
}

/**
 * Recently seen keys and their callers, by the `Authorization` header as sent, so a busy key costs no
 * parsing, hashing or database read per request. Memory only: the header is never stored or logged.
 * Entries live `ttlMs`; an account change (plan, limit) is seen within that time.
 */
export class CallerCache {
  readonly #entries = new Map<string, { caller: Caller; expires: number }>();
  constructor(
    readonly ttlMs = 5_000,
    readonly maxEntries = 10_000,
  ) {}

  get(header: string): Caller | undefined {
    const entry = this.#entries.get(header);
    if (entry && entry.expires > performance.now()) return entry.caller;
    if (entry) this.#entries.delete(header);
    return undefined;
  }

  /** Forgets every key (one was revoked: the cache is keyed by header, not by key). */
  clear(): void {
    this.#entries.clear();
  }

  set(header: string, caller: Caller): void {
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(header, { caller, expires: performance.now() + this.ttlMs });
  }
}
