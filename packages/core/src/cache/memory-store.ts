/** The in-memory tier: an `lru-cache` bounded by entry count and total size. */
import { LRUCache } from 'lru-cache';
import type { CacheStore } from './store.js';

export interface MemoryStoreOptions {
  /** Maximum entries. Default 50,000. */
  readonly max?: number;
  /** Maximum total size of the stored targets, in UTF-16 code units. Default 64 Mi. */
  readonly maxSize?: number;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): CacheStore {
  const lru = new LRUCache<string, string>({
    max: options.max ?? 50_000,
    maxSize: options.maxSize ?? 64 * 1024 * 1024,
    sizeCalculation: (value, key) => value.length + key.length || 1,
  });
  return {
    name: 'memory',
    async getMany(keys) {
      const found = new Map<string, string>();
      for (const key of keys) {
        const value = lru.get(key);
        if (value !== undefined) found.set(key, value);
      }
      return found;
    },
    async setMany(entries) {
      for (const [key, value] of entries) lru.set(key, value);
    },
    async close() {
      lru.clear();
    },
  };
}
