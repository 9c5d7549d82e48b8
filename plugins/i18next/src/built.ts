/**
 * Built catalogs kept in the translation cache, under their own key, with every translation they were
 * made from (cache key → target): a later read reuses one only while each of those is unchanged, so a
 * changed source, option or translation builds it again.
 */
import { createHash } from 'node:crypto';
import type { TranslationCache } from '@glossa/core';
import type { Catalog } from './catalog.js';

/** The cache key of a built catalog: the hash of what it is made from, besides the translations. */
export function builtKey(material: readonly unknown[]): string {
  const text = JSON.stringify(['glossa-i18next-catalog-v1', ...material]);
  return createHash('sha256').update(text).digest('hex');
}

export async function reuseBuilt(cache: TranslationCache, key: string): Promise<Catalog | undefined> {
  const text = (await cache.getMany([key])).found.get(key);
  if (text === undefined) return undefined;
  try {
    const entry = JSON.parse(text) as { catalog: Catalog; translations: [string, string][] };
    const { found } = await cache.getMany(entry.translations.map(([k]) => k));
    return entry.translations.every(([k, v]) => found.get(k) === v) ? entry.catalog : undefined;
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
  const entry = JSON.stringify({ catalog, translations: [...translations] });
  await cache.setMany(new Map([[key, entry]]));
}
