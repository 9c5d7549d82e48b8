/**
 * Growth benchmark, dimension "glossary entries" (issue 31): what a /v2/translate request with one large
 * glossary costs the server, for glossaries doubled from 5,000 entries to the 10 MiB limit (160,000):
 * reading it (its stored TSV into an entry table) and compiling it (matcher and word index, once per version) and then the request's own work (candidates of
 * its text and term matching). Prints time and retained heap per size and the fitted exponent (log-log
 * least squares; ≤ 1.15 is linear enough), with the character trie it replaced as the baseline of the same
 * run (its memory at each size).
 *   pnpm --filter @glossa/server bench:growth        (ONLY=<regexp>: skipped unless it matches "glossary")
 */

import { formatGlossaryEntries } from '@glossa/protocol';
import { growthExponent } from '../../quality/bench/exponent.js';
import { candidateEntries, WordIndex } from '../src/glossaries/candidates.js';
import { TermMatcher } from '../src/glossaries/matcher.js';
import { tsvTableInSlices } from '../src/glossaries/store.js';
import { GrowthRun } from './growth-harness.js';

// `ONLY=<regexp>` (as for growth-endpoints.ts) runs this file only when it matches its dimension.
if (!GrowthRun.selected('glossary entries (function level)')) process.exit(0);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const entriesOf = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    source: i % 4 === 0 ? `term${i.toString(36)}x word${i}` : `term${i.toString(36)}x`,
    target: `objetivo ${i} ${'largo '.repeat(6)}`,
  }));
/** Made apart, so that no temporary of it stays on the module's frame (it would count as freed). */
const tsvOf = (count: number) => formatGlossaryEntries(entriesOf(count));
const TEXT = 'Hello, the term1x house has files and a term4x word4 on the disk. '.repeat(20);

interface TrieNode {
  next: Map<string, TrieNode>;
  target?: string;
}
/** The character trie of the matcher before issue 31 (a Map per character): the baseline. */
function trie(entries: readonly { source: string; target: string }[]): TrieNode {
  const root: TrieNode = { next: new Map() };
  for (const entry of entries) {
    let node = root;
    for (const char of entry.source.toLowerCase()) {
      let child = node.next.get(char);
      if (!child) {
        child = { next: new Map() };
        node.next.set(char, child);
      }
      node = child;
    }
    node.target ??= entry.target;
  }
  return root;
}

/** The JS heap and the typed arrays' buffers (the matcher's and the entry table's integer tables). */
const heap = () => {
  gc!();
  gc!();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
};

// Warm-up, so that the first size does not pay the compiler's start.
WordIndex.of(entriesOf(20_000));
new TermMatcher(entriesOf(20_000));

const sizes = [5_000, 10_000, 20_000, 40_000, 80_000, 160_000];
const times: number[] = [];
const heaps: number[] = [];
const trieHeaps: number[] = [];
console.log('entries   compile ms   request ms   retained MiB   trie baseline MiB');
for (const size of sizes) {
  // Read as the server reads a stored dictionary (its TSV into an entry table): counted in time and memory.
  const tsv = tsvOf(size);
  const before = heap();
  let started = performance.now();
  const entries = await tsvTableInSlices(tsv);
  const matcher = new TermMatcher(entries);
  const words = WordIndex.of(entries);
  const compileMs = performance.now() - started;
  started = performance.now();
  const picked = candidateEntries([TEXT], matcher, words);
  matcher.find(TEXT);
  const requestMs = performance.now() - started;
  const retained = heap() - before;
  const asObjects = entries.toArray();
  const trieBefore = heap();
  const root = trie(asObjects);
  const trieRetained = heap() - trieBefore;
  times.push(compileMs + requestMs);
  heaps.push(retained);
  trieHeaps.push(trieRetained);
  console.log(
    `${String(size).padStart(7)}   ${compileMs.toFixed(0).padStart(10)}   ${requestMs.toFixed(1).padStart(10)}   ${(retained / 2 ** 20).toFixed(1).padStart(12)}   ${(trieRetained / 2 ** 20).toFixed(1).padStart(17)}   (${picked.length} candidates, trie root ${root.next.size})`,
  );
}
console.log(
  `fitted exponent over entries: time ${growthExponent(sizes, times, 1e-6).toFixed(2)}, retained memory ${growthExponent(sizes, heaps, 1e-6).toFixed(2)}; at 160,000 entries the compact matcher holds ${(heaps.at(-1)! / 2 ** 20).toFixed(0)} MiB, the trie baseline ${(trieHeaps.at(-1)! / 2 ** 20).toFixed(0)} MiB (${(trieHeaps.at(-1)! / heaps.at(-1)!).toFixed(1)}×)`,
);
