// Billing and request-count benchmark against a real @glossa/server (pseudo engine, en-XA):
// billed characters / floor (unique new code points) on a corpus with duplicates and after a 5% change;
// requests vs ceil(unique JSON bytes / 128 KiB); a warm run sends nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GlossaClient } from '@glossa/client';
import { MAX_TRANSLATE_REQUEST_BYTES } from '@glossa/protocol';
import { startServer } from '@glossa/server';
import {
  createMemoryStore,
  createTranslationCache,
  createTranslationRun,
  inlinePlainText,
  openFileStore,
  type RunSegment,
} from '../src/index.js';
import { changeSources, makeCorpus } from './corpus.js';

const N = Number(process.env.BENCH_SEGMENTS ?? 40_000);
const dir = await mkdtemp(join(tmpdir(), 'glossa-bench-billing-'));
const server = await startServer({
  dataDir: join(dir, 'data'),
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
});
const client = new GlossaClient({ authKey: server.devKey, serverUrl: server.url });
const store = await openFileStore({ path: join(dir, 'cache.jsonl') });
const cache = createTranslationCache([createMemoryStore(), store]);
const run = createTranslationRun({ translator: client, sourceLang: 'en', targetLangs: ['en-XA'], cache });

const seen = new Set<string>();
/** Floor: code points of the sources never sent before; and the JSON bytes of those texts. */
function floor(segments: readonly RunSegment[]) {
  let codePoints = 0;
  let jsonBytes = 0;
  for (const s of segments) {
    if (seen.has(s.source)) continue;
    seen.add(s.source);
    codePoints += [...inlinePlainText(s.source)].length;
    jsonBytes += Buffer.byteLength(JSON.stringify(s.source));
  }
  return { codePoints, jsonBytes };
}

const rows: string[] = [];
async function measure(name: string, segments: readonly RunSegment[]) {
  const f = floor(segments);
  const started = performance.now();
  const { report } = await run.translate({ segments });
  const ms = performance.now() - started;
  const bound = Math.ceil(f.jsonBytes / MAX_TRANSLATE_REQUEST_BYTES);
  const billedRatio =
    f.codePoints === 0
      ? report.billedCharacters === 0
        ? 1
        : Infinity
      : report.billedCharacters / f.codePoints;
  rows.push(
    `| ${name} | ${segments.length} | ${report.cacheHits} | ${report.requests} | ${bound} | ${report.billedCharacters} | ${f.codePoints} | ${billedRatio.toFixed(2)} | ${Math.round(ms)} |`,
  );
  return { report, bound, billedRatio };
}

const corpus = makeCorpus(N, 0.3);
const cold = await measure('cold run (30% duplicates)', corpus);
const changed = await measure('after a 5% source change', changeSources(corpus, 0.05));
const warm = await measure('warm rerun', changeSources(corpus, 0.05));

console.log(`core billing benchmark: ${N} segments, real server (pseudo engine en-XA), file + memory cache`);
console.log(
  '| run | segments | cache hits | requests | ceil(unique JSON bytes / 128 KiB) | billed chars | floor (unique new code points) | billed / floor | ms |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
const ok =
  cold.billedRatio === 1 &&
  changed.billedRatio === 1 &&
  cold.report.requests <= 1.05 * cold.bound &&
  changed.report.requests <= Math.max(1, 1.05 * changed.bound) &&
  warm.report.requests === 0;
console.log(
  `targets (billed/floor = 1.00, requests <= 1.05 x bound, warm run 0 requests): ${ok ? 'met' : 'NOT met'}`,
);
await store.close();
await server.close();
await rm(dir, { recursive: true, force: true });
if (!ok) process.exitCode = 1;
