import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../examples/vite-site/test/chromium.js';
import { checkLinks } from './links.js';
import { collectErrors, serveStatic } from './serve-static.js';
import { addGlossary, copyStarlightSite, siteCommands } from './starlight-site.js';

let site: string;
let glossa: ReturnType<typeof siteCommands>['glossa'];
let astro: ReturnType<typeof siteCommands>['astro'];
const page = (path: string) => readFile(join(site, path), 'utf8');

beforeAll(async () => {
  const copy = await copyStarlightSite('.tmp-starlight-');
  site = copy.site;
  ({ glossa, astro } = siteCommands(site, copy.env));
});
let browser: BrowserContext | undefined;
afterAll(async () => {
  await browser?.close();
  await rm(site, { recursive: true, force: true });
});

describe.sequential('Starlight starter site (@astrojs/starlight 0.37.7) in es and en-XA', () => {
  it('glossa init finds the Starlight site; translate writes every page to src/content/docs/<locale>/ with no failure', async () => {
    const init = await glossa('init', '--to', 'es,en-XA');
    expect(init.code, init.stderr + init.stdout).toBe(0);
    expect(init.stdout).toContain(
      "Starlight site: src/content/docs/**/*.{md,mdx} → src/content/docs/<locale>/ (Starlight's locale keys: 'es', 'en-xa')",
    );
    expect(init.stdout).toContain('src/glossa/starlight.mjs');
    const config = await page('glossa.config.ts');
    expect(config).toContain('"dialect": "starlight"');
    await addGlossary(site);
    const translate = await glossa('translate', '--json');
    expect(translate.stdout, translate.stderr).toMatch(/^\{/);
    const report = JSON.parse(translate.stdout);
    expect(report.failures).toEqual([]);
    expect(report.qa).toEqual([]);
    expect(translate.code, translate.stderr).toBe(0);
    for (const path of [
      'index.mdx',
      'getting-started.mdx',
      'environmental-impact.md',
      'guides/example.md',
      'reference/example.md',
    ]) {
      expect(report.written).toContain(`src/content/docs/es/${path}`);
      expect(report.written).toContain(`src/content/docs/en-XA/${path}`);
    }
    // Starlight's locale entries (en-XA under the key Astro serves it at) and the sidebar's group and link
    // labels, read from the site's config, in each locale.
    const chrome = JSON.parse(await page('src/glossa/locales.json'));
    expect(chrome.locales).toEqual({
      es: { label: 'Español', lang: 'es' },
      'en-xa': { label: 'English (Pseudo-Accents)', lang: 'en-XA' },
    });
    expect(Object.keys(chrome.sidebar)).toEqual(['Guides', 'Example Guide', 'Reference']);
    expect(chrome.sidebar.Reference.es).toBe('Referencia');
    expect(chrome.sidebar.Guides['en-XA']).toMatch(/^\[Ĝ.+\]$/);
    // The site's title (the config's glossaTitle('My Docs')) in each locale.
    expect(Object.keys(chrome.title['My Docs'])).toEqual(['es', 'en-XA']);
    expect(chrome.title['My Docs'].es).not.toBe('My Docs');
    // Links written to an English heading of another page, or of the page itself, lead to the translated heading.
    const guide = await page('src/content/docs/es/guides/example.md');
    expect(guide).not.toContain('#page-weight');
    expect(guide).not.toContain('#start-the-development-server');
    expect(guide).not.toContain('(#further-reading)');
    expect(guide).toMatch(/\]\(\.\.\/\.\.\/environmental-impact\/#[^)]+\)/);
    // The splash page's hero image, referred to by a relative path from the front matter, is found from es/.
    expect(report.written).toContain('src/content/assets/houston.webp');
    // Front matter: title, description, hero tagline and action texts translated; the rest as it was.
    const home = await page('src/content/docs/es/index.mdx');
    expect(home).not.toContain('title: Welcome to Starlight');
    expect(home).not.toContain('tagline: Congrats on setting up a new Starlight project!');
    expect(home).not.toContain('- text: Example Guide');
    expect(home).toContain('template: splash');
    expect(home).toContain('link: /guides/example/');
    // MDX: the import and the components stay, their text is translated.
    expect(home).toContain("import { Card, CardGrid, LinkCard } from '@astrojs/starlight/components';");
    // A component's root-relative href leads to the es page and its translated heading.
    expect(home).toMatch(/<LinkCard title="[^"]+" href="\/es\/guides\/example\/#[^"]+" \/>/);
    expect(home).not.toContain('#further-reading"');
    expect(home).toContain('<Card title=');
    expect(home).not.toContain('title="Update content"');
    const started = await page('src/content/docs/es/getting-started.mdx');
    expect(started).toContain("import { Tabs, TabItem } from '@astrojs/starlight/components';");
    expect(started).toContain('<Tabs syncKey="pkg">');
    expect(started).toContain('<TabItem label="Yarn">');
    // Asides: `:::tip[label]` and `:::tip` keep their marker; the label is translated.
    expect(started.match(/^:::tip/gm)).toHaveLength(2);
    expect(started).not.toContain(':::tip[See it in action]');
    expect((await page('src/content/docs/es/environmental-impact.md')).match(/^:::tip\[/gm)).toHaveLength(1);
    // A warm rerun sends nothing and rewrites nothing.
    const again = await glossa('translate', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ requests: 0, translated: 0, written: [], failures: [] });
  }, 240_000);

  it('astro build builds English, es and en-XA; no link or anchor is broken in a locale that is not broken in English', async () => {
    const build = await astro('build');
    expect(build.code, build.stderr + build.stdout).toBe(0);
    expect(build.stdout + build.stderr).not.toMatch(/\[ERROR\]/);
    const links = await checkLinks(join(site, 'dist'));
    // The two pages of Starlight's docs link to others of its pages, not in the fixture: broken in English too.
    const locale = (path: string) => /^\/(es|en-xa)\//.exec(path)?.[1];
    const english = new Set(
      links.broken.filter((link) => !locale(link.page)).map((link) => `${link.page} ${link.target}`),
    );
    expect(english.size).toBeGreaterThan(0);
    const translated = links.broken.filter((link) => {
      const prefix = locale(link.page);
      return prefix && !english.has(`${link.page.slice(prefix.length + 1)} ${link.target}`);
    });
    expect(translated).toEqual([]);
    // Each locale's 5 pages at its own path (no English page served under /es/en-xa/).
    expect(links.pages).toBeGreaterThanOrEqual(15);
    expect(existsSync(join(site, 'dist/en-xa/guides/example/index.html'))).toBe(true);
    expect(existsSync(join(site, 'dist/es/en-xa'))).toBe(false);
    expect(links.fragments).toBeGreaterThan(80);
    // The hand-written links to the translated headings of other pages are among the links checked.
    const guide = await page('dist/es/guides/example/index.html');
    const crossPage = [...guide.matchAll(/href="(\.\.\/\.\.\/[^"#]+\/#[^"]+)"/g)].map((m) => m[1]);
    expect(crossPage).toHaveLength(2);
    // The home page's <LinkCard href="/guides/example/#further-reading"> leads to the es page's heading.
    const home = await page('dist/es/index.html');
    expect(home).toMatch(/href="\/es\/guides\/example\/#[^"]+"/);
    expect(home).not.toContain('href="/guides/example/#further-reading"');
  }, 300_000);

  it('the es pages: lang, translated titles in the sidebar and table of contents, asides and tabs rendered', async () => {
    const html = await page('dist/es/getting-started/index.html');
    expect(html).toContain('<html lang="es"');
    // The site's title in es: the header's and the <title>'s, not English.
    const siteTitle = JSON.parse(await page('src/glossa/locales.json')).title['My Docs'];
    expect(html).toContain(`| ${siteTitle.es}</title>`);
    expect(html).not.toContain('My Docs');
    const h1 = html.match(/<h1 id="_top"[^>]*>([^<]*)</)?.[1];
    expect(h1).toBeDefined();
    expect(h1).not.toBe('Getting Started');
    // The sidebar lists the es pages under /es/, by their translated titles (no English title anywhere).
    expect(html).toContain('href="/es/getting-started/"');
    expect(html).toContain('href="/es/environmental-impact/"');
    expect(html).not.toMatch(/>\s*Getting Started\s*</);
    expect(html).not.toMatch(/>\s*Eco-friendly docs\s*</);
    // Starlight's own UI strings in es (its built-in translations): "On this page".
    expect(html).toContain('En esta página');
    // Starlight's asides and tabs, rendered from the translated MDX.
    expect(html.match(/starlight-aside--tip/g)?.length).toBe(2);
    expect(html).toContain('<starlight-tabs');
    // The sidebar's group labels in es (from src/glossa/locales.json through glossaSidebar).
    expect(html).toContain('Guías');
    expect(html).toContain('Referencia');
    expect(html).not.toMatch(/>\s*(Guides|Reference|Example Guide)\s*</);
    const pseudo = await page('dist/en-xa/getting-started/index.html');
    expect(pseudo).toContain('<html lang="en-XA"');
    expect(pseudo).toContain(`| ${siteTitle['en-XA']}</title>`);
    expect(pseudo).not.toMatch(/>\s*(Guides|Reference|Example Guide)\s*</);
    // Each table-of-contents link has its heading on the page (the translated heading's own slug).
    const toc = [...html.matchAll(/<a href="#([^"]+)"/g)].map((m) => m[1]!).filter((id) => id !== '_top');
    expect(toc.length).toBeGreaterThan(3);
    for (const id of toc) expect(html).toContain(`id="${id}"`);
  });

  it('two pages per locale open in Chromium without errors, in the locale, with translated headings', async () => {
    const server = await serveStatic(join(site, 'dist'));
    browser = await launchChromium(join(site, '.chromium'));
    try {
      for (const [path, lang, english] of [
        ['/es/getting-started/', 'es', 'Getting Started'],
        ['/es/guides/example/', 'es', 'Example Guide'],
        ['/en-xa/getting-started/', 'en-XA', 'Getting Started'],
        ['/en-xa/guides/example/', 'en-XA', 'Example Guide'],
      ] as const) {
        const tab = await browser.newPage();
        const errors = collectErrors(tab, server.origin);
        await tab.goto(`${server.origin}${path}`, { waitUntil: 'load' });
        expect(await tab.getAttribute('html', 'lang')).toBe(lang);
        const h1 = await tab.locator('h1').first().textContent();
        expect(h1?.trim()).not.toBe(english);
        if (lang === 'en-XA') expect(h1).toMatch(/^\[/);
        // Starlight's sidebar links stay in the locale.
        expect(await tab.locator(`nav a[href^="/${path.split('/')[1]}/"]`).count()).toBeGreaterThan(0);
        expect(errors, path).toEqual([]);
        await tab.close();
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});
