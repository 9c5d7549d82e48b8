/**
 * Shared by the tests of the real apps (`tailadmin.test.ts`, `realworld.test.ts`, `tanstack-router.test.ts`):
 * the app built and served with Glossa's options in a work folder (for the first two, copied there with a
 * `node_modules` that links the app's own Vite major and router, as in the app's project: the plugin builds
 * each locale with the Vite it resolves from the app's root), a page opened with its errors collected, and
 * the share of visible English text nodes translated.
 */
import { cp, mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GlossaViteOptions } from '@glossa/vite';
import type { BrowserContext, Page } from 'playwright-core';
import type * as Vite from 'vite';
import { launchChromium } from '../../../examples/vite-site/test/chromium.js';

export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `fixtures/<fixture>` copied to `<work>/app`, with `node_modules/<name>` linked to this package's
 * `node_modules/<links[name]>` (npm aliases: `vite6`, `react-router7`…); the app's Vite module.
 */
export async function appCopy(
  fixture: string,
  work: string,
  links: Record<string, string>,
): Promise<{ root: string; vite: typeof Vite }> {
  const root = join(work, 'app');
  await cp(join(packageDir, 'fixtures', fixture), root, { recursive: true });
  await mkdir(join(root, 'node_modules'), { recursive: true });
  for (const [name, target] of Object.entries(links)) {
    await symlink(join(packageDir, 'node_modules', target), join(root, 'node_modules', name), 'dir');
  }
  const vite = (await import(
    join(packageDir, 'node_modules', links.vite!, 'dist', 'node', 'index.js')
  )) as typeof Vite;
  return { root, vite };
}

/** Glossa's options for a test's work folder: the catalog, the result cache and the server's data in it, no lock. */
export const workOptions = (work: string): Partial<GlossaViteOptions> => ({
  components: { catalogDir: join(work, 'catalog') },
  lock: false,
  cache: { path: join(work, 'cache.jsonl') },
  service: { dataDir: join(work, 'server') },
});

/** The app built once with its Vite, served by that Vite's `vite preview`, and Chromium with its profile in `work`. */
export async function buildAndServe(
  vite: typeof Vite,
  config: () => Vite.InlineConfig,
  work: string,
): Promise<{ served: Vite.PreviewServer; url: string; browser: BrowserContext }> {
  await vite.build(config());
  const served = await vite.preview({ ...config(), preview: { port: 0, host: '127.0.0.1' } });
  const url = served.resolvedUrls!.local[0]!.replace(/\/$/, '');
  return { served, url, browser: await launchChromium(join(work, 'chromium')) };
}

/** Closes what `buildAndServe` opened and removes the work folder. */
export async function closeAll(browser?: BrowserContext, served?: Vite.PreviewServer, work?: string) {
  await browser?.close();
  await served?.close();
  if (work) await rm(work, { recursive: true, force: true });
}

/** The module script a built page loads (`/assets/index-….js`), read from `dist/<page>`. */
export async function moduleScript(dist: string, page: string): Promise<string | undefined> {
  return /<script type="module" crossorigin src="([^"]+)"/.exec(
    await readFile(join(dist, page), 'utf8'),
  )?.[1];
}

/** A new page at `url` (`waitUntil`: `load` for an app that fetches nothing after its scripts), with its console errors, page errors, failed requests and HTTP errors collected. */
export async function openPage(
  browser: BrowserContext,
  url: string,
  ready: string,
  waitUntil: 'load' | 'networkidle' = 'networkidle',
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`failed ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(url, { waitUntil });
  await page.waitForSelector(ready);
  return { page, errors };
}

/** A matcher of text nodes that are only names, numbers, punctuation and symbols: the same in every locale. */
export function namesOnly(brands: readonly string[]): (text: string) => boolean {
  const words = new RegExp(
    `(${[...brands]
      .sort((a, b) => b.length - a.length)
      .map((b) => b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|')})`,
    'g',
  );
  return (text) => text.replace(words, '').replace(/[\s\p{P}\p{S}\d]/gu, '') === '';
}

/**
 * The texts a locale's component catalog (`<catalogDir>/<locale>.json`) translates to themselves: the
 * engine's translation is the English word (`Email`, `Error` in Spanish). Such a node was translated,
 * and looks the same.
 */
export async function sameInCatalog(catalogDir: string, locale: string): Promise<Set<string>> {
  const catalog = JSON.parse(await readFile(join(catalogDir, `${locale}.json`), 'utf8')) as Record<
    string,
    { source: string; target: string }
  >;
  return new Set(
    Object.values(catalog)
      .filter((e) => e.source === e.target && !e.source.includes('<'))
      .map((e) => e.source.replace(/\s+/g, ' ').trim()),
  );
}

/**
 * Visible text nodes counted against English: `translated` of `total` (a node that differs, or one the
 * catalog translates to itself: `same`), and the ones left English.
 */
export class Share {
  total = 0;
  translated = 0;
  readonly same: string[] = [];
  readonly missed: string[] = [];
  constructor(
    private readonly skip: (text: string) => boolean,
    private readonly itself: ReadonlySet<string> = new Set(),
  ) {}
  add(english: readonly string[], text: readonly string[]): void {
    const known = new Set(english);
    for (const t of text) {
      if (this.skip(t)) continue;
      this.total++;
      if (!known.has(t)) this.translated++;
      else if (this.itself.has(t)) {
        this.translated++;
        this.same.push(t);
      } else this.missed.push(t);
    }
  }
  get ratio(): number {
    return this.translated / this.total;
  }
  report(app: string, locale: string): string {
    return (
      `${app} ${locale}: ${this.translated}/${this.total} visible text nodes translated (${(this.ratio * 100).toFixed(1)}%)` +
      (this.same.length
        ? `, ${this.same.length} of them the same in the locale (${JSON.stringify([...new Set(this.same)])})`
        : '') +
      (this.missed.length ? `; left English: ${JSON.stringify([...new Set(this.missed)])}` : '')
    );
  }
}
