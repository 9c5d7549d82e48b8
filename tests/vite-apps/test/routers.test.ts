/**
 * Routers in every locale (Vite 8, real headless Chromium): a React Router app (`BrowserRouter basename=
 * {import.meta.env.BASE_URL}`) and a Vue Router app (`createWebHistory(import.meta.env.BASE_URL)`), built
 * with @glossa/vite in en-XA and served by `vite preview`. A deep link in a locale opens that route in that
 * locale (not the app's 404), a link click stays in the locale, and the English app is unchanged.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '@glossa/server';
import { glossaVite } from '@glossa/vite';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import type { BrowserContext, Page } from 'playwright-core';
import { build, type InlineConfig, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../examples/vite-site/test/chromium.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Waits until the page's `h1` is no longer `text` (a string: this package's type check has no DOM library). */
const h1Other = (page: Page, text: string) =>
  page.waitForFunction(`document.querySelector('h1')?.textContent !== ${JSON.stringify(text)}`);
let work: string;
let server: Awaited<ReturnType<typeof startServer>>;
let browser: BrowserContext;

beforeAll(async () => {
  work = await mkdtemp(join(packageDir, '.tmp-routers-'));
  server = await startServer({
    dataDir: join(work, 'server'),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  browser = await launchChromium(join(work, 'chromium'));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

const apps = [
  { router: 'React Router', fixture: 'router-react', framework: () => react() },
  { router: 'Vue Router', fixture: 'router-vue', framework: () => vue() },
];

describe.each(apps)('$router', ({ fixture, framework }) => {
  const config = (): InlineConfig => ({
    root: join(packageDir, 'fixtures', fixture),
    configFile: false,
    logLevel: 'warn',
    build: { outDir: join(work, fixture, 'dist'), emptyOutDir: true },
    plugins: [
      framework(),
      glossaVite({
        locales: ['en-XA'],
        components: { catalogDir: join(work, fixture, 'catalog') },
        configFile: false,
        lock: false,
        cache: { path: join(work, fixture, 'cache.jsonl') },
        service: { url: server.url, apiKey: server.devKey },
      }),
    ],
  });

  it('a deep link opens its route in the locale; a link click stays in the locale; English is unchanged', async () => {
    await build(config());
    const served = await preview({ ...config(), preview: { port: 0, host: '127.0.0.1' } });
    const url = served.resolvedUrls!.local[0]!.replace(/\/$/, '');
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Every request but the favicon (the fixtures have none) must succeed: assets load in each locale.
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) {
        errors.push(`${response.status()} ${response.url()}`);
      }
    });
    try {
      await page.goto(`${url}/en-XA/shop`);
      expect(await page.getAttribute('html', 'lang')).toBe('en-XA');
      // Pseudo-localized: "[Ṁååþš ååñð çĥååŕţš …]" for "Maps and charts for every coast".
      const pseudo = /^\[.*[åéîöûç].*\]$/;
      const shop = await page.textContent('h1');
      expect(shop).toMatch(pseudo);
      expect(shop).toMatch(/^\[Ṁååþš/);
      {
        // `{{ saved ? 'Forget' : 'Remember' }} this chart` (Vue), `{saved ? 'Forget' : 'Remember'} this chart`
        // (JSX): each branch a sentence with the rest, both in en-XA.
        const before = await page.textContent('#save');
        expect(before).toMatch(/^\[Ŕé+ɱé+ɱƀé+ŕ ţĥî+š çĥå+ŕţ\]$/);
        await page.click('#save');
        expect(await page.textContent('#save')).toMatch(/^\[Ƒö+ŕĝé+ţ ţĥî+š çĥå+ŕţ\]$/);
      }
      await page.click('#to-home');
      await page.waitForURL(`${url}/en-XA/`);
      await h1Other(page, shop!); // the router renders after the URL changes
      const home = await page.textContent('h1');
      expect(home).toMatch(pseudo);
      expect(home).not.toBe(shop);
      await page.goto(`${url}/en-XA/no-such-page`); // the app's own 404 route, in the locale
      const missing = await page.textContent('h1');
      expect(missing).toMatch(pseudo);
      expect([shop, home]).not.toContain(missing);

      await page.goto(`${url}/shop`);
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(await page.textContent('h1')).toBe('Maps and charts for every coast');
      expect(await page.textContent('#save')).toBe('Remember this chart');
      await page.click('#save');
      expect(await page.textContent('#save')).toBe('Forget this chart');
      await page.click('#to-home');
      await page.waitForURL(`${url}/`);
      await h1Other(page, 'Maps and charts for every coast');
      expect(await page.textContent('h1')).toBe('Welcome to the harbour office');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await served.close();
    }
  }, 180_000);
});
