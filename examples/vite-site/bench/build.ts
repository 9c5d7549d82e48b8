/**
 * The example site's Vite build with @glossa/vite and a warm cache (2 pages + 1 catalog × es, en-XA, no
 * request) vs the plain build of the same site without the plugin, interleaved in one run; medians.
 * Target: ratio ≤ 1.15.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { siteConfig } from '../site.config.js';

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const dir = await mkdtemp(join(tmpdir(), 'glossa-vite-bench-'));
const glossa = {
  cache: { path: join(dir, 'cache.jsonl') },
  service: { dataDir: process.env.GLOSSA_DATA_DIR ?? join(dir, 'server') },
};
const quiet = { logLevel: 'silent' as const };
// Fill the cache (real translation through the embedded server), then every measured build is warm.
await build({ ...siteConfig(glossa, join(dir, 'fill')), ...quiet });

const times = { plain: [] as number[], glossa: [] as number[] };
const cpu = { plain: [] as number[], glossa: [] as number[] };
for (let round = 0; round < ROUNDS + 2; round++) {
  for (const name of ['plain', 'glossa'] as const) {
    const options = name === 'plain' ? false : { ...glossa, cacheOnly: true }; // cacheOnly: proves no request
    const start = performance.now();
    const startCpu = process.cpuUsage();
    const config = siteConfig(options, join(dir, name));
    // Both builds overwrite their own previous output (same file names): the figure is the build, not
    // the deletion of the last one, which grows with the number of files (3 × with two locales).
    await build({ ...config, ...quiet, build: { ...config.build, emptyOutDir: false } });
    const used = process.cpuUsage(startCpu);
    if (round >= 2) {
      // 2 warm-up rounds
      times[name].push(performance.now() - start);
      cpu[name].push((used.user + used.system) / 1000);
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const best = (xs: number[]) => Math.min(...xs);
const line = (label: string, f: (xs: number[]) => number, xs: typeof times) =>
  console.log(
    `  ${label.padEnd(22)} plain ${f(xs.plain).toFixed(0).padStart(4)} ms   with glossaVite ${f(xs.glossa).toFixed(0).padStart(4)} ms   ratio ${(f(xs.glossa) / f(xs.plain)).toFixed(3)}`,
  );
console.log(
  `vite build of examples/vite-site, warm cache, ${ROUNDS} interleaved rounds (target ratio ≤ 1.15):`,
);
line('wall, median', median, times);
line('wall, best', best, times);
line('CPU (this process), median', median, cpu);
await rm(dir, { recursive: true, force: true });
