/**
 * The units of each component module from the last build, by the hash of its source and the extraction
 * options: a warm build parses only the modules that changed. One JSON file next to the translation
 * cache (`cache.vite-units.json` for `cache.jsonl`; file cache only), read once and written after a build
 * when it changed, holding the entries that build used.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { KeyedUnit } from './extract.js';

/** Bump when extraction makes different units from the same source. */
const FORMAT = 'glossa-vite-units-v3';

export interface UnitCache {
  get(file: string, code: string): KeyedUnit[] | undefined;
  set(file: string, code: string, units: readonly KeyedUnit[]): void;
  flush(): Promise<void>;
}

export function createUnitCache(cachePath: string, options: unknown): UnitCache {
  const path = join(dirname(cachePath), `${basename(cachePath, extname(cachePath))}.vite-units.json`);
  const salt = JSON.stringify([FORMAT, options], (_k, v) => (v instanceof Set ? [...v].sort() : v));
  let old: Record<string, KeyedUnit[]> = {};
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as {
      salt?: string;
      entries?: Record<string, KeyedUnit[]>;
    };
    if (data.salt === salt && data.entries && typeof data.entries === 'object') old = data.entries;
  } catch {
    // missing or unreadable: every module is parsed
  }
  const used: Record<string, KeyedUnit[]> = {};
  let changed = false;
  const nameOf = (file: string, code: string) => `${file}\0${createHash('sha1').update(code).digest('hex')}`;
  return {
    get(file, code) {
      const name = nameOf(file, code);
      const units = old[name];
      if (units) used[name] = units;
      return units;
    },
    set(file, code, units) {
      used[nameOf(file, code)] = [...units];
      changed = true;
    },
    async flush() {
      if (!changed && Object.keys(used).length === Object.keys(old).length) return;
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.tmp-${process.pid}`;
      await writeFile(tmp, JSON.stringify({ salt, entries: used }));
      await rename(tmp, path);
    },
  };
}
