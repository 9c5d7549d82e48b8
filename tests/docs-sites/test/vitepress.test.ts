/**
 * VitePress's own docs (twelve pages of vuejs/vitepress v1.6.4, `test/fixtures/vitepress`) as a user localizes
 * them: the real `glossa` CLI (child process, embedded server: Apertium for es, the pseudo engine for en-XA)
 * runs `init --to es,en-XA` and `translate`; the real `vitepress build` builds the site with its own config;
 * every internal link and anchor of the built HTML is resolved against the built files; pages open in
 * Debian's Chromium without errors.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../examples/vite-site/test/chromium.js';
import { type BrokenLink, checkLinks, type LinkReport } from './links.js';
import { addVitepressGlossary } from './vitepress-site.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const bin = resolve(packageDir, '../../packages/cli/src/bin.ts');
const vitepressBin = join(dirname(require.resolve('vitepress/package.json')), 'bin', 'vitepress.js');
const LOCALES = ['es', 'en-XA'] as const;
/** The words of the pages Apertium (eng-spa) leaves in English where they make a whole segment. */
const UNKNOWN_TO_APERTIUM = [
  'Customization',
  'Default',
  'Footer',
  'Markdown',
  'Prerequisites',
  'Runtime',
  'Sidebar',
  'Sitemap',
  'footer',
  'markdown',
  'sidebar',
];
let site: string;
let env: NodeJS.ProcessEnv;
let browser: BrowserContext | undefined;

function run(command: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, command, { cwd, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const glossa = (...args: string[]) => run([tsx, '--conditions', '@glossa/source', bin, ...args], site);

beforeAll(async () => {
  // Inside this package, so that the site resolves `vitepress` from its node_modules as a project would.
  site = await mkdtemp(join(packageDir, '.tmp-vitepress-'));
  await cp(join(packageDir, 'test/fixtures/vitepress'), site, { recursive: true });
  const { GLOSSA_SERVER_URL: _url, GLOSSA_API_KEY: _key, ...rest } = process.env;
  env = { ...rest, GLOSSA_DATA_DIR: join(site, '.server-data'), NO_COLOR: '1' };
  // The Reference nav item's `activeMatch` anchored (`^/reference/`), as sites write it: VitePress tests it
  // against the page's path, `/es/reference/…` in es (the site's own '/reference/' matches there anyway).
  const enConfig = join(site, 'docs/.vitepress/config/en.ts');
  const config = await readFile(enConfig, 'utf8');
  expect(config).toContain("activeMatch: '/reference/'");
  await writeFile(enConfig, config.replace("activeMatch: '/reference/'", "activeMatch: '^/reference/'"));
});
afterAll(async () => {
  await browser?.close();
  await rm(site, { recursive: true, force: true });
});

describe.sequential('VitePress docs (vuejs/vitepress v1.6.4, 12 pages) in es and en-XA', () => {
  const pages = [
    'index.md',
    'guide/what-is-vitepress.md',
    'guide/getting-started.md',
    'guide/frontmatter.md',
    'guide/using-vue.md',
    'guide/i18n.md',
    'guide/asset-handling.md',
    'reference/site-config.md',
    'reference/frontmatter-config.md',
    'reference/default-theme-footer.md',
    'reference/default-theme-edit-link.md',
    'reference/default-theme-badge.md',
  ];
  let links: LinkReport;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON file VitePress reads
  let locales: Record<string, any>;

  it('glossa init finds the site (pages in docs/en/); translate names what Apertium left in English, and with a glossary writes docs/<locale>/ with no failure', async () => {
    const init = await glossa('init', '--to', 'es,en-XA', '--json');
    expect(init.code, init.stderr + init.stdout).toBe(0);
    expect(init.stdout).toContain(
      'VitePress site in docs/: pages from docs/en/**/*.md, output in docs/<locale>/',
    );
    // Apertium does not know some words of these pages: their segments come back in English and are
    // reported (es only: a pseudo-locale is never judged), as a user sees them before adding a glossary.
    const untranslated = await glossa('translate', '--json');
    expect(untranslated.code, untranslated.stderr).toBe(1);
    const before = JSON.parse(untranslated.stdout);
    const failures: { locale: string; reason: string }[] = before.failures;
    const words = new Set(
      failures.flatMap(({ reason }) => [...reason.matchAll(/"(\w+)"/g)].map((m) => m[1]!)),
    );
    for (const failure of failures) {
      expect(failure.locale).toBe('es');
      expect(failure.reason).toMatch(
        /^every engine failed, kept in the source language \(apertium: came back unchanged: /,
      );
    }
    expect([...words].sort()).toEqual(UNKNOWN_TO_APERTIUM.sort());
    // The user's answer: the config keys and names are kept, the other words get a glossary.
    await addVitepressGlossary(site);
    const first = await glossa('translate', '--json');
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.failures).toEqual([]);
    // Every page and chrome file written, by the first run or (the pages the glossary changed) the second.
    expect([...new Set([...before.written, ...report.written])].sort()).toEqual(
      [
        ...LOCALES.flatMap((locale) => [
          ...pages.map((page) => `docs/${locale}/${page}`),
          `docs/.vitepress/glossa/${locale}.json`,
        ]),
        'docs/.vitepress/glossa/locales.json',
      ].sort(),
    );
    // A warm rerun sends nothing and rewrites nothing.
    const again = await glossa('translate', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ requests: 0, translated: 0, written: [] });
    const page = await readFile(join(site, 'docs/es/reference/site-config.md'), 'utf8');
    expect(page).toMatch(/^### [^\n]* \{#title\}$/m);
    // The chrome: each locale's nav, sidebar and labels, translated, with the site's links under /<locale>/.
    locales = JSON.parse(await readFile(join(site, 'docs/.vitepress/glossa/locales.json'), 'utf8'));
    expect(Object.keys(locales)).toEqual([...LOCALES]);
    expect(locales.es).toMatchObject({ label: 'Español', lang: 'es', link: '/es/' });
    const es = locales.es.themeConfig;
    expect(es.nav[0]).toMatchObject({ link: '/es/guide/what-is-vitepress', activeMatch: '/es/guide/' });
    expect(es.nav[1]).toMatchObject({ link: '/es/reference/site-config', activeMatch: '^/es/reference/' });
    expect(Object.keys(es.sidebar)).toEqual(['/es/guide/', '/es/reference/']);
    expect(es.sidebar['/es/guide/'].base).toBe('/es/guide/');
    const texts = [
      es.nav[0].text,
      es.sidebar['/es/guide/'].items[0].text,
      es.editLink.text,
      es.footer.message,
      es.outline.label,
      es.docFooter.next,
    ];
    const english = [
      'Guide',
      'Introduction',
      'Edit this page on GitHub',
      'Released under the MIT License.',
      'On this page',
      'Next page',
    ];
    for (const [i, text] of texts.entries()) expect(text, english[i]).not.toBe(english[i]);
    expect(locales['en-XA'].themeConfig.nav[0].text).toMatch(/^\[Ĝ/);
    // A nav text changed in the site's config: `check` and `estimate` (no translate run) read the config
    // again and find the chrome's text out of date in each locale; put back, it is current again.
    const enConfig = join(site, 'docs/.vitepress/config/en.ts');
    const original = await readFile(enConfig, 'utf8');
    await writeFile(enConfig, original.replace("text: 'Guide',", "text: 'Guides',"));
    // estimate counts the changed text first (the rerun above planned 0 requests).
    const estimate = await glossa('estimate', '--json');
    expect(estimate.code, estimate.stderr).toBe(0);
    expect(JSON.parse(estimate.stdout).requests).toBeGreaterThan(0);
    const outdated =
      /docs\/\.vitepress\/glossa\/en\.json(?::\d+:\d+| \(nav\.0\.text\)) \[(es|en-XA)\]: (missing|stale)/g;
    const changed = await glossa('check');
    expect(changed.code, changed.stderr + changed.stdout).toBe(1);
    expect(
      [...changed.stdout.matchAll(outdated)].map((m) => m[1]).sort(),
      changed.stdout.slice(0, 2000),
    ).toEqual(['en-XA', 'es']);
    await writeFile(enConfig, original);
    const restored = await glossa('check');
    expect(restored.stdout).not.toMatch(outdated);
  }, 300_000);

  it('vitepress build builds every locale with the site’s own config', async () => {
    const build = await run([vitepressBin, 'build', 'docs'], site);
    expect(build.code, build.stderr + build.stdout).toBe(0);
    const dist = join(site, 'docs/.vitepress/dist');
    for (const locale of LOCALES) {
      const html = await readFile(join(dist, locale, 'guide/getting-started.html'), 'utf8');
      expect(html).toContain(`lang="${locale}"`);
      // The page's sidebar and edit link are the locale's, not English.
      const chrome = locales[locale].themeConfig;
      expect(html).toContain(chrome.sidebar[`/${locale}/guide/`].items[0].text);
      expect(html).toContain(chrome.editLink.text);
      expect(html).not.toContain('Edit this page on GitHub');
    }
    // The nav item whose `activeMatch` is the page's section is marked active in each locale.
    for (const locale of LOCALES) {
      const html = await readFile(join(dist, locale, 'reference/site-config.html'), 'utf8');
      const active = [...html.matchAll(/<a [^>]*class="[^"]*VPNavBarMenuLink[^"]*"[^>]*>/g)]
        .map((m) => m[0])
        .filter((tag) => /class="[^"]*\bactive\b/.test(tag));
      expect(active).toHaveLength(1);
      expect(active[0]).toContain(`href="/${locale}/reference/site-config`);
    }
    links = await checkLinks(dist);
    expect(links.pages).toBe(pages.length * 3 + 1); // and 404.html
  }, 300_000);

  it('no internal link or anchor is broken in es or en-XA beyond those broken in the English build', () => {
    const key = (link: BrokenLink, locale?: string) =>
      `${link.problem} ${locale ? link.target.replace(`/${locale}/`, '/') : link.target}`;
    const ofLocale = (link: BrokenLink, locale: string) => link.page.startsWith(`/${locale}/`);
    const english = links.broken.filter((link) => !LOCALES.some((locale) => ofLocale(link, locale)));
    // The English build's own broken links: only the pages of the real site that this fixture leaves out.
    const fixturePaths = new Set(pages.map((page) => `/${page.replace(/(index)?\.md$/, '')}`));
    for (const link of english) {
      expect(link.problem, `${link.page} → ${link.target}`).toBe('no such page');
      expect(fixturePaths.has(link.target.replace(/#.*/, ''))).toBe(false);
    }
    const known = new Set(english.map((link) => key(link)));
    for (const locale of LOCALES) {
      const broken = links.broken.filter((link) => ofLocale(link, locale));
      const unexpected = broken.filter((link) => !known.has(key(link, locale)));
      expect(unexpected, locale).toEqual([]);
    }
    // The check did look at anchors: hundreds of links with a fragment, in every locale.
    expect(links.fragments).toBeGreaterThan(300);
  });

  it('pages open in Chromium in es and en-XA without errors, in the locale', async () => {
    const { serve } = await import('vitepress');
    const server = await serve({ root: join(site, 'docs'), port: 0 });
    const origin = `http://localhost:${(server.server!.address() as AddressInfo).port}`;
    browser = await launchChromium(join(site, '.chromium'));
    try {
      for (const [path, heading] of [
        ['/es/guide/using-vue', /^(?!Using Vue in Markdown).*Vue/],
        ['/en-XA/reference/site-config', /^\[Š/],
        ['/en-XA/guide/getting-started', /^\[Ĝ/],
        ['/es/', /VitePress/],
      ] as const) {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error' && !/ERR_(NAME|INTERNET|CONNECTION|ADDRESS)/.test(message.text()))
            errors.push(message.text());
        });
        page.on('response', (response) => {
          if (response.url().startsWith(origin) && response.status() >= 400)
            errors.push(`${response.status()} ${response.url()}`);
        });
        await page.goto(`${origin}${path}`, { waitUntil: 'load' });
        expect(await page.getAttribute('html', 'lang')).toBe(path.split('/')[1]);
        expect(await page.locator('h1').first().textContent()).toMatch(heading);
        const locale = path.split('/')[1]!;
        if (path !== '/es/') {
          const section = `/${locale}/${path.split('/')[2]}/`;
          const sidebar = await page.locator('.VPSidebar').textContent();
          expect(sidebar).toContain(locales[locale].themeConfig.sidebar[section].items[0].text);
        }
        expect(await page.locator('.VPNavBarMenu').textContent()).toContain(
          locales[locale].themeConfig.nav[0].text,
        );
        expect(errors, path).toEqual([]);
        await page.close();
      }
    } finally {
      await new Promise((done) => server.server!.close(done));
    }
  }, 120_000);
});
