/**
 * A second real third-party app, not written by this project: the React + TanStack Router starter that
 * `create-tsrouter-app` 0.54.43 scaffolds (file-based routes through `@tanstack/router-plugin`, Tailwind 4,
 * a data array of feature cards rendered with `.map(([title, desc]) => …)`), vendored in
 * `fixtures/create-tsrouter-app` (see its README; one documented line added: the router's `basepath`).
 * Built with `glossaVite({ locales: ['es', 'en-XA'], components: true, doNotTranslate })` on the embedded
 * default server (Apertium for es, the pseudo engine for en-XA), served by `vite preview`, opened per
 * locale and route in Debian's Chromium: the route renders in the locale (not the router's not-found),
 * no console error, no failed request, brand names unchanged, class names and links intact, and the share
 * of visible text nodes that differ from English is at least the floor measured here.
 */
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { glossaVite } from '@glossa/vite';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import type { BrowserContext, Page } from 'playwright-core';
import * as vite from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndServe, closeAll, namesOnly, openPage, packageDir, Share, workOptions } from './real-app.js';
import { visibleText } from './visible-text.js';

const root = join(packageDir, 'fixtures', 'create-tsrouter-app');

/** The app's product and brand names, kept as written in every locale. */
const BRANDS = ['TanStack Start', 'TanStack', 'Tailwind', 'GitHub'];
const ROUTES = ['/', '/about'];
/**
 * The translated share's floor, per locale: 24/24 nodes (100%) measured in es and en-XA; 0/24 before
 * @glossa/vite translated TanStack Router's code-split route components (issue 30's target: 90%).
 */
const FLOOR: Record<string, number> = { es: 0.95, 'en-XA': 0.95 };

let work: string;
let browser: BrowserContext;
let served: vite.PreviewServer;
let url: string;

const config = (): vite.InlineConfig => ({
  root,
  configFile: false,
  logLevel: 'warn',
  // The app's own vite.config.ts, less the dev-only devtools plugin, plus Glossa.
  resolve: { tsconfigPaths: true },
  build: { outDir: join(work, 'dist'), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  plugins: [
    tailwindcss(),
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    glossaVite({
      locales: ['es', 'en-XA'],
      doNotTranslate: BRANDS,
      configFile: false,
      ...workOptions(work),
    }),
  ],
});

beforeAll(async () => {
  work = await mkdtemp(join(packageDir, '.tmp-tanstack-'));
  ({ served, url, browser } = await buildAndServe(vite, config, work));
  // The app's stylesheet imports a web font from a font CDN: this machine has no network, so it is
  // answered with an empty stylesheet (the fallback fonts render).
  await browser.route(/^https?:\/\/fonts\.(googleapis|gstatic)\.com\//, (r) =>
    r.fulfill({ status: 200, contentType: 'text/css', body: '' }),
  );
}, 180_000);
afterAll(() => closeAll(browser, served, work));

/**
 * The visible text of the route's content (`main`); file names in `<code>` aside (code, the same in every
 * locale). The TanStack devtools panel, a third-party component the starter renders outside `main`, is not
 * the app's text.
 */
const appText = (page: Page) => visibleText(page, 'main', 'code');

/** The classes and link targets of the page: the same in every locale. */
function structure(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => [...document.querySelectorAll('main *')].map(
    (e) => e.tagName + '.' + (e.getAttribute('class') ?? '') + ' ' + (e.getAttribute('href') ?? '')))()`);
}

const open = (path: string) => openPage(browser, url + path, 'main h1');

const english = new Map<string, { text: string[]; structure: string[] }>();

describe('create-tsrouter-app starter (third-party, TanStack Router) in headless Chromium', () => {
  it('English: each route renders, no errors', async () => {
    for (const route of ROUTES) {
      const { page, errors } = await open(route);
      english.set(route, { text: await appText(page), structure: await structure(page) });
      expect(errors).toEqual([]);
      await page.close();
    }
    expect(english.get('/')!.text).toContain('Start simple, ship quickly.');
    expect(english.get('/')!.text).toContain('Type-Safe Routing');
    expect(english.get('/about')!.text).toContain('A small starter with room to grow.');
  });

  for (const locale of ['es', 'en-XA']) {
    it(`${locale}: routes by deep link and by a plain link, brands and markup kept, translated share ≥ ${FLOOR[locale]}`, async () => {
      const share = new Share(namesOnly(BRANDS));
      for (const route of ROUTES) {
        const { page, errors } = await open(`/${locale}${route}`);
        expect(await page.getAttribute('html', 'lang')).toBe(locale);
        expect(await page.title()).toBe('tsr-app'); // the project's name, not "tsr-Aplicación"
        const en = english.get(route)!;
        expect(await page.textContent('main h1')).not.toBe(
          route === '/' ? 'Start simple, ship quickly.' : 'A small starter with room to grow.',
        );
        // Classes and hrefs as in English, but for links to the app's routes, which point into the locale.
        expect(await structure(page)).toEqual(
          en.structure.map((e) => e.replace(/ \/about$/, ` /${locale}/about`)),
        );
        const text = await appText(page);
        expect(text.join(' ')).toContain('TanStack');
        share.add(en.text, text);
        expect(errors).toEqual([]);
        await page.close();
      }
      // The home page's plain `<a href="/about">` leads to the locale's about page, not the English one.
      const { page, errors } = await open(`/${locale}/`);
      await page.click('main a[href$="/about"]');
      await page.waitForURL(`${url}/${locale}/about`);
      await page.waitForSelector('main h1');
      expect(await page.getAttribute('html', 'lang')).toBe(locale);
      expect(await page.textContent('main h1')).not.toBe('A small starter with room to grow.');
      expect(errors).toEqual([]);
      await page.close();

      console.log(share.report('create-tsrouter-app', locale));
      expect(share.ratio).toBeGreaterThanOrEqual(FLOOR[locale]!);
    }, 90_000);
  }
});
