/** A VitePress site's chrome: its texts as a catalog, and each locale's `locales` entry from the translations. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { chromeCatalog, type SiteChrome, writeLocales } from '../src/vitepress-chrome.js';

const chrome: SiteChrome = {
  description: 'Vite & Vue powered static site generator.',
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/what-is-vitepress', activeMatch: '/guide/' },
      { text: '1.6.4', items: [{ text: 'Changelog', link: 'https://example.com/CHANGELOG.md' }] },
      { text: 'Reference', link: '/reference/site-config', activeMatch: '^/reference/' },
      { text: 'Either', link: '/a/', activeMatch: '^(/a/|/b/)' },
    ],
    sidebar: {
      '/guide/': {
        base: '/guide/',
        items: [{ text: 'Introduction', items: [{ text: 'Routing', link: 'routing' }] }],
      },
    },
    editLink: { pattern: 'https://example.com/edit/:path', text: 'Edit this page' },
    outline: [2, 3],
    lastUpdated: false,
  },
};

it('lists the texts (not versions, links or patterns) with the default theme labels the config leaves out', () => {
  const catalog = chromeCatalog(chrome);
  expect(catalog).toMatchObject({
    nav: { '0': { text: 'Guide' }, '1': { items: { '0': { text: 'Changelog' } } } },
    sidebar: { '0': { items: { '0': { text: 'Introduction', items: { '0': { text: 'Routing' } } } } } },
    editLink: { text: 'Edit this page' },
    outline: { label: 'On this page' },
    docFooter: { prev: 'Previous page', next: 'Next page' },
    sidebarMenuLabel: 'Menu',
    description: 'Vite & Vue powered static site generator.',
  });
  expect(JSON.stringify(catalog)).not.toMatch(/1\.6\.4|https:|routing"|Last updated/);
});

it('writes each locale with its translations, links under /<locale>/, and English where a text is missing', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'glossa-chrome-'));
  try {
    const source = join(dir, 'en.json');
    await writeFile(
      join(dir, 'es.json'),
      JSON.stringify({ nav: { '0': { text: 'Guía' } }, editLink: { text: 'Editar esta página' } }),
    );
    expect(await writeLocales(source, chrome, ['es'])).toBe(join(dir, 'locales.json'));
    const { es } = JSON.parse(await readFile(join(dir, 'locales.json'), 'utf8'));
    expect(es).toMatchObject({ label: 'Español', lang: 'es', link: '/es/' });
    expect(es.themeConfig.nav[0]).toEqual({
      text: 'Guía',
      link: '/es/guide/what-is-vitepress',
      activeMatch: '/es/guide/',
    });
    // VitePress matches `activeMatch` against the page's path (`/es/reference/…`): anchored, it must name the
    // locale's folder; a pattern that does not start with a path stays.
    expect(es.themeConfig.nav[2].activeMatch).toBe('^/es/reference/');
    expect(es.themeConfig.nav[3].activeMatch).toBe('^(/a/|/b/)');
    expect(es.themeConfig.nav[1].items[0].link).toBe('https://example.com/CHANGELOG.md');
    expect(es.themeConfig.sidebar['/es/guide/']).toMatchObject({
      base: '/es/guide/',
      items: [{ text: 'Introduction', items: [{ text: 'Routing', link: 'routing' }] }],
    });
    expect(es.themeConfig.editLink).toEqual({
      pattern: 'https://example.com/edit/:path',
      text: 'Editar esta página',
    });
    expect(es.themeConfig.outline).toEqual({ level: [2, 3], label: 'On this page' });
    expect(es.themeConfig.lastUpdated).toBeUndefined();
    // Unchanged: not written again.
    expect(await writeLocales(source, chrome, ['es'])).toBeUndefined();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
