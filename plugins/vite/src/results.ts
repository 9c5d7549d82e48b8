/**
 * The build's result cache. A localized page (or catalog) is a pure function of its source bytes, its
 * path, the locales, the request options and the translations it was made from. Each entry, one file
 * named by the hash of everything but the translations, stores the outputs per locale and the
 * translations used (cache key → target); a warm build reuses it only when every one of those is still
 * the translation cache's current value, so a changed source, option or translation rebuilds it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TranslationCache } from '@glossa/core';

/** Bump when extraction, merging or the entry format changes the output for the same inputs. */
const FORMAT = 'glossa-vite-results-v1';

interface Entry {
  readonly outputs: Record<string, string>;
  readonly translations: [string, string][];
}

export interface ResultStore {
  /** The outputs per locale, when the entry exists and every translation it used is unchanged. */
  get(material: readonly unknown[]): Promise<Record<string, string> | undefined>;
  /** Stores outputs made from `translations` (every cache key the run read or wrote, with its value). */
  set(
    material: readonly unknown[],
    outputs: Record<string, string>,
    translations: ReadonlyMap<string, string>,
  ): Promise<void>;
  /** Removes the entries this store neither read nor wrote, when it wrote any (after a full build). */
  prune(): Promise<void>;
}

export function createResultStore(dir: string, cache: TranslationCache): ResultStore {
  const used = new Set<string>();
  let wrote = false;
  const nameOf = (material: readonly unknown[]) =>
    `${createHash('sha256')
      .update(JSON.stringify([FORMAT, ...material]))
      .digest('hex')}.json`;

  return {
    async get(material) {
      const name = nameOf(material);
      used.add(name);
      const entry = await readFile(join(dir, name), 'utf8').then(parseEntry, () => undefined);
      if (!entry) return undefined;
      const { found } = await cache.getMany(entry.translations.map(([key]) => key));
      const current = entry.translations.every(([key, value]) => found.get(key) === value);
      return current ? entry.outputs : undefined;
    },
    async set(material, outputs, translations) {
      const name = nameOf(material);
      used.add(name);
      wrote = true;
      const entry: Entry = { outputs, translations: [...translations] };
      await mkdir(dir, { recursive: true });
      const tmp = join(dir, `${name}.tmp-${process.pid}`);
      await writeFile(tmp, JSON.stringify(entry));
      await rename(tmp, join(dir, name)); // a reader sees the whole entry or none
    },
    async prune() {
      if (!wrote) return;
      for (const name of await readdir(dir).catch(() => [])) {
        if (!used.has(name)) await rm(join(dir, name), { force: true });
      }
    },
  };
}

function parseEntry(text: string): Entry | undefined {
  try {
    const entry = JSON.parse(text) as Entry;
    return entry && typeof entry.outputs === 'object' && Array.isArray(entry.translations)
      ? entry
      : undefined;
  } catch {
    return undefined; // unreadable: made again
  }
}
