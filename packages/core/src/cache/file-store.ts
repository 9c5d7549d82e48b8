/**
 * The persistent tier: one JSON-lines file in the project (default `.glossa/cache.jsonl`), one
 * `["<key>","<target>"]` per line, sorted by key after compaction so it diffs well.
 *
 * Crash safety: new entries are appended in one write and flushed (`fdatasync`) before `setMany`
 * resolves; a torn last line (a crash mid-append) is dropped on open. Compaction writes a sorted copy to
 * a temporary file, flushes it and renames it over the old one, so a crash leaves either file whole.
 */
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, truncate } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CacheStoreError } from '../errors.js';
import type { CacheStore } from './store.js';

export interface FileStoreOptions {
  /** The cache file. */
  readonly path: string;
  /** Compact when the file holds more than this many times the live entries. Default 2. */
  readonly compactRatio?: number;
}

export interface FileStore extends CacheStore {
  /** Entries loaded or written. */
  readonly size: number;
  /** Lines dropped on open because they were torn or not valid. */
  readonly droppedLines: number;
  /** Rewrites the file sorted, without superseded lines. */
  compact(): Promise<void>;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}

export async function openFileStore(options: FileStoreOptions): Promise<FileStore> {
  const path = options.path;
  const ratio = options.compactRatio ?? 2;
  const dir = dirname(path);
  const entries = new Map<string, string>();
  let lines = 0;
  let droppedLines = 0;
  try {
    // No directory work here (opened once per build): it is made on the first write, and the copies
    // an interrupted compaction left are removed by the next compaction.
    const data = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const end = data.lastIndexOf('\n') + 1;
    if (end < data.length) {
      droppedLines++; // torn final line from an interrupted append
      await truncate(path, Buffer.byteLength(data.slice(0, end)));
    }
    for (const line of data.slice(0, end).split('\n')) {
      if (line === '') continue;
      lines++;
      try {
        const entry: unknown = JSON.parse(line);
        if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string') {
          entries.set(entry[0], entry[1]);
        } else droppedLines++;
      } catch {
        droppedLines++;
      }
    }
  } catch (error) {
    throw new CacheStoreError(`Cannot read the cache file ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }

  let handle: FileHandle | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const openAppend = async () => {
    await mkdir(dir, { recursive: true });
    return open(path, 'a');
  };

  const compactNow = async () => {
    await handle?.close();
    handle = undefined;
    await mkdir(dir, { recursive: true });
    for (const name of await readdir(dir)) {
      if (name.startsWith(`${basename(path)}.tmp-`)) await rm(join(dir, name), { force: true });
    }
    const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
    const sorted = [...entries.keys()].sort();
    const out = await open(tmp, 'w');
    try {
      const chunk: string[] = [];
      for (const key of sorted) {
        chunk.push(`${JSON.stringify([key, entries.get(key)])}\n`);
        if (chunk.length >= 4096) await out.write(chunk.splice(0).join(''));
      }
      await out.write(chunk.join(''));
      await out.sync();
    } finally {
      await out.close();
    }
    await rename(tmp, path);
    await syncDir(dir);
    lines = sorted.length;
  };

  return {
    name: 'file',
    get size() {
      return entries.size;
    },
    droppedLines,
    async getMany(keys) {
      const found = new Map<string, string>();
      for (const key of keys) {
        const value = entries.get(key);
        if (value !== undefined) found.set(key, value);
      }
      return found;
    },
    setMany(batch) {
      return serial(async () => {
        const chunk: string[] = [];
        try {
          for (const [key, value] of batch) {
            if (entries.get(key) === value) continue;
            entries.set(key, value);
            chunk.push(`${JSON.stringify([key, value])}\n`);
            lines++;
            if (chunk.length >= 4096) {
              handle ??= await openAppend();
              await handle.write(chunk.splice(0).join(''));
            }
          }
          if (chunk.length === 0 && !handle) return;
          handle ??= await openAppend();
          if (chunk.length > 0) await handle.write(chunk.join(''));
          await handle.datasync();
          if (lines > Math.max(1000, entries.size * ratio)) await compactNow();
        } catch (error) {
          throw new CacheStoreError(`Cannot write the cache file ${path}: ${(error as Error).message}`, {
            cause: error,
          });
        }
      });
    },
    compact() {
      return serial(compactNow);
    },
    close() {
      return serial(async () => {
        if (lines !== entries.size || handle) await compactNow();
        await handle?.close();
        handle = undefined;
      });
    },
  };
}
