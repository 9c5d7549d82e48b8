/**
 * The test of the component example apps (React, Vue, Svelte): builds the app with @glossa/vite (component text; real embedded server: Apertium for es, the
 * pseudo engine for en-XA) and uses every locale in real headless Chromium (Debian's `chromium` through
 * playwright-core): the text and attributes are translated, a click and a form still work, no errors.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GlossaViteOptions } from '@glossa/vite';
import type { BrowserContext, Page } from 'playwright-core';
import { build, type UserConfig } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.js';
import { serveStatic } from './static-server.js';

/** An example app: its framework's name, the prefix of the framework's chunk, and its Vite config. */
export interface ComponentApp {
  readonly framework: string;
  readonly chunk: string;
  readonly appConfig: (glossa: Partial<GlossaViteOptions>, outDir: string) => UserConfig;
}

export function testComponentApp({ framework, chunk, appConfig }: ComponentApp): void {
  let dir: string;
  let dist: string;
  let site: { url: string; server: Server };
  let browser: BrowserContext;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `glossa-${chunk}-app-`));
    dist = join(dir, 'dist');
    await build(
      appConfig(
        {
          cache: { path: join(dir, 'cache.jsonl') },
          lock: join(dir, 'glossa.lock'),
          service: { dataDir: join(dir, 'server') },
          components: { catalogDir: join(dir, 'catalogs') },
        },
        dist,
      ),
    );
    site = await serveStatic(dist);
    browser = await launchChromium(join(dir, 'chromium-profile'));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function open(path: string) {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('requestfailed', (r) => errors.push(`failed ${r.url()}`));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    await page.goto(site.url + path, { waitUntil: 'networkidle' });
    await page.waitForFunction('document.body.dataset.ready === "true"', undefined, { timeout: 30_000 });
    return { page, errors };
  }

  const text = (page: Page, selector: string) => page.locator(selector).innerText();
  const attr = async (page: Page, selector: string, name: string) =>
    (await page.locator(selector).getAttribute(name)) ?? '';

  const LOCALES = [
    {
      path: '/',
      lang: 'en',
      h1: /^Welcome to the corner bakery$/,
      alt: /^A loaf of fresh bread$/,
      nav: /^Contact us$/,
      placeholder: /^Tell us what you would like to order$/,
      basket: /^1 loaf in your basket$/,
      basket2: /^2 loaves in your basket$/,
      thanks: /^Thank you, Ana! We will write back soon\.$/,
    },
    {
      path: '/es/',
      lang: 'es',
      h1: /^Bienvenido a la panadería de esquina$/,
      alt: /pan fresco/,
      nav: /[Cc]ontacto/,
      placeholder: /ordenar/,
      basket: /^1 \S+ [Ee]n vuestra cesta$/,
      basket2: /^2 \S+ [Ee]n vuestra cesta$/,
      thanks: /Ana/,
    },
    {
      path: '/en-XA/',
      lang: 'en-XA',
      h1: /^\[Ŵé+ļ.*\]$/,
      alt: /^\[.*ƒŕé+šĥ.*\]$/,
      nav: /^\[?Çö+ñţå+çţ/,
      placeholder: /^\[Ţé+ļļ.*\]$/,
      basket: /^1 \[ļö+å+ƒ.*\]$/,
      basket2: /^2 \[ļö+å+ṽé+š.*\]$/,
      thanks: /^\[Ţĥå+ñķ.*Ana.*\]$/,
    },
  ];

  describe(`examples/${chunk}-app in headless Chromium`, () => {
    for (const l of LOCALES) {
      it(`${l.path}: text and attributes in ${l.lang}, a click and a form work, no console errors`, async () => {
        const { page, errors } = await open(l.path);
        expect(await page.evaluate<string>('document.documentElement.lang')).toBe(l.lang);
        expect(await text(page, 'h1')).toMatch(l.h1);
        expect(await attr(page, 'img', 'alt')).toMatch(l.alt);
        expect(await text(page, '#nav-contact')).toMatch(l.nav);
        if (l.lang !== 'en') {
          expect(await attr(page, 'nav', 'aria-label')).not.toBe('Main navigation');
          expect(await text(page, 'footer')).not.toMatch(/Baked fresh/);
        }
        expect(await text(page, '.brand')).toBe('Glossa Bakery'); // translate="no"
        if (framework !== 'React') {
          // A plain `<a href="/">` in a Vue/Svelte template points at the locale's own start page.
          expect(await attr(page, '#home-page', 'href')).toBe(l.path);
        }

        // A click: the basket counts, with the plural form of the page's language.
        await page.click('#nav-shop');
        await page.waitForSelector('#add');
        if (l.lang !== 'en') expect(await attr(page, '#add', 'title')).not.toMatch(/Add one loaf/);
        await page.click('#add');
        expect(await text(page, '#basket')).toMatch(l.basket);
        await page.click('#add');
        expect(await text(page, '#basket')).toMatch(l.basket2);

        // A form: typing and sending.
        await page.click('#nav-contact');
        await page.waitForSelector('#message');
        expect(await attr(page, '#message', 'placeholder')).toMatch(l.placeholder);
        await page.fill('#name', 'Ana');
        expect(await page.inputValue('#name')).toBe('Ana');
        await page.click('#send');
        expect(await text(page, '#thanks')).toMatch(l.thanks);
        await page.close();
        expect(errors).toEqual([]);
      });
    }

    it(`a locale switch loads the locale page and its dictionary; the app and ${framework} are the same files in every locale`, async () => {
      const chunks = async (path: string) => {
        const html = await readFile(join(dist, path), 'utf8');
        return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
      };
      const [en, es, xa] = await Promise.all([
        chunks('index.html'),
        chunks('es/index.html'),
        chunks('en-XA/index.html'),
      ]);
      const dictionary = (c: string) => c.includes('/glossa-text.');
      expect(en.some(dictionary)).toBe(false);
      expect(es.filter(dictionary)).toEqual([
        expect.stringMatching(/^\/assets\/glossa-text\.es-[\w-]{8}\.js$/),
      ]);
      expect(xa.filter(dictionary)).toEqual([
        expect.stringMatching(/^\/assets\/glossa-text\.en-XA-[\w-]{8}\.js$/),
      ]);
      // Every code chunk is one file for all locales: the pages differ only by their dictionary.
      expect(es.filter((c) => !dictionary(c))).toEqual(en);
      expect(xa.filter((c) => !dictionary(c))).toEqual(en);
      expect(en.filter((c) => c.includes(`/${chunk}-`))).toHaveLength(1);
      const scripts = (await readdir(join(dist, 'assets'))).filter((f) => f.endsWith('.js'));
      expect(scripts.filter((f) => !f.startsWith('glossa-text.')).sort()).toEqual(
        en.map((c) => c.slice('/assets/'.length)).sort(),
      );
      // The styles (scoped CSS included: its ids do not depend on the locale's text) are one set of files.
      const styles = async (path: string) => {
        const html = await readFile(join(dist, path), 'utf8');
        return [...html.matchAll(/href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1]!);
      };
      const css = await styles('index.html');
      expect(css.length).toBeGreaterThan(0);
      expect(await styles('es/index.html')).toEqual(css);
      expect(await styles('en-XA/index.html')).toEqual(css);
      const files = await readdir(join(dist, 'assets'));
      expect(files.filter((f) => f.endsWith('.css'))).toHaveLength(css.length);
      const alternates = await readFile(join(dist, 'es/index.html'), 'utf8');
      expect(alternates).toContain('<link rel="alternate" hreflang="en-XA" href="/en-XA/">');
    });
  });
}
