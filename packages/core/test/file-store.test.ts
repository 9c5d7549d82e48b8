import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CacheStoreError,
  createPseudoTranslator,
  createTranslationCache,
  createTranslationRun,
  openFileStore,
  TranslationLock,
  type Translator,
} from '../src/index.js';
import { catalog } from './helpers/catalog.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-core-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('file store', () => {
  it('persists entries and compacts to a sorted, one-entry-per-line file', async () => {
    const path = join(dir, '.glossa', 'cache.jsonl');
    const store = await openFileStore({ path });
    await store.setMany(
      new Map([
        ['b', 'B1'],
        ['a', 'A'],
      ]),
    );
    await store.setMany(new Map([['b', 'B2']]));
    expect(await readFile(path, 'utf8')).toBe('["b","B1"]\n["a","A"]\n["b","B2"]\n');
    await store.close();
    expect(await readFile(path, 'utf8')).toBe('["a","A"]\n["b","B2"]\n');
    const again = await openFileStore({ path });
    expect(await again.getMany(['a', 'b', 'c'])).toEqual(
      new Map([
        ['a', 'A'],
        ['b', 'B2'],
      ]),
    );
    await again.close();
  });

  it('drops a torn last line and invalid lines, and keeps appending cleanly', async () => {
    const path = join(dir, 'cache.jsonl');
    await writeFile(path, '["a","A"]\nnot json\n["b","B"]\n["c","C');
    const store = await openFileStore({ path });
    expect(store.droppedLines).toBe(2);
    expect(store.size).toBe(2);
    await store.setMany(new Map([['d', 'D']]));
    expect(await readFile(path, 'utf8')).toBe('["a","A"]\nnot json\n["b","B"]\n["d","D"]\n');
    await store.close();
  });

  it('opening reads only the file: the folder is made on the first write, stale compaction copies go at the next compaction', async () => {
    const path = join(dir, 'new', 'cache.jsonl');
    const store = await openFileStore({ path });
    expect(await readdir(dir)).toEqual([]); // opening a missing cache creates nothing
    await store.setMany(new Map([['a', 'A']]));
    await writeFile(`${path}.tmp-1-2`, '["half"'); // left by a compaction that was killed
    await store.compact();
    expect(await readdir(join(dir, 'new'))).toEqual(['cache.jsonl']);
    await store.close();
    expect((await (await openFileStore({ path })).getMany(['a'])).get('a')).toBe('A');
  });

  it('an unreadable path is a CacheStoreError', async () => {
    await writeFile(join(dir, 'file'), 'x');
    await expect(openFileStore({ path: join(dir, 'file', 'cache.jsonl') })).rejects.toThrow(CacheStoreError);
  });

  it('compacts by itself when superseded lines pile up', async () => {
    const path = join(dir, 'cache.jsonl');
    const store = await openFileStore({ path, compactRatio: 2 });
    for (let round = 0; round < 3; round++) {
      await store.setMany(new Map(Array.from({ length: 600 }, (_, i) => [`k${i}`, `v${round}`])));
    }
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines.length).toBeLessThan(1800);
    expect(store.size).toBe(600);
    await store.close();
  });
});

describe('crash safety', () => {
  it('a run killed mid-write (SIGKILL) leaves a readable cache and lock; the rerun sends only what is missing', async () => {
    const cachePath = join(dir, '.glossa', 'cache.jsonl');
    const lockPath = join(dir, 'glossa.lock');
    const total = 4000;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions',
        '@glossa/source',
        join(import.meta.dirname, 'helpers', 'crash-writer.ts'),
        cachePath,
        lockPath,
        String(total),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stored = 0;
    let waves = 0;
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (text: string) => {
        for (const m of text.matchAll(/^stored (\d+)$/gm)) {
          stored = Number(m[1]);
          if (++waves === 5) child.kill('SIGKILL');
        }
      });
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    expect(waves).toBeGreaterThanOrEqual(5);
    expect(stored).toBeLessThan(total); // killed before the end

    // Torn or not, both files open; everything reported done is there.
    const store = await openFileStore({ path: cachePath });
    expect(store.size).toBeGreaterThanOrEqual(stored);
    const cached = store.size;
    const lock = await TranslationLock.open(lockPath);
    expect(lock.size('en-XA')).toBeGreaterThanOrEqual(stored);

    const sent: string[] = [];
    const pseudo = createPseudoTranslator();
    const counting: Translator = {
      translateText: (texts, options) => {
        sent.push(...texts);
        return pseudo.translateText(texts, options);
      },
    };
    const run = createTranslationRun({
      translator: counting,
      sourceLang: 'en',
      targetLangs: ['en-XA'],
      cache: createTranslationCache([store]),
      lock,
    });
    const { report, targets } = await run.translate({ segments: catalog(total) });
    expect(sent.length).toBe(total - cached);
    expect(report.cacheHits).toBe(cached);
    expect(report.translated).toBe(total - cached);
    expect(targets.get('en-XA')!.size).toBe(total);
    await store.close();
  });
});
