/**
 * The translation cache: tiers looked up in order (memory, then file or Redis); a hit in a later tier
 * is copied into the earlier ones; writes go to every tier.
 */
import type { CacheStore } from './store.js';

export interface TranslationCache {
  /** Hits among `keys`, and which tier answered how many. */
  getMany(
    keys: readonly string[],
  ): Promise<{ found: Map<string, string>; hitsByTier: Record<string, number> }>;
  setMany(entries: ReadonlyMap<string, string>): Promise<void>;
  close(): Promise<void>;
}

export function createTranslationCache(tiers: readonly CacheStore[]): TranslationCache {
  return {
    async getMany(keys) {
      const found = new Map<string, string>();
      const hitsByTier: Record<string, number> = {};
      let missing = [...new Set(keys)];
      for (const [index, tier] of tiers.entries()) {
        if (missing.length === 0) break;
        const hits = await tier.getMany(missing);
        hitsByTier[tier.name] = (hitsByTier[tier.name] ?? 0) + hits.size;
        if (hits.size === 0) continue;
        for (const [k, v] of hits) found.set(k, v);
        await Promise.all(tiers.slice(0, index).map((earlier) => earlier.setMany(hits)));
        missing = missing.filter((k) => !hits.has(k));
      }
      return { found, hitsByTier };
    },
    async setMany(entries) {
      await Promise.all(tiers.map((tier) => tier.setMany(entries)));
    },
    async close() {
      await Promise.all(tiers.map((tier) => tier.close()));
    },
  };
}
