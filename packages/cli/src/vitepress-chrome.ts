/**
 * A VitePress site's chrome (nav, sidebar, footer, edit-link, outline and the theme's other labels) in every
 * locale. `translate` reads the English `themeConfig` from the site's own config (through the `vitepress`
 * package the site has installed), writes its texts as a JSON catalog, `<site>/.vitepress/glossa/<source>.json`,
 * which a `files` entry translates like any catalog (same cache, same lock) into `…/glossa/<locale>.json`; then
 * it writes `…/glossa/locales.json`: the `locales` entries VitePress reads (`label`, `lang`, `link`,
 * `description`, `themeConfig` with the translated texts and the site's own links under `/<locale>/`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ResolvedConfig } from '@glossa/core';
import {
  readStarlightSite,
  STARLIGHT_CHROME_FOLDER,
  starlightCatalog,
  starlightLocales,
} from './starlight-chrome.js';

/** The folder of a site, under its `.vitepress`, that holds the chrome catalogs and `locales.json`. */
export const CHROME_FOLDER = join('.vitepress', 'glossa');

/**
 * Labels the default theme shows in English when the config leaves them out, with the option that sets
 * each (VitePress 1.6). They are translated too, so that a locale has none of them in English.
 */
const THEME_DEFAULTS: Record<string, string> = {
  returnToTopLabel: 'Return to top',
  sidebarMenuLabel: 'Menu',
  darkModeSwitchLabel: 'Appearance',
  lightModeSwitchTitle: 'Switch to light theme',
  darkModeSwitchTitle: 'Switch to dark theme',
  langMenuLabel: 'Change language',
  skipToContentLabel: 'Skip to content',
};
const NESTED_DEFAULTS: Record<string, Record<string, string>> = {
  outline: { label: 'On this page' },
  docFooter: { prev: 'Previous page', next: 'Next page' },
  lastUpdated: { text: 'Last updated' },
  notFound: {
    title: 'PAGE NOT FOUND',
    quote:
      "But if you don't change your direction, and if you keep looking, you may end up where you are heading.",
    linkLabel: 'go to home',
    linkText: 'Take me home',
  },
};
/** Text fields of `footer` and `editLink`, when the site has them. */
const OPTIONAL_NESTED: Record<string, readonly string[]> = {
  footer: ['message', 'copyright'],
  editLink: ['text'],
};

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The English chrome a site's config gives its root locale. */
export interface SiteChrome {
  readonly description?: string;
  readonly themeConfig: JsonObject;
  /** A Starlight site (`starlight-chrome.ts`): its English sidebar labels, and no `themeConfig`. */
  readonly starlight?: readonly string[];
  /** A Starlight site's title, when its config passes it through `glossaTitle`. */
  readonly starlightTitle?: string;
}

/**
 * The site (absolute folder) whose chrome catalog is one of the config's `files`, and that catalog's path:
 * a VitePress site's `.vitepress/glossa/<source>.json`, a Starlight site's `src/glossa/<source>.json`.
 */
export function chromeSite(config: ResolvedConfig): { site: string; source: string } | undefined {
  const sourceLang = config.sourceLang ?? 'en';
  for (const entry of config.files) {
    for (const include of entry.include) {
      const source = resolve(config.root, include);
      const folder = dirname(source);
      if (
        source === join(folder, `${sourceLang}.json`) &&
        (folder.endsWith(CHROME_FOLDER) || folder.endsWith(STARLIGHT_CHROME_FOLDER))
      )
        return { site: dirname(dirname(folder)), source };
    }
  }
  return undefined;
}

/**
 * The English chrome of the VitePress site in `site`, read by the site's own `vitepress` package (of a
 * Starlight site, without `.vitepress/`: its sidebar labels and title, read through its Astro config).
 */
export async function readSiteChrome(site: string): Promise<SiteChrome> {
  if (!existsSync(join(site, '.vitepress')) && existsSync(join(site, STARLIGHT_CHROME_FOLDER))) {
    const { labels, title } = await readStarlightSite(site);
    return { themeConfig: {}, starlight: labels, ...(title !== undefined && { starlightTitle: title }) };
  }
  const require = createRequire(join(site, 'package.json'));
  let entry: string;
  try {
    entry = require.resolve('vitepress');
  } catch {
    throw new Error(`cannot read the VitePress site in ${site}: the vitepress package is not installed`);
  }
  const vitepress = (await import(pathToFileURL(entry).href)) as {
    resolveUserConfig(root: string, command: 'build', mode: string): Promise<[Record<string, unknown>]>;
  };
  const [user] = await vitepress.resolveUserConfig(site, 'build', 'production');
  const root = ((user.locales as Record<string, Record<string, unknown>> | undefined)?.root ?? {}) as Record<
    string,
    unknown
  >;
  const themeConfig = {
    ...(user.themeConfig as JsonObject | undefined),
    ...(root.themeConfig as JsonObject | undefined),
  };
  const description = (root.description ?? user.description) as string | undefined;
  return { ...(typeof description === 'string' && { description }), themeConfig: plain(themeConfig) };
}

/**
 * Before a command reads the files (`status`, `check`): the site's chrome catalog rewritten from the site's
 * config as it is now, so that a label changed there shows as missing or stale. A config that cannot be
 * read is said through `warn`; the catalog is then left as it was.
 */
export async function refreshChrome(config: ResolvedConfig, warn: (message: string) => void): Promise<void> {
  const site = chromeSite(config);
  if (!site) return;
  const localesFile = join(dirname(site.source), 'locales.json');
  if (!existsSync(localesFile)) await writeLocalesPlaceholder(localesFile);
  try {
    await writeChromeCatalog(site.source, await readSiteChrome(site.site));
  } catch (error) {
    warn(`warning: nav, sidebar and theme labels read as they were: ${(error as Error).message}`);
    if (!existsSync(site.source)) await writeChromeCatalog(site.source, { themeConfig: {} }, false);
  }
}

/** A JSON copy of config data (functions and other non-data values left out). */
function plain(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value ?? {})) as JsonObject;
}

/**
 * The chrome with each text passed through `text(path, value)` and each of the site's own links (starting
 * with `/`; a nav item's `activeMatch` that starts with one, `^` before it or not) through `link`. Only the chrome is returned (nav, sidebar, footer, labels), not the rest of
 * `themeConfig`: VitePress takes the rest from the root config.
 */
export function mapChrome(
  chrome: SiteChrome,
  text: (path: readonly string[], value: string) => string,
  link: (value: string) => string = (value) => value,
): { description?: string; themeConfig: JsonObject } {
  const config = chrome.themeConfig;
  const out: JsonObject = {};
  const translatable = (value: unknown): value is string => typeof value === 'string' && /\p{L}/u.test(value);
  const items = (list: Json, path: readonly string[]): Json =>
    Array.isArray(list) ? list.map((item, i) => entry(item, [...path, String(i)])) : list;
  const entry = (item: Json, path: readonly string[]): Json => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const copy: JsonObject = { ...item };
    if (translatable(item.text)) copy.text = text([...path, 'text'], item.text);
    if (typeof item.link === 'string' && item.link.startsWith('/')) copy.link = link(item.link);
    if (typeof item.base === 'string' && item.base.startsWith('/')) copy.base = link(item.base);
    // A pattern VitePress tests against the page's path (`/es/guide/x`): `/guide/` or `^/guide/` in the locale.
    const active = typeof item.activeMatch === 'string' ? /^(\^?)(\/.*)$/s.exec(item.activeMatch) : null;
    if (active) copy.activeMatch = `${active[1]}${link(active[2]!)}`;
    if (item.items !== undefined) copy.items = items(item.items, [...path, 'items']);
    return copy;
  };
  if (config.nav !== undefined) out.nav = items(config.nav, ['nav']);
  const sidebar = config.sidebar;
  if (Array.isArray(sidebar)) out.sidebar = items(sidebar, ['sidebar']);
  else if (sidebar && typeof sidebar === 'object') {
    out.sidebar = Object.fromEntries(
      Object.entries(sidebar).map(([key, value], i) => [
        key.startsWith('/') ? link(key) : key,
        Array.isArray(value)
          ? items(value, ['sidebar', String(i)])
          : value && typeof value === 'object'
            ? (entry(value, ['sidebar', String(i)]) as Json)
            : value,
      ]),
    );
  }
  for (const [key, fields] of Object.entries(OPTIONAL_NESTED)) {
    const value = config[key];
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    const copy: JsonObject = { ...value };
    for (const field of fields)
      if (translatable(value[field])) copy[field] = text([key, field], value[field] as string);
    out[key] = copy;
  }
  for (const [key, fields] of Object.entries(NESTED_DEFAULTS)) {
    const value = config[key];
    if (value === false) continue;
    const base: JsonObject =
      value && typeof value === 'object' && !Array.isArray(value)
        ? { ...value }
        : key === 'outline' && value !== undefined
          ? { level: value }
          : {};
    for (const [field, fallback] of Object.entries(fields)) {
      const source = translatable(base[field]) ? (base[field] as string) : fallback;
      base[field] = text([key, field], source);
    }
    out[key] = base;
  }
  for (const [key, fallback] of Object.entries(THEME_DEFAULTS)) {
    const source = translatable(config[key]) ? (config[key] as string) : fallback;
    out[key] = text([key], source);
  }
  const description =
    chrome.description !== undefined && translatable(chrome.description)
      ? text(['description'], chrome.description)
      : chrome.description;
  return { ...(description !== undefined && { description }), themeConfig: out };
}

/** The chrome's texts as a nested JSON catalog (the source a `files` entry translates). */
export function chromeCatalog(chrome: SiteChrome): JsonObject {
  const catalog: JsonObject = {};
  mapChrome(chrome, (path, value) => {
    let node = catalog;
    for (const part of path.slice(0, -1)) {
      node[part] ??= {};
      node = node[part] as JsonObject;
    }
    node[path.at(-1)!] = value;
    return value;
  });
  return catalog;
}

function lookup(catalog: Json | undefined, path: readonly string[]): Json | undefined {
  let node = catalog;
  for (const part of path) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = node[part];
  }
  return node;
}

/** Writes `text` to `path` unless it already holds it (atomic; a run that changes nothing writes nothing). */
async function writeIfChanged(path: string, text: string): Promise<boolean> {
  if ((await readFile(path, 'utf8').catch(() => undefined)) === text) return false;
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, path);
  return true;
}

/** An empty `locales.json` (no locale yet), for a site config that imports it before the first run. */
export async function writeLocalesPlaceholder(path: string): Promise<void> {
  await writeIfChanged(path, '{}\n');
}

/** Writes the chrome's source catalog; true when it changed. */
export async function writeChromeCatalog(
  source: string,
  chrome: SiteChrome,
  labels = true,
): Promise<boolean> {
  const catalog = !labels
    ? {}
    : chrome.starlight
      ? starlightCatalog(chrome.starlight, chrome.starlightTitle)
      : chromeCatalog(chrome);
  return writeIfChanged(source, `${JSON.stringify(catalog, null, 2)}\n`);
}

/** How a locale names itself (`Español`), for VitePress's language menu. */
export function localeLabel(locale: string): string {
  const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

/**
 * Writes `<site>/.vitepress/glossa/locales.json`: per locale, the chrome with the translated texts of
 * `<locale>.json` (a text without a translation there stays in English) and the site's links under `/<locale>/`. Returns the path when the file changed.
 */
export async function writeLocales(
  source: string,
  chrome: SiteChrome,
  locales: readonly string[],
): Promise<string | undefined> {
  const folder = dirname(source);
  if (chrome.starlight) {
    const target = join(folder, 'locales.json');
    const data = await starlightLocales(folder, chrome.starlight, locales, chrome.starlightTitle);
    return (await writeIfChanged(target, `${JSON.stringify(data, null, 2)}\n`)) ? target : undefined;
  }
  const entries: JsonObject = {};
  for (const locale of locales) {
    const path = join(folder, `${locale}.json`);
    const translated = existsSync(path) ? (JSON.parse(await readFile(path, 'utf8')) as Json) : undefined;
    const localized = mapChrome(
      chrome,
      (keys, value) => {
        const target = lookup(translated, keys);
        return typeof target === 'string' ? target : value;
      },
      (link) => `/${locale}${link}`,
    );
    entries[locale] = {
      label: localeLabel(locale),
      lang: locale,
      link: `/${locale}/`,
      ...(localized.description !== undefined && { description: localized.description }),
      themeConfig: localized.themeConfig,
    };
  }
  const target = join(folder, 'locales.json');
  return (await writeIfChanged(target, `${JSON.stringify(entries, null, 2)}\n`)) ? target : undefined;
}
