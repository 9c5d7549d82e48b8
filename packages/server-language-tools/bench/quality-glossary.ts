/**
 * A synchronous quality evaluation with the largest glossary the limits allow (160,000 entries, 10 MiB) and
 * a ~1 MB body (100 segments of ~5,000 characters each side), on one server in this process (SQLite): the
 * time of each request (the first one after the glossary was created, then three more), the event loop's
 * largest delay during it (`monitorEventLoopDelay`, 10 ms resolution), the longest garbage collection of
 * the main thread's heap then (a pause of the loop, whatever code runs) and the process's peak RSS (sampled
 * every 20 ms). Two bodies: English text that holds none of the terms, and sources made of the terms
 * themselves (most of them kept).
 * Run: npx tsx --conditions @glossa/source bench/quality-glossary.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { startServer } from '@glossa/server';
import { BENCH_SERVER_OPTIONS } from '../../server/bench/bench-server.js';
import { languageToolsFeature } from '../src/index.js';
import { closeHunspell } from '../src/write/hunspell.js';

const ENTRIES = 160_000;
const source = (i: number) => `glossary term ${i.toString(36)} of the bench`;
const target = (i: number) => `término ${i.toString(36)} del glosario prueba`;
let tsv = Array.from({ length: ENTRIES }, (_, i) => `${source(i)}\t${target(i)}`).join('\n');

const SEGMENTS = 100;
const LENGTH = 5000;
const prose = 'The quick brown fox jumps over the lazy dog while the file is saved. ';
const plain = Array.from({ length: SEGMENTS }, () => ({
  source: prose.repeat(80).slice(0, LENGTH),
  translation: 'El rápido zorro marrón salta sobre el perro perezoso. '.repeat(100).slice(0, LENGTH),
}));
let next = 0;
const ofTerms = Array.from({ length: SEGMENTS }, () => {
  let text = '';
  while (text.length < LENGTH) text += `${source(next++ % ENTRIES)}. `;
  return { source: text, translation: `${target(next % ENTRIES)} `.repeat(140).slice(0, LENGTH) };
});

const dataDir = mkdtempSync(join(tmpdir(), 'glossa-quality-glossary-'));
const server = await startServer({
  dataDir,
  ...BENCH_SERVER_OPTIONS,
  // This process also holds the bench's own copies of the glossary and the bodies.
  memoryBudgetMb: 2048,
  features: [languageToolsFeature()],
});
const key = (await server.createAccount({ plan: 'paid', qualityAlpha: true })).key;
const headers = { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' };

async function call(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(server.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

const MiB = 2 ** 20;
/** The longest garbage collection of the main thread's heap during a measure (it pauses the event loop). */
let gcMax = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
}).observe({ entryTypes: ['gc'] });
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);

async function measure(name: string, work: () => Promise<string>): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  peakRss = process.memoryUsage().rss;
  gcMax = 0;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const from = performance.now();
  const note = await work();
  const ms = performance.now() - from;
  await new Promise((resolve) => setTimeout(resolve, 50));
  delay.disable();
  console.log(
    `| ${name} | ${ms.toFixed(0)} | ${(delay.max / 1e6).toFixed(0)} | ${gcMax.toFixed(0)} | ${(peakRss / MiB).toFixed(0)} | ${note} |`,
  );
}

// Warm-up: the Spanish dictionary, the route, a worker thread.
await call('/v3/quality/evaluate', { source_lang: 'en', target_lang: 'es', segments: plain.slice(0, 1) });

console.log(
  `glossary: ${ENTRIES} entries, ${(Buffer.byteLength(tsv) / MiB).toFixed(1)} MiB; bodies: ${SEGMENTS} segments of ${LENGTH} characters each side\n`,
);
console.log('| request | ms | event-loop delay max ms | longest GC ms | peak RSS MiB | answer |');
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
let glossaryId = '';
await measure('create the glossary', async () => {
  const created = await call('/v2/glossaries', {
    name: 'large',
    source_lang: 'en',
    target_lang: 'es',
    entries: tsv,
    entries_format: 'tsv',
  });
  if (created.status !== 201) throw new Error(`glossary: ${created.status} ${created.text.slice(0, 200)}`);
  glossaryId = (JSON.parse(created.text) as { glossary_id: string }).glossary_id;
  tsv = '';
  return '201';
});
for (const [name, segments] of [
  ['plain text (no term)', plain],
  ['sources made of terms', ofTerms],
] as const) {
  const body = { source_lang: 'en', target_lang: 'es', glossary_id: glossaryId, segments };
  const bytes = Buffer.byteLength(JSON.stringify(body));
  for (const round of [1, 2, 3, 4]) {
    await measure(`${name}, ${(bytes / 1e6).toFixed(2)} MB, request ${round}`, async () => {
      const answer = await call('/v3/quality/evaluate', body);
      if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text.slice(0, 200)}`);
      const issues = (answer.text.match(/"check":"glossary_term"/g) ?? []).length;
      return `200, ${issues} glossary issues`;
    });
  }
}

clearInterval(sampler);
await server.close();
closeHunspell();
rmSync(dataDir, { recursive: true, force: true });
// Threads the server leaves idle (the glossary thread) must not keep the bench waiting.
process.exit(0);
