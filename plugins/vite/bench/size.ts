/**
 * What each locale adds to `dist`, against the English build of the same app made in the same run, on
 * the example apps (React, Vue, Svelte; es through Apertium, en-XA through the pseudo engine, one cold
 * build each, then the same build with the translations cached):
 *
 * - `plain`: the app built without the plugin (the English build, the baseline);
 * - `copies`: `glossaVite({ components: true, shareChunks: false })`: a chunk with text is a copy per locale;
 * - `shared`: the default: the code chunks are shared, each locale adds its pages and a dictionary.
 *
 * A file belongs to a locale when only that locale's pages reach it (a page's `src`/`href`, a chunk that
 * names another chunk's file); everything the English pages reach, or no page reaches, is shared. Per
 * locale it prints the bytes added, the locale's text (its catalog's targets, UTF-8) and pages, and the
 * ratios added / (text + pages) (target ≤ 1.1) and added / the English build.
 *
 * Also third-party apps from tests/vite-apps/fixtures: create-vue's router starter, and issue 30's two real
 * apps, each built with its own Vite: TailAdmin's React dashboard (Vite 6) and the RealWorld Conduit Vue 3
 * app (Vite 5), copied into `tests/vite-apps/.tmp-bench-<app>` with their Vite and router linked.
 *
 *   pnpm --filter @glossa/vite bench         (ONLY=<regexp>: only the apps it matches; KEEP=1: keep the builds)
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { GlossaViteOptions } from '@glossa/vite';
import { build, type UserConfig } from 'vite';
import { type App, REAL_APPS, removeCopies } from './apps.js';

const examples = new URL('../../../examples/', import.meta.url);
const APPS: Record<string, () => Promise<App>> = {
  react: () => import(new URL('react-app/app.config.ts', examples).href),
  vue: () => import(new URL('vue-app/app.config.ts', examples).href),
  svelte: () => import(new URL('svelte-app/app.config.ts', examples).href),
  // Third-party: create-vue's router starter, unchanged (tests/vite-apps/fixtures/create-vue-router).
  'create-vue router starter': () =>
    import(new URL('../../../tests/vite-apps/test/create-vue-router.config.ts', import.meta.url).href),
  ...REAL_APPS,
};
const only = process.env.ONLY ? new RegExp(process.env.ONLY) : undefined;

const dir = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'glossa-vite-size-'));

async function filesOf(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.set(relative(root, path).split('\\').join('/'), await readFile(path));
    }
  };
  await walk(root);
  return out;
}

/** The files the given pages reach: a file is reached when a reached file names it. */
function reached(files: Map<string, Buffer>, pages: string[]): Set<string> {
  const seen = new Set(pages);
  const queue = [...pages];
  const names = [...files.keys()].filter((f) => !f.endsWith('.html'));
  while (queue.length > 0) {
    const text = files.get(queue.pop()!)!.toString('utf8');
    for (const name of names) {
      if (!seen.has(name) && text.includes(name.slice(name.lastIndexOf('/') + 1))) {
        seen.add(name);
        queue.push(name);
      }
    }
  }
  return seen;
}

const bytes = (files: Map<string, Buffer>, names: Iterable<string>) => {
  let total = 0;
  for (const n of names) total += files.get(n)!.length;
  return total;
};
const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;

const rows: string[] = [];
for (const [name, load] of Object.entries(APPS)) {
  if (only && !only.test(name)) continue;
  const { appConfig, locales, build: buildApp = build } = await load();
  const cache = join(dir, name);
  const glossa = (extra: Partial<GlossaViteOptions>): Partial<GlossaViteOptions> => ({
    cache: { path: join(cache, 'cache.jsonl') },
    lock: join(cache, 'glossa.lock'),
    service: { dataDir: process.env.GLOSSA_DATA_DIR ?? join(dir, 'server') },
    components: { catalogDir: join(cache, 'catalogs') },
    ...extra,
  });
  const quiet = { logLevel: 'silent' as const };
  const outDir = (variant: string) => join(cache, variant);
  const timed = async (config: UserConfig) => {
    const start = performance.now();
    await buildApp({ ...config, ...quiet });
    return performance.now() - start;
  };
  const plainMs = await timed(appConfig(false, outDir('plain')));
  await timed(appConfig(glossa({ shareChunks: false }), outDir('copies'))); // cold: translates
  const copiesMs = await timed(appConfig(glossa({ shareChunks: false }), outDir('copies')));
  const sharedMs = await timed(appConfig(glossa({}), outDir('shared')));
  const plain = await filesOf(outDir('plain'));
  const english = bytes(plain, plain.keys());
  for (const variant of ['copies', 'shared']) {
    const files = await filesOf(outDir(variant));
    const pagesOf = (prefix: string | undefined) =>
      [...files.keys()].filter(
        (f) =>
          f.endsWith('.html') &&
          (prefix ? f.startsWith(`${prefix}/`) : !locales.some((l) => f.startsWith(`${l}/`))),
      );
    const englishSide = reached(files, pagesOf(undefined));
    const total = bytes(files, files.keys());
    rows.push(
      `${name} ${variant}: dist ${kb(total)} (English build ${kb(english)}, ×${(total / english).toFixed(2)}); ` +
        `English pages load ${kb(bytes(files, englishSide))}; builds plain ${Math.round(plainMs)} ms, ` +
        `${variant} ${Math.round(variant === 'shared' ? sharedMs : copiesMs)} ms ` +
        `(${variant === 'shared' ? 'translations cached, locale builds run' : 'second build: result cache'})`,
    );
    for (const locale of locales) {
      const own = [...reached(files, pagesOf(locale))].filter((f) => !englishSide.has(f));
      const added = bytes(files, own);
      const pages = bytes(files, pagesOf(locale));
      const catalog = JSON.parse(await readFile(join(cache, 'catalogs', `${locale}.json`), 'utf8')) as Record<
        string,
        { target: string }
      >;
      const text = Object.values(catalog).reduce((n, e) => n + Buffer.byteLength(e.target), 0);
      rows.push(
        `  ${locale}: adds ${added} B in ${own.length} file(s) (${own.filter((f) => !f.endsWith('.html')).join(', ')}); ` +
          `text ${text} B + pages ${pages} B; added / (text + pages) = ${(added / (text + pages)).toFixed(2)}; ` +
          `added / English build = ${(added / english).toFixed(3)}`,
      );
    }
  }
  console.log(rows.splice(0).join('\n'));
}
if (process.env.KEEP) console.log(`kept ${dir}`);
else await rm(dir, { recursive: true, force: true });
await removeCopies();
