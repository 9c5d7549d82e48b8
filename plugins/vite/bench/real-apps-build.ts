/**
 * Issue 30's two real apps (TailAdmin on Vite 6, RealWorld on Vite 5, each with its own Vite: apps.ts),
 * measured as examples/react-app/bench/build.ts measures the React example: the app's `vite build`
 * without the plugin (plain) against the same build with `glossaVite({ locales: ['es','en-XA'],
 * components: true })` and a warm cache, lock and catalog (`cacheOnly`: no request can be made);
 * interleaved rounds in one process (the order alternates each round), warm-up rounds first, medians of
 * wall and CPU time and the ratio of the medians. Target: ratio ≤ 1.15. Also once: the cold build
 * (empty cache: translation through the embedded server).
 *
 *   pnpm --filter @glossa/vite bench:real-apps   (ROUNDS=5 WARMUP=1; ONLY=<regexp>: only the apps it matches)
 *   (`pnpm --filter @glossa/vite bench` runs it after size.ts: 1.5 min on an idle 2-CPU machine)
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GlossaViteOptions } from '@glossa/vite';
import { build, type UserConfig } from 'vite';
import { REAL_APPS, removeCopies } from './apps.js';
import { interleaved, ms as msWidth, ratioLines } from './interleaved.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const WARMUP = Number(process.env.WARMUP ?? 1);
const only = process.env.ONLY ? new RegExp(process.env.ONLY) : undefined;
const dir = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'glossa-vite-real-apps-'));

const ms = (x: number) => msWidth(x, 6);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

try {
  for (const [name, loadApp] of Object.entries(REAL_APPS)) {
    if (only && !only.test(name)) continue;
    const { appConfig, locales, build: buildApp = build } = await loadApp();
    const cache = join(dir, name.split(' ')[0]!);
    const glossa: Partial<GlossaViteOptions> = {
      cache: { path: join(cache, 'cache.jsonl') },
      lock: join(cache, 'glossa.lock'),
      service: { dataDir: process.env.GLOSSA_DATA_DIR ?? join(dir, 'server') },
      components: { catalogDir: join(cache, 'catalogs') },
    };
    const timed = async (config: UserConfig) => {
      const start = performance.now();
      const startCpu = process.cpuUsage();
      await buildApp({ ...config, logLevel: 'silent', build: { ...config.build, emptyOutDir: false } });
      const used = process.cpuUsage(startCpu);
      return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
    };
    const loadBefore = load();
    const cold = await timed(appConfig(glossa, join(cache, 'glossa')));
    await new Promise((resolve) => setTimeout(resolve, 200)); // a later build, not one in the same mtime tick
    const { wall, cpu } = await interleaved(
      {
        plain: () => timed(appConfig(false, join(cache, 'plain'))),
        // cacheOnly: no request can be made
        glossa: () => timed(appConfig({ ...glossa, cacheOnly: true }, join(cache, 'glossa'))),
      },
      ROUNDS,
      WARMUP,
    );
    // The warm build made every locale's pages (not a build that silently skipped them).
    for (const locale of locales) await stat(join(cache, 'glossa', locale, 'index.html'));
    console.log(
      `vite build of ${name} (es, en-XA), ${ROUNDS} interleaved rounds + ${WARMUP} warm-up (target ratio ≤ 1.15); ` +
        `load average ${loadBefore} before, ${load()} after:`,
    );
    for (const line of ratioLines({ wall, cpu }, 6)) console.log(line);
    console.log(
      `  all rounds, wall: plain ${wall.plain.map(Math.round).join(' ')}; glossa ${wall.glossa.map(Math.round).join(' ')}`,
    );
    console.log(
      `  once: cold (empty cache, translated by the embedded server) ${ms(cold.wall)} wall, ${ms(cold.cpu)} CPU`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
  await removeCopies();
}
