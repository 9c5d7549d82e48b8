/**
 * A Starlight site's locales and sidebar group labels in every locale. `glossa init` writes a small module,
 * `src/glossa/starlight.mjs`, that the site's `astro.config.mjs` imports: `glossaLocales` (the Starlight
 * `locales` entries of the target locales), `glossaSidebar(items)`, which gives each sidebar label its
 * `translations`, and `glossaTitle(title)`, the site's title per locale. `translate` loads the site's config (through the site's own Astro and Vite), where
 * `glossaSidebar` records the English sidebar; its labels go into the catalog `src/glossa/<source>.json`,
 * which a `files` entry translates like any catalog (same cache, same lock) into `src/glossa/<locale>.json`;
 * then `src/glossa/locales.json` is written, which the module reads when Astro loads the config.
 *
 * Astro lower-cases content slugs: pages in `src/content/docs/en-XA/` are served at `/en-xa/`, so each
 * locale's Starlight key is its lower-cased tag (`'en-xa'`) and its `lang` the tag itself (`'en-XA'`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { notProse } from '@glossa/core';

/** The folder of a site that holds the module, the label catalogs and `locales.json`. */
export const STARLIGHT_CHROME_FOLDER = join('src', 'glossa');

/** Where `glossaSidebar` leaves the sidebar it was given, for `translate` to read. */
const RECORD = 'glossa.starlight.sidebar';
/** Where `glossaTitle` leaves the site's title. */
const TITLE_RECORD = 'glossa.starlight.title';

/** The module `glossa init` writes (`src/glossa/starlight.mjs`); it needs nothing but Node. */
export const STARLIGHT_MODULE = `// Written by \`glossa init\` (Glossa): Starlight's locales, sidebar labels and title in the languages Glossa
// translates to. \`glossa translate\` keeps ./locales.json up to date; this file is not rewritten.
// In astro.config.mjs:
//   import { glossaLocales, glossaSidebar, glossaTitle } from './src/glossa/starlight.mjs';
//   locales: { root: { label: 'English', lang: 'en' }, ...glossaLocales },
//   sidebar: glossaSidebar([ /* the sidebar as it was */ ]),
//   title: glossaTitle('My Docs'),
import { existsSync, readFileSync } from 'node:fs';

const file = new URL('./locales.json', import.meta.url);
const data = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};

/** Starlight \`locales\` entries of the target locales (key: the lower-cased tag, as Astro serves the pages). */
export const glossaLocales = data.locales ?? {};

/** The sidebar with each label's translations (the ones written in the config win). */
export function glossaSidebar(items) {
  globalThis[Symbol.for('${RECORD}')] = items;
  const labels = data.sidebar ?? {};
  const entry = (item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const copy = { ...item };
    if (typeof item.label === 'string' && labels[item.label])
      copy.translations = { ...labels[item.label], ...item.translations };
    if (Array.isArray(item.items)) copy.items = item.items.map(entry);
    return copy;
  };
  return items.map(entry);
}

/** The site's title in each locale, by \`lang\` (Starlight's per-locale \`title\`); \`lang\` is the root locale's. */
export function glossaTitle(title, lang = 'en') {
  globalThis[Symbol.for('${TITLE_RECORD}')] = title;
  return { ...data.title?.[title], [lang]: title };
}
`;

/** The Starlight key of a locale: its tag in lower case, as Astro serves its pages (`en-XA` → `en-xa`). */
export function starlightLocaleKey(locale: string): string {
  return locale.toLowerCase();
}

/** A version number (`v1.2`, `2.0.1-beta`), not prose. */
const VERSION = /^v?\d+(?:\.\d+)*(?:-[\w.]+)?$/i;

/** The labels of a Starlight sidebar's groups and links, each once, in order (a badge's text is not read). */
export function sidebarLabels(items: unknown): string[] {
  const labels = new Set<string>();
  const walk = (item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return;
    const { label, items: children } = item as Record<string, unknown>;
    if (typeof label === 'string' && label.trim() !== '' && !notProse(label) && !VERSION.test(label.trim()))
      labels.add(label);
    if (Array.isArray(children)) children.forEach(walk);
  };
  if (Array.isArray(items)) items.forEach(walk);
  return [...labels];
}

/**
 * The English sidebar labels and title of the Starlight site in `site`: its Astro config is loaded as Astro
 * loads it (through the site's Vite), and `glossaSidebar` records the sidebar, `glossaTitle` the title. No
 * labels when the config has no `sidebar` (Starlight then lists the translated page titles); an error, to be
 * shown as a warning, when it has one that `glossaSidebar` does not wrap. No title without `glossaTitle`.
 */
export async function readStarlightSite(site: string): Promise<{ labels: string[]; title?: string }> {
  const config = astroConfig(site);
  if (!config) throw new Error(`no astro.config.* in ${site}`);
  let vite: string;
  try {
    const astro = createRequire(join(site, 'package.json')).resolve('astro/package.json');
    vite = createRequire(astro).resolve('vite');
  } catch {
    throw new Error(`cannot read the Starlight site in ${site}: the astro package is not installed`);
  }
  const { createServer } = (await import(pathToFileURL(vite).href)) as {
    createServer(options: object): Promise<{
      ssrLoadModule(path: string): Promise<unknown>;
      close(): Promise<void>;
    }>;
  };
  const global = globalThis as Record<symbol, unknown>;
  const key = Symbol.for(RECORD);
  const titleKey = Symbol.for(TITLE_RECORD);
  delete global[key];
  delete global[titleKey];
  const server = await createServer({
    root: site,
    configFile: false,
    logLevel: 'silent',
    clearScreen: false,
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, watch: null, ws: false },
    optimizeDeps: { noDiscovery: true },
    ssr: { external: true },
  });
  try {
    await server.ssrLoadModule(config);
  } finally {
    await server.close();
  }
  const sidebar = global[key];
  const title = global[titleKey];
  delete global[key];
  delete global[titleKey];
  if (sidebar === undefined && SIDEBAR.test(await readFile(config, 'utf8')))
    throw new Error(
      `${basename(config)} has a \`sidebar\` that is not wrapped in glossaSidebar(…) from src/glossa/starlight.mjs: its labels stay English in every locale`,
    );
  const named = typeof title === 'string' && title.trim() !== '' && !notProse(title);
  return { labels: sidebarLabels(sidebar), ...(named && { title }) };
}

/** The site's `astro.config.*`, if it has one. */
function astroConfig(site: string): string | undefined {
  return ['mjs', 'js', 'mts', 'ts', 'cjs', 'cts']
    .map((ext) => join(site, `astro.config.${ext}`))
    .find((path) => existsSync(path));
}

/**
 * The Astro site's `base` (`/docs`; `''` without one), as its config writes it: a `base: '…'` string literal
 * on its own line (a base computed by an expression is not read).
 */
export async function readStarlightBase(site: string): Promise<string> {
  const config = astroConfig(site);
  const text = config === undefined ? '' : await readFile(config, 'utf8');
  const base = /^\s*base\s*:\s*(['"`])([^'"`$]*)\1/m
    .exec(text)?.[2]
    ?.trim()
    .replace(/^\/*|\/*$/g, '');
  return base ? `/${base}` : '';
}

/** A `sidebar:` key in an Astro config (Starlight's option; without it Starlight lists the page titles). */
const SIDEBAR = /(^|[\s{,])sidebar\s*:/m;

/** The labels (and title) as the source catalog: `{ "sidebar": { "1": "Guides", … }, "title": "My Docs" }`. */
export function starlightCatalog(
  labels: readonly string[],
  title?: string,
): Record<string, Record<string, string> | string> {
  return {
    ...(labels.length > 0 && {
      sidebar: Object.fromEntries(labels.map((label, i) => [String(i + 1), label])),
    }),
    ...(title !== undefined && { title }),
  };
}

/** How a locale names itself (`Español`), for Starlight's language menu. */
function localeLabel(locale: string): string {
  const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

/** `locales.json`: the locales' Starlight entries and, per English label, its text in each locale's `lang`. */
export async function starlightLocales(
  folder: string,
  labels: readonly string[],
  locales: readonly string[],
  title?: string,
): Promise<object> {
  const entries: Record<string, { label: string; lang: string }> = {};
  const sidebar: Record<string, Record<string, string>> = {};
  const titles: Record<string, Record<string, string>> = {};
  for (const locale of locales) {
    entries[starlightLocaleKey(locale)] = { label: localeLabel(locale), lang: locale };
    const path = join(folder, `${locale}.json`);
    const catalog = existsSync(path)
      ? (JSON.parse(await readFile(path, 'utf8')) as { sidebar?: Record<string, unknown>; title?: unknown })
      : {};
    if (title !== undefined && typeof catalog.title === 'string' && catalog.title !== title) {
      titles[title] ??= {};
      titles[title][locale] = catalog.title;
    }
    for (const [i, label] of labels.entries()) {
      const target = catalog.sidebar?.[String(i + 1)];
      if (typeof target === 'string' && target !== label) {
        sidebar[label] ??= {};
        sidebar[label][locale] = target;
      }
    }
  }
  return { locales: entries, sidebar, ...(title !== undefined && { title: titles }) };
}

/** Writes `text` to `path` unless it already holds it (atomic); true when it changed. */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  if ((await readFile(path, 'utf8').catch(() => undefined)) === text) return false;
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, path);
  return true;
}

/**
 * What `glossa init` writes for a Starlight site: the module (unless the site has it already), a
 * `locales.json` with the target locales and an empty source catalog (the labels come with the first
 * `translate`). Returns the paths written, relative to the site.
 */
export async function writeStarlightModule(
  site: string,
  sourceLang: string,
  locales: readonly string[],
): Promise<string[]> {
  const folder = join(site, STARLIGHT_CHROME_FOLDER);
  const written: string[] = [];
  const catalog = join(folder, `${sourceLang}.json`);
  if (!existsSync(catalog) && (await writeIfChanged(catalog, '{}\n')))
    written.push(join(STARLIGHT_CHROME_FOLDER, `${sourceLang}.json`));
  const module = join(folder, 'starlight.mjs');
  if (!existsSync(module) && (await writeIfChanged(module, STARLIGHT_MODULE)))
    written.push(join(STARLIGHT_CHROME_FOLDER, 'starlight.mjs'));
  const localesFile = join(folder, 'locales.json');
  if (!existsSync(localesFile)) {
    const text = `${JSON.stringify(await starlightLocales(folder, [], locales), null, 2)}\n`;
    if (await writeIfChanged(localesFile, text)) written.push(join(STARLIGHT_CHROME_FOLDER, 'locales.json'));
  }
  return written;
}
