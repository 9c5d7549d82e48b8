/**
 * Built catalogs kept in the translation cache, under their own key, with the translations they were
 * made from (cache key → target): a later read reuses one only while each of those is unchanged, so a
 * changed source, option or translation builds it again.
 */
import { createHash } from 'node:crypto';
import type { TranslationCache } from '@glossa/core';
import type { Catalog } from './catalog.js';

/** A built catalog and the translations it was made from: their cache keys and values, in order. */
interface Entry {
  readonly catalog: Catalog;
  readonly keys: string[];
  readonly values: string[];
}

/** The cache key of a built catalog: the hash of what it is made from, besides the translations. */
export function builtKey(material: readonly unknown[]): string {
  const text = JSON.stringify(['glossa-i18next-catalog-v2', ...material]);
  return createHash('sha256').update(text).digest('hex');
}

export async function reuseBuilt(cache: TranslationCache, key: string): Promise<Catalog | undefined> {
  const text = (await cache.getMany([key])).found.get(key);
  if (text === undefined) return undefined;
  try {
    const entry = JSON.parse(text) as Entry;
    const { found } = await cache.getMany(entry.keys);
    return entry.keys.every((k, i) => found.get(k) === entry.values[i]) ? entry.catalog : undefined;
  } catch {
    return undefined; // not an entry: built again
  }
}

export async function storeBuilt(
  cache: TranslationCache,
  key: string,
  catalog: Catalog,
  translations: ReadonlyMap<string, string>,
): Promise<void> {
  const entry: Entry = { catalog, keys: [...translations.keys()], values: [...translations.values()] };
  await cache.setMany(new Map([[key, JSON.stringify(entry)]]));
}
