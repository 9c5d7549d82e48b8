/**
 * The build's result cache. A localized page (or catalog) is a pure function of its source bytes, its
 * path, the locales, the request and link options and the translations it was made from. All entries
 * live in one JSON file next to the translation cache (`cache.vite-results.json` for `cache.jsonl`), read
 * once per build; an entry, named by the hash of everything but the translations, holds the outputs per
 * locale and the translations used (cache key → target).
 *
 * The file also records the translation cache file's identity (inode, size, mtime in ns) as it was when
 * the entries were written. While the cache file is unchanged, every entry is still current, and a warm
 * build uses them without opening the translation cache at all. Once it has changed (a run, an edit, the
 * CLI), an entry is used only after each of its translations is checked against the cache.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { TranslationCache } from '@glossa/core';

/** Bump when extraction, merging or the entry format changes the output for the same inputs. */
const FORMAT = 'glossa-vite-results-v2';

interface Entry {
  readonly outputs: Record<string, string>;
  readonly translations: [string, string][];
}

interface ResultsFile {
  readonly format: string;
  /** The translation cache file's identity when the entries were written. */
  readonly cacheStamp: string;
  readonly entries: Record<string, Entry>;
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
  /** After a full build: the entries it did not use are dropped when the file is written. */
  prune(): void;
  /** Writes the file (temp file + rename) if anything changed; call after the translation cache closed. */
  flush(): Promise<void>;
}

export interface ResultStoreOptions {
  /** The translation cache file. */
  readonly cachePath: string;
  /** The translation cache, opened on first use: only when an entry must be checked. */
  readonly cache: TranslationCache;
  /** Whether `cache` was opened (then it may have written the cache file). */
  readonly cacheOpened: () => boolean;
}

/** `.glossa/cache.jsonl` → `.glossa/cache.vite-results.json`. */
export function resultsPathOf(cachePath: string): string {
  return join(dirname(cachePath), `${basename(cachePath, extname(cachePath))}.vite-results.json`);
}

export function createResultStore(options: ResultStoreOptions): ResultStore {
  const path = resultsPathOf(options.cachePath);
  const used = new Set<string>();
  let loaded: { entries: Record<string, Entry>; trusted: boolean; stamp: string } | undefined;
  let dirty = false;
  let pruning = false;
  // Read synchronously: one small file and a stat, cheaper than two trips through libuv's thread pool.
  const load = () => {
    if (!loaded) {
      const file = readResults(path);
      const stamp = stampOf(options.cachePath);
      loaded = { entries: file?.entries ?? {}, trusted: file?.cacheStamp === stamp, stamp };
    }
    return loaded;
  };
  const nameOf = (material: readonly unknown[]) =>
    createHash('sha256')
      .update(JSON.stringify([FORMAT, ...material]))
      .digest('hex');

  return {
    async get(material) {
      const { entries, trusted } = load();
      const name = nameOf(material);
      const entry = entries[name];
      if (!entry) return undefined;
      if (!trusted) {
        const { found } = await options.cache.getMany(entry.translations.map(([key]) => key));
        if (!entry.translations.every(([key, value]) => found.get(key) === value)) return undefined;
      }
      used.add(name);
      return entry.outputs;
    },
    async set(material, outputs, translations) {
      const { entries } = load();
      const name = nameOf(material);
      entries[name] = { outputs, translations: [...translations] };
      used.add(name);
      dirty = true;
    },
    prune() {
      pruning = true;
    },
    async flush() {
      if (!loaded) return;
      const state = loaded;
      // The cache file as this session leaves it: unchanged unless the cache was opened.
      const stamp = options.cacheOpened() ? stampOf(options.cachePath) : state.stamp;
      // Entries this session neither used nor made were checked against the old cache file only.
      const keepAll = state.trusted && stamp === state.stamp && !pruning;
      const entries = keepAll
        ? state.entries
        : Object.fromEntries(Object.entries(state.entries).filter(([name]) => used.has(name)));
      const changed =
        dirty ||
        stamp !== state.stamp ||
        !state.trusted ||
        Object.keys(entries).length !== Object.keys(state.entries).length;
      if (!changed) return;
      const file: ResultsFile = { format: FORMAT, cacheStamp: stamp, entries };
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.tmp-${process.pid}-${randomUUID()}`; // two builds in one process: two temp files
      await writeFile(tmp, JSON.stringify(file));
      await rename(tmp, path); // a reader sees the whole file or the previous one
    },
  };
}

function readResults(path: string): ResultsFile | undefined {
  try {
    const file = JSON.parse(readFileSync(path, 'utf8')) as ResultsFile;
    const valid =
      file?.format === FORMAT && typeof file.cacheStamp === 'string' && typeof file.entries === 'object';
    return valid ? file : undefined;
  } catch {
    return undefined; // missing or unreadable: made again
  }
}

/**
 * The cache file's identity: a rewrite, append or edit changes it; `none` while there is no file. A file
 * modified in the last moments (mtime ticks are coarse: a same-size edit in the same tick would keep it)
 * gets a stamp that matches nothing, so the entries are checked once more by the next build ("racy git").
 */
function stampOf(path: string): string {
  const s = statSync(path, { bigint: true, throwIfNoEntry: false });
  if (!s) return 'none';
  if (Date.now() - Number(s.mtimeMs) < RACY_MS) return `racy:${process.pid}:${performance.now()}`;
  return `${s.ino}:${s.size}:${s.mtimeNs}`;
}

const RACY_MS = 100;
