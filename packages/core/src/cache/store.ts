/** A tier of the translation cache: maps cache keys to targets (segment sources with codes). */
export interface CacheStore {
  readonly name: string;
  /** The entries found among `keys`. */
  getMany(keys: readonly string[]): Promise<Map<string, string>>;
  setMany(entries: ReadonlyMap<string, string>): Promise<void>;
  /** Flushes and releases resources. */
  close(): Promise<void>;
}
