/**
 * The example site's Vite build with @glossa/vite and a warm cache (2 pages + 1 catalog × es, en-XA, no
 * request) vs the plain build of the same site without the plugin: interleaved rounds in one process
 * (the order alternates each round), medians of wall and CPU time, and the ratio of the medians.
 * Target: ratio ≤ 1.15. A third build, "emit only", is the plain build plus a plugin that emits the same
 * 12 files the warm build adds (pages, catalogs, manifest) with no other work: what writing them costs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'vite';
import { siteConfig } from '../site.config.js';

const ROUNDS = Number(process.env.ROUNDS ?? 40);
const WARMUP = 3;
// BENCH_DIR=/dev/shm puts the cache and outputs in memory: the figure without other jobs' disk traffic.
const dir = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'glossa-vite-bench-'));
const glossa = {
  cache: { path: join(dir, 'cache.jsonl') },
  service: { dataDir: process.env.GLOSSA_DATA_DIR ?? join(dir, 'server') },
};
const quiet = { logLevel: 'silent' as const };
// Fill the cache (real translation through the embedded server); every measured build is warm.
await build({ ...siteConfig(glossa, join(dir, 'fill')), ...quiet });
await new Promise((resolve) => setTimeout(resolve, 200)); // a later build, not one in the same mtime tick

const added = files(join(dir, 'fill')).filter((f) => /^(es|en-XA|locales)\//.test(f));
const emitOnly: Plugin = {
  name: 'emit-only',
  generateBundle() {
    for (const fileName of added) {
      this.emitFile({ type: 'asset', fileName, source: readFileSync(join(dir, 'fill', fileName), 'utf8') });
    }
  },
};
const variants = {
  plain: () => siteConfig(false, join(dir, 'plain')),
  glossa: () => siteConfig({ ...glossa, cacheOnly: true }, join(dir, 'glossa')), // cacheOnly: no request
  'emit only': () => ({ ...siteConfig(false, join(dir, 'emit')), plugins: [emitOnly] }),
};
type Name = keyof typeof variants;
const names = Object.keys(variants) as Name[];
const wall = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Name, number[]>;
const cpu = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Name, number[]>;
const resultsFile = join(dir, 'cache.vite-results.json');
let resultsStamp = '';

for (let round = 0; round < ROUNDS + WARMUP; round++) {
  if (round === WARMUP) resultsStamp = stampOf(resultsFile);
  for (const name of round % 2 === 0 ? names : [...names].reverse()) {
    const config = variants[name]();
    const start = performance.now();
    const startCpu = process.cpuUsage();
    // Every build overwrites its own previous output (same file names): the figure is the build, not
    // the deletion of the last one, which grows with the number of files.
    await build({ ...config, ...quiet, build: { ...config.build, emptyOutDir: false } });
    const used = process.cpuUsage(startCpu);
    if (round >= WARMUP) {
      wall[name].push(performance.now() - start);
      cpu[name].push((used.user + used.system) / 1000);
    }
  }
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (x: number) => `${x.toFixed(1).padStart(6)} ms`;
console.log(
  `vite build of examples/vite-site, warm cache, ${ROUNDS} interleaved rounds (target ratio ≤ 1.15):`,
);
const best = (xs: number[]) => Math.min(...xs);
for (const [label, xs, f] of [
  ['wall, median', wall, median],
  ['CPU, median', cpu, median],
  ['wall, best', wall, best], // least disturbed by other jobs on the machine
] as const) {
  const base = f(xs.plain);
  const row = names.map(
    (n) => `${n} ${ms(f(xs[n]))}${n === 'plain' ? '' : ` (${(f(xs[n]) / base).toFixed(3)})`}`,
  );
  console.log(`  ${label.padEnd(13)} ${row.join('   ')}`);
}
// Each round's builds run back to back: the median of the per-round ratios is the least moved by load
// that changes during the run.
for (const [label, xs] of [
  ['wall', wall],
  ['CPU', cpu],
] as const) {
  const paired = names
    .filter((n) => n !== 'plain')
    .map((n) => `${n} ${median(xs[n].map((x, i) => x / xs.plain[i]!)).toFixed(3)}`);
  console.log(`  ${`${label}, paired`.padEnd(13)} median of per-round ratios: ${paired.join('   ')}`);
}
const steady = stampOf(resultsFile) === resultsStamp;
console.log(
  `  result file ${steady ? 'unchanged by the measured builds (served without reading the translation cache)' : 'REWRITTEN during the measured builds: not the warm path'}`,
);
await rm(dir, { recursive: true, force: true });

function files(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(root, path).split('\\').join('/'));
    }
  };
  walk(root);
  return out.sort();
}

function stampOf(path: string): string {
  const s = statSync(path, { bigint: true, throwIfNoEntry: false });
  return s ? `${s.ino}:${s.size}:${s.mtimeNs}` : 'none';
}
