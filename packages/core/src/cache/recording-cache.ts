import type { TranslationCache } from './translation-cache.js';

/**
 * A cache that remembers every key it answered or stored, with the value: the translations a run's output
 * was made from, so a built output (a page, a catalog) can be reused only while each of them is unchanged.
 */
export function recordingCache(cache: TranslationCache): {
  cache: TranslationCache;
  used: Map<string, string>;
} {
  const used = new Map<string, string>();
  return {
    used,
    cache: {
      async getMany(keys) {
        const result = await cache.getMany(keys);
        for (const [key, value] of result.found) used.set(key, value);
        return result;
      },
      async setMany(entries) {
        await cache.setMany(entries);
        for (const [key, value] of entries) used.set(key, value);
      },
      close: () => cache.close(),
    },
  };
}
