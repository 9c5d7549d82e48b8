/**
 * Translation memory benchmark: TMX import speed (segments/s, parsing and indexing included) and fuzzy
 * lookup latency per segment in a 100,000-segment memory (p50, p99), each against a baseline measured in
 * the same run: import against writing the same segments without the token index, lookup against scoring
 * every segment (a scan).
 *   pnpm --filter @glossa/server bench:memory
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { matchScore, tokenize } from '../src/memories/score.js';
import { createMemoryStore } from '../src/memories/store.js';
import { readTmx, writeTmx } from '../src/memories/tmx.js';
import { openResourceDatabase } from '../src/storage/resource-db.js';

const SEGMENTS = Number(process.env.SEGMENTS ?? 100_000);
const QUERIES = 1000;

let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const WORDS = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);
// Zipf-like: common words are much more frequent than rare ones.
const word = () => WORDS[Math.floor(WORDS.length * random() ** 3)]!;
const sentence = () => `${Array.from({ length: 6 + Math.floor(random() * 12) }, word).join(' ')}.`;

const sources = Array.from({ length: SEGMENTS }, sentence);
const units = sources.map((source, i) => ({
  source,
  targets: [{ language: 'es', text: `traducción ${i}` }],
}));
const dir = mkdtempSync(join(tmpdir(), 'glossa-bench-memory-'));
const db = openResourceDatabase(dir);
const store = createMemoryStore(db);

// Baseline: the same segments written without the token index.
const plain = db.prepare(
  'INSERT INTO memory_segments (memory_id, source_text, source_key, token_count) VALUES (?, ?, ?, ?)',
);
const baselineId = await store.begin('bench', 'baseline');
let started = performance.now();
db.transaction(() => {
  for (const unit of units) plain.run(baselineId, unit.source, unit.source, 0);
})();
const baselineRate = SEGMENTS / ((performance.now() - started) / 1000);
await store.discard(baselineId);

let tmx = '';
for await (const piece of writeTmx('en', units)) tmx += piece;
started = performance.now();
const id = await store.begin('bench', 'bench');
const summary = await readTmx(Readable.from([Buffer.from(tmx)]), (batch) => store.addBatch(id, batch));
await store.finish(id, summary.source, summary.targets, summary.segments);
const importSeconds = (performance.now() - started) / 1000;
const importRate = SEGMENTS / importSeconds;

// Queries: stored sentences with one word replaced (a fuzzy match exists), and new sentences (none does).
const queries = Array.from({ length: QUERIES }, (_, i) => {
  if (i % 2 === 1) return sentence();
  const words = sources[Math.floor(random() * SEGMENTS)]!.slice(0, -1).split(' ');
  words[Math.floor(random() * words.length)] = 'changed';
  return `${words.join(' ')}.`;
});
const latencies: number[] = [];
let hits = 0;
for (const query of queries) {
  const t0 = performance.now();
  if (await store.lookup(id, query, 'es', 75)) hits++;
  latencies.push(performance.now() - t0);
}
latencies.sort((a, b) => a - b);
const percentile = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]!;

const tokenized = sources.map(tokenize);
const scanTimes: number[] = [];
for (const query of queries.slice(0, 20)) {
  const t0 = performance.now();
  const tokens = tokenize(query);
  let best = 0;
  for (let i = 0; i < SEGMENTS; i++)
    best = Math.max(best, matchScore(query, tokens, sources[i]!, tokenized[i]!));
  scanTimes.push(performance.now() - t0);
}
const scanMean = scanTimes.reduce((a, b) => a + b, 0) / scanTimes.length;
const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;

const ms = (value: number) => `${value.toFixed(2)} ms`;
console.log(`memory of ${SEGMENTS} segments (${(Buffer.byteLength(tmx) / 2 ** 20).toFixed(1)} MiB TMX)`);
console.log(
  `import (parse + write + index): ${Math.round(importRate)} segments/s (${importSeconds.toFixed(1)} s)`,
);
console.log(
  `baseline insert without index:  ${Math.round(baselineRate)} segments/s; ratio ${(importRate / baselineRate).toFixed(2)}`,
);
console.log(
  `fuzzy lookup, threshold 75, ${QUERIES} queries (${hits} matched): p50 ${ms(percentile(50))}, p99 ${ms(percentile(99))}, mean ${ms(mean)}`,
);
console.log(
  `baseline scan of every segment: mean ${ms(scanMean)} per query; indexed lookup is ${(scanMean / mean).toFixed(0)}× faster`,
);
db.close();
rmSync(dir, { recursive: true, force: true });
