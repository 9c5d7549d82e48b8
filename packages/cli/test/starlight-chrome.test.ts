/**
 * A Starlight site's locales and sidebar labels: the module `glossa init` writes, run as the site's config
 * runs it, gives each label its translations from the `locales.json` that `translate` writes.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import {
  readStarlightBase,
  sidebarLabels,
  starlightLocales,
  writeStarlightModule,
} from '../src/starlight-chrome.js';
import { type SiteChrome, writeChromeCatalog, writeLocales } from '../src/vitepress-chrome.js';

const SIDEBAR = [
  {
    label: 'Guides',
    items: [
      { label: 'Example Guide', slug: 'guides/example', badge: { text: 'New', variant: 'tip' } },
      { slug: 'getting-started' },
      'environmental-impact',
    ],
  },
  { label: 'Reference', translations: { es: 'Referencia' }, autogenerate: { directory: 'reference' } },
  { label: 'v1.2', link: '/changelog/' },
];

it('lists the labels once each, in order (not a version)', () => {
  expect(sidebarLabels(SIDEBAR)).toEqual(['Guides', 'Example Guide', 'Reference']);
});

it('init writes the module, an empty catalog and the locales: en-XA under the key en-xa with lang en-XA', async () => {
  const site = await mkdtemp(join(tmpdir(), 'glossa-starlight-'));
  try {
    expect(await writeStarlightModule(site, 'en', ['es', 'en-XA'])).toEqual([
      'src/glossa/en.json',
      'src/glossa/starlight.mjs',
      'src/glossa/locales.json',
    ]);
    expect(JSON.parse(await readFile(join(site, 'src/glossa/locales.json'), 'utf8'))).toEqual({
      locales: {
        es: { label: 'Español', lang: 'es' },
        'en-xa': { label: 'English (Pseudo-Accents)', lang: 'en-XA' },
      },
      sidebar: {},
    });
    // Run again: nothing written, a module the user has is kept.
    await writeFile(join(site, 'src/glossa/starlight.mjs'), '// mine\n');
    expect(await writeStarlightModule(site, 'en', ['es'])).toEqual([]);
    expect(await readFile(join(site, 'src/glossa/starlight.mjs'), 'utf8')).toBe('// mine\n');
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});

it("translate's catalog and locales.json give each label its translations; the config's own win", async () => {
  const site = await mkdtemp(join(tmpdir(), 'glossa-starlight-'));
  try {
    await writeStarlightModule(site, 'en', ['es', 'en-XA']);
    const folder = join(site, 'src/glossa');
    const chrome: SiteChrome = { themeConfig: {}, starlight: sidebarLabels(SIDEBAR) };
    await writeChromeCatalog(join(folder, 'en.json'), chrome);
    expect(JSON.parse(await readFile(join(folder, 'en.json'), 'utf8'))).toEqual({
      sidebar: { '1': 'Guides', '2': 'Example Guide', '3': 'Reference' },
    });
    await writeFile(
      join(folder, 'es.json'),
      JSON.stringify({ sidebar: { '1': 'Guías', '2': 'Guía de ejemplo', '3': 'Remisión' } }),
    );
    // en-XA not translated yet: its labels stay English.
    expect(await writeLocales(join(folder, 'en.json'), chrome, ['es', 'en-XA'])).toBe(
      join(folder, 'locales.json'),
    );
    expect(await writeLocales(join(folder, 'en.json'), chrome, ['es', 'en-XA'])).toBeUndefined();
    const module = await import(`${pathToFileURL(join(folder, 'starlight.mjs')).href}?t=${Date.now()}`);
    expect(Object.keys(module.glossaLocales)).toEqual(['es', 'en-xa']);
    const sidebar = module.glossaSidebar(SIDEBAR);
    expect(sidebar[0].translations).toEqual({ es: 'Guías' });
    expect(sidebar[0].items[0]).toMatchObject({
      label: 'Example Guide',
      translations: { es: 'Guía de ejemplo' },
      badge: { text: 'New' },
    });
    expect(sidebar[0].items[1]).toEqual({ slug: 'getting-started' });
    expect(sidebar[0].items[2]).toBe('environmental-impact');
    expect(sidebar[1].translations).toEqual({ es: 'Referencia' });
    expect(sidebar[2]).toEqual({ label: 'v1.2', link: '/changelog/' });
    // translate reads the English sidebar the config passed.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('glossa.starlight.sidebar')]).toBe(SIDEBAR);
    expect(await starlightLocales(folder, ['Guides'], ['en-XA'])).toEqual({
      locales: { 'en-xa': { label: 'English (Pseudo-Accents)', lang: 'en-XA' } },
      sidebar: {},
    });
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});

it("reads the Astro site's base from its config ('' without one)", async () => {
  const site = await mkdtemp(join(tmpdir(), 'glossa-starlight-'));
  try {
    expect(await readStarlightBase(site)).toBe('');
    await writeFile(
      join(site, 'astro.config.mjs'),
      'export default defineConfig({\n  integrations: [],\n});\n',
    );
    expect(await readStarlightBase(site)).toBe('');
    await writeFile(
      join(site, 'astro.config.mjs'),
      "export default defineConfig({\n\tbase: 'docs/',\n\tsite: 'https://x.dev',\n});\n",
    );
    expect(await readStarlightBase(site)).toBe('/docs');
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});

it("the site's title: in the catalog, and glossaTitle gives it per lang from locales.json (the source's own)", async () => {
  const site = await mkdtemp(join(tmpdir(), 'glossa-starlight-'));
  try {
    await writeStarlightModule(site, 'en', ['es', 'en-XA']);
    const folder = join(site, 'src/glossa');
    const chrome: SiteChrome = { themeConfig: {}, starlight: ['Guides'], starlightTitle: 'My Docs' };
    await writeChromeCatalog(join(folder, 'en.json'), chrome);
    expect(JSON.parse(await readFile(join(folder, 'en.json'), 'utf8'))).toEqual({
      sidebar: { '1': 'Guides' },
      title: 'My Docs',
    });
    await writeFile(
      join(folder, 'es.json'),
      JSON.stringify({ sidebar: { '1': 'Guías' }, title: 'Mis documentos' }),
    );
    await writeLocales(join(folder, 'en.json'), chrome, ['es', 'en-XA']);
    const module = await import(`${pathToFileURL(join(folder, 'starlight.mjs')).href}?t=${Date.now()}`);
    expect(module.glossaTitle('My Docs')).toEqual({ es: 'Mis documentos', en: 'My Docs' });
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('glossa.starlight.title')]).toBe('My Docs');
    // Another title (changed in the config, not translated yet): English only.
    expect(module.glossaTitle('Docs', 'en-US')).toEqual({ 'en-US': 'Docs' });
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});
