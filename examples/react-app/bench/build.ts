/**
 * The React app's Vite build with @glossa/vite (`components`, es + en-XA) and a warm cache vs the plain
 * build of the same app without the plugin: interleaved rounds in one process (the order alternates each
 * round), medians of wall and CPU time, and the ratio of the medians. Target: ratio ≤ 1.15. Also once:
 * the cold build (empty cache: translation through the embedded server and one build per locale) and a
 * build after a component changed (translations cached: the locale builds run again).
 *
 *   pnpm --filter @glossa/example-react-app bench
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type InlineConfig } from 'vite';
import { interleaved, ms, ratioLines } from '../../../plugins/vite/bench/interleaved.js';
import { appConfig, appRoot } from '../app.config.js';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const WARMUP = 2;
const dir = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'glossa-react-bench-'));
const glossa = {
  cache: { path: join(dir, 'cache.jsonl') },
  lock: join(dir, 'glossa.lock'),
  service: { dataDir: process.env.GLOSSA_DATA_DIR ?? join(dir, 'server') },
  components: { catalogDir: join(dir, 'catalogs') },
};
const quiet = { logLevel: 'silent' as const };
const timed = async (config: InlineConfig) => {
  const start = performance.now();
  const startCpu = process.cpuUsage();
  await build({ ...config, ...quiet, build: { ...config.build, emptyOutDir: false } });
  const used = process.cpuUsage(startCpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
};

const cold = await timed(appConfig(glossa, join(dir, 'cold')));
// A component edit: its text is new, so the locale builds run again (the other texts come from the cache).
const home = join(appRoot, 'src', 'Home.tsx');
const original = await readFile(home, 'utf8');
let changed: { wall: number; cpu: number };
try {
  await writeFile(home, original.replace('Welcome to the corner bakery', 'Welcome to our corner bakery'));
  await timed(appConfig(glossa, join(dir, 'changed'))); // translates the new text
  await writeFile(home, original.replace('Welcome to the corner bakery', 'Welcome to the corner bakery!'));
  await timed(appConfig({ ...glossa }, join(dir, 'changed'))); // and this one
  await writeFile(home, original.replace('Welcome to the corner bakery', 'Welcome to our corner bakery'));
  changed = await timed(appConfig(glossa, join(dir, 'changed'))); // cached text, new module source
} finally {
  await writeFile(home, original);
}
await new Promise((resolve) => setTimeout(resolve, 200)); // a later build, not one in the same mtime tick

const { wall, cpu } = await interleaved(
  {
    plain: () => timed(appConfig(false, join(dir, 'plain'))),
    glossa: () => timed(appConfig({ ...glossa, cacheOnly: true }, join(dir, 'glossa'))), // cacheOnly: no request
  },
  ROUNDS,
  WARMUP,
);
console.log(
  `vite build of examples/react-app (es, en-XA), ${ROUNDS} interleaved rounds (target ratio ≤ 1.15):`,
);
for (const line of ratioLines({ wall, cpu })) console.log(line);
console.log(`  once: cold (empty cache, 2 locale builds) ${ms(cold.wall)} wall, ${ms(cold.cpu)} CPU`);
console.log(
  `  once: a component changed, its text cached (2 locale builds) ${ms(changed.wall)} wall, ${ms(changed.cpu)} CPU`,
);

// What a locale adds to dist: its files (pages under <locale>/, the chunks only its pages load), against
// its text (the targets in the component catalog, UTF-8) plus its HTML pages. Target: ≤ 1.1.
const out = join(dir, 'glossa');
const english = await readFile(join(out, 'index.html'), 'utf8');
const refs = (html: string) =>
  new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!));
for (const locale of ['es', 'en-XA']) {
  const page = await readFile(join(out, locale, 'index.html'), 'utf8');
  const own = [...refs(page)].filter((file) => !refs(english).has(file));
  const chunkBytes = (await Promise.all(own.map((f) => stat(join(out, f))))).reduce((n, s) => n + s.size, 0);
  const pageBytes = Buffer.byteLength(page);
  const catalog = JSON.parse(await readFile(join(dir, 'catalogs', `${locale}.json`), 'utf8')) as Record<
    string,
    { target: string }
  >;
  const textBytes = Object.values(catalog).reduce((n, e) => n + Buffer.byteLength(e.target), 0);
  const added = chunkBytes + pageBytes;
  console.log(
    `  dist per locale, ${locale}: ${added} B added (page ${pageBytes} B + ${own.length} chunk(s) ${chunkBytes} B); ` +
      `its text ${textBytes} B + page ${pageBytes} B = ${textBytes + pageBytes} B; ratio ${(added / (textBytes + pageBytes)).toFixed(2)} (target ≤ 1.1)`,
  );
}
await rm(dir, { recursive: true, force: true });
