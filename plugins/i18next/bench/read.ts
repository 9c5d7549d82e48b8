/**
 * Warm `read` of a 1,000-key namespace: GlossaBackend serving it from a warm translation cache vs
 * i18next-fs-backend reading the same (already translated) catalog from disk. Interleaved rounds in one
 * run; medians. The cache is filled by the pseudo translator (en-XA), so no server is needed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMemoryStore,
  createPseudoTranslator,
  createTranslationCache,
  openFileStore,
} from '@glossa/core';
import FsBackend from 'i18next-fs-backend';
import { type Catalog, GlossaBackend } from '../src/index.js';

const KEYS = 1_000;
const ROUNDS = Number(process.env.ROUNDS ?? 40);
const source: Catalog = {};
for (let i = 0; i < KEYS; i++) {
  source[`key${i}`] =
    i % 10 === 0
      ? `You have {{count}} new messages in folder ${i}`
      : `Label number ${i} of the settings page`;
}

const dir = await mkdtemp(join(tmpdir(), 'glossa-i18next-bench-'));
const cachePath = join(dir, 'cache.jsonl');
const translator = createPseudoTranslator();
const warm = createTranslationCache([createMemoryStore(), await openFileStore({ path: cachePath })]);
const filler = new GlossaBackend(undefined, { loadSource: () => source, translator, cache: warm });
const translated = await filler.read('en-XA', 'app');
await mkdir(join(dir, 'en-XA'));
await writeFile(join(dir, 'en-XA', 'app.json'), JSON.stringify(translated));

const refusing = { translateText: async () => Promise.reject(new Error('warm read made a request')) };
const glossaWarm = async () => {
  // A new backend each time (i18next reads a namespace once per language): the open cache is warm.
  const backend = new GlossaBackend(undefined, {
    loadSource: () => source,
    translator: refusing,
    cache: warm,
  });
  return backend.read('en-XA', 'app');
};
const glossaFromFile = async () => {
  // Cold process with a warm cache file: the cache is opened (file read) as part of the read.
  const cache = createTranslationCache([await openFileStore({ path: cachePath })]);
  const backend = new GlossaBackend(undefined, { loadSource: () => source, translator: refusing, cache });
  const out = await backend.read('en-XA', 'app');
  await cache.close();
  return out;
};
const fsRead = () =>
  new Promise<unknown>((resolve, reject) => {
    const backend = new FsBackend(undefined, { loadPath: join(dir, '{{lng}}', '{{ns}}.json') });
    backend.read('en-XA', 'app', (err: unknown, data: unknown) => (err ? reject(err) : resolve(data)));
  });

const times = { glossaWarm: [] as number[], glossaFromFile: [] as number[], fsRead: [] as number[] };
for (let round = 0; round < ROUNDS + 5; round++) {
  for (const [name, fn] of Object.entries({ fsRead, glossaWarm, glossaFromFile })) {
    const start = performance.now();
    const out = await fn();
    const ms = performance.now() - start;
    if (JSON.stringify(out) !== JSON.stringify(translated)) throw new Error(`${name}: wrong catalog`);
    if (round >= 5) times[name as keyof typeof times].push(ms); // 5 rounds of warm-up
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base = median(times.fsRead);
console.log(`warm read of a ${KEYS.toLocaleString('en-US')}-key namespace (median of ${ROUNDS}):`);
console.log(`  i18next-fs-backend (baseline)       ${base.toFixed(2)} ms`);
console.log(
  `  GlossaBackend, cache open           ${median(times.glossaWarm).toFixed(2)} ms  ratio ${(median(times.glossaWarm) / base).toFixed(2)}`,
);
console.log(
  `  GlossaBackend, cache file opened    ${median(times.glossaFromFile).toFixed(2)} ms  ratio ${(median(times.glossaFromFile) / base).toFixed(2)}`,
);
await warm.close();
await rm(dir, { recursive: true, force: true });
