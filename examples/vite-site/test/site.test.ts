/**
 * Builds the example site with @glossa/vite (real embedded server: Apertium for es, the pseudo engine for
 * en-XA) and opens every page in real headless Chromium (Debian's `chromium` through playwright-core).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteConfig } from '../site.config.js';
import { launchChromium } from './chromium.js';
import { serveStatic } from './static-server.js';

let dir: string;
let dist: string;
let site: { url: string; server: Server };
let browser: BrowserContext;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-vite-site-'));
  dist = join(dir, 'dist');
  await build(
    siteConfig(
      { cache: { path: join(dir, 'cache.jsonl') }, service: { dataDir: join(dir, 'server') } },
      dist,
    ),
  );
  site = await serveStatic(dist);
  browser = await launchChromium(join(dir, 'chromium-profile'));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  site?.server.close();
  await rm(dir, { recursive: true, force: true });
});

const PAGES = [
  { path: '/es/', lang: 'es', title: 'La Panadería de Esquina', h1: /panadería/, tagline: /^Pan fresco/ },
  { path: '/es/about.html', lang: 'es', title: /panadería/i, h1: /nos/i },
  { path: '/en-XA/', lang: 'en-XA', title: '[Ţĥé Çööŕñééŕ Ɓååķééŕýý]', h1: /^\[.*\]$/, tagline: /^\[Ƒŕ/ },
  { path: '/en-XA/about.html', lang: 'en-XA', title: /^\[Åƀööûûţ ţĥé ƀååķééŕýý\]$/, h1: /^\[.*\]$/ },
  {
    path: '/',
    lang: 'en',
    title: 'The Corner Bakery',
    h1: 'Welcome to the bakery',
    tagline: /^Fresh bread, every single day\.$/,
  },
];

/** Evaluated in the page (a string: this file is type-checked for Node, without the DOM library). */
const PAGE_FACTS = `({
  lang: document.documentElement.lang,
  title: document.title,
  h1: document.querySelector('h1')?.textContent ?? '',
  tagline: document.querySelector('#tagline')?.textContent,
  ready: document.body.dataset.ready,
  color: getComputedStyle(document.body).color,
  images: [...document.images].map((img) => ({ src: img.src, width: img.naturalWidth })),
  alternates: [...document.querySelectorAll('link[rel=alternate]')].map((l) => l.getAttribute('hreflang')),
})`;
interface PageFacts {
  lang: string;
  title: string;
  h1: string;
  tagline: string | undefined;
  ready: string | undefined;
  color: string;
  images: { src: string; width: number }[];
  alternates: (string | null)[];
}

async function open(path: string) {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`failed ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(site.url + path, { waitUntil: 'networkidle' });
  // On a loaded machine the module script can run after the network went idle: wait for it to finish.
  await page.waitForFunction('document.body.dataset.ready === "true"', undefined, { timeout: 30_000 });
  return { page, errors };
}

describe('examples/vite-site in headless Chromium', () => {
  for (const expected of PAGES) {
    it(`${expected.path} renders in ${expected.lang} with its assets, script and no console errors`, async () => {
      const { page, errors } = await open(expected.path);
      const facts = await page.evaluate<PageFacts>(PAGE_FACTS);
      await page.close();
      expect(errors).toEqual([]);
      expect(facts.lang).toBe(expected.lang);
      if (typeof expected.title === 'string') expect(facts.title).toBe(expected.title);
      else expect(facts.title).toMatch(expected.title);
      if (typeof expected.h1 === 'string') expect(facts.h1).toBe(expected.h1);
      else expect(facts.h1).toMatch(expected.h1);
      // the app's strings: this language's content-hashed catalog, found through the manifest
      if ('tagline' in expected) expect(facts.tagline).toMatch(expected.tagline);
      expect(facts.ready).toBe('true'); // the module script loaded and ran
      expect(facts.color).toBe('rgb(51, 34, 17)'); // the stylesheet loaded
      for (const image of facts.images) expect(image.width, image.src).toBeGreaterThan(0);
      expect(facts.alternates).toEqual(['en', 'es', 'en-XA', 'x-default']);
    });
  }

  it('a link on a Spanish page leads to the Spanish version of the other page', async () => {
    const { page, errors } = await open('/es/');
    await page.click('nav a[href="./about.html"]');
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/es/about.html');
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('es');
    await page.click('nav a[href="./"]');
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/es/');
    await page.close();
    expect(errors).toEqual([]);
  });

  it('an absolute link on a Spanish page leads to the Spanish page, and back (assets left alone)', async () => {
    const { page, errors } = await open('/es/');
    expect(await page.getAttribute('#story', 'href')).toBe('/es/about.html#story');
    expect(await page.getAttribute('#icon', 'href')).toBe('/favicon.svg'); // an asset, not a page
    await page.click('#story');
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/es/about.html');
    expect(new URL(page.url()).hash).toBe('#story');
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('es');
    await page.click('#home');
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/es/');
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('es');
    await page.close();
    expect(errors).toEqual([]);
    // The source pages' links stay as written; en-XA's lead to en-XA.
    const source = await open('/');
    expect(await source.page.getAttribute('#story', 'href')).toBe('/about.html#story');
    await source.page.close();
    const pseudo = await open('/en-XA/about.html');
    expect(await pseudo.page.getAttribute('#home', 'href')).toBe('/en-XA/');
    await pseudo.page.close();
  });

  it('the script reads the page language after a click (translate="no" content untouched)', async () => {
    const { page } = await open('/es/');
    await page.click('#greet');
    expect(await page.textContent('#greeting')).toBe('lang=es');
    await page.close();
  });

  it('keeps untranslated bytes: asset URLs of every locale equal the source page', async () => {
    const assetUrls = (html: string) =>
      [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    const source = await readFile(join(dist, 'index.html'), 'utf8');
    expect(assetUrls(source).length).toBeGreaterThanOrEqual(3);
    for (const locale of ['es', 'en-XA']) {
      expect(assetUrls(await readFile(join(dist, locale, 'index.html'), 'utf8'))).toEqual(assetUrls(source));
    }
  });
});
