// Child of bench/memory.ts: builds a catalog and (mode "run") translates it through the server given in
// the environment with the file cache and the lock; prints its peak RSS in bytes as JSON.
import { join } from 'node:path';
import { GlossaClient } from '@glossa/client';
import {
  createMemoryStore,
  createTranslationCache,
  createTranslationRun,
  openFileStore,
  TranslationLock,
} from '../src/index.js';
import { makeCorpus } from './corpus.js';

const [mode, n, dir] = [process.argv[2], Number(process.argv[3]), process.argv[4]!];
const segments = makeCorpus(n, 0.3);
let report: unknown;
if (mode === 'run') {
  const client = new GlossaClient({ authKey: process.env.BENCH_KEY!, serverUrl: process.env.BENCH_URL! });
  const store = await openFileStore({ path: join(dir, 'cache.jsonl') });
  const lock = await TranslationLock.open(join(dir, 'glossa.lock'));
  const run = createTranslationRun({
    translator: client,
    sourceLang: 'en',
    targetLangs: ['en-XA'],
    cache: createTranslationCache([createMemoryStore(), store]),
    lock,
    // BENCH_TRACE=1: memory (MB, RSS and heap) at each progress event, on stderr.
    ...(process.env.BENCH_TRACE && {
      onEvent: (e: { type: string }) => {
        const { rss, heapUsed } = process.memoryUsage();
        console.error(e.type, Math.round(rss / 1e6), Math.round(heapUsed / 1e6));
      },
    }),
  });
  const result = await run.translate({ segments });
  report = {
    requests: result.report.requests,
    translated: result.report.translated,
    failures: result.report.failures.length,
  };
  await store.close();
}
console.log(
  JSON.stringify({ maxRss: process.resourceUsage().maxRSS * 1024, segments: segments.length, report }),
);
