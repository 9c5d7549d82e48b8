/** `glossa init`: writes a starting `glossa.config.ts` (or `.json`) in the current folder. */

import { existsSync } from 'node:fs';
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { CONFIG_FILE_NAMES } from '@glossa/core';
import { isPseudoLocale } from '@glossa/protocol';
import { parseLocales } from '../context.js';
import { UsageError } from '../errors.js';
import { starlightLocaleKey, writeStarlightModule } from '../starlight-chrome.js';
import type { CommandEnv } from './translate.js';

export interface InitFlags {
  readonly json?: boolean;
  readonly to?: string;
  readonly from?: string;
  readonly files?: string;
  readonly out?: string;
  readonly force?: boolean;
}

export async function initCommand(ctx: CommandEnv, flags: InitFlags): Promise<number> {
  const sourceLang = flags.from === undefined ? 'en' : parseLocales(flags.from)[0]!;
  const targetLocales = flags.to === undefined ? ['es', 'en-XA'] : parseLocales(flags.to);
  // A VitePress site (its package and `.vitepress/config.*`): the source locale is the site's root, each
  // locale goes to `<srcDir>/<locale>/…` as VitePress's i18n expects, home-page front matter included.
  const site = flags.files === undefined ? await findVitePress(ctx.cwd) : undefined;
  // A Docusaurus site (its package and `docusaurus.config.*`): pages go where Docusaurus's i18n reads them.
  const docusaurus = !site && flags.files === undefined ? await findDocusaurus(ctx.cwd) : undefined;
  // A Starlight site (`@astrojs/starlight` and `astro.config.*`): pages to `src/content/docs/<locale>/…`.
  const starlight = !site && !docusaurus && flags.files === undefined ? await findStarlight(ctx.cwd) : false;
  const config: Record<string, unknown> = site
    ? {
        sourceLang,
        targetLocales,
        ...vitePressLayout(
          site.pages,
          sourceFolder(ctx.cwd, site.pages, sourceLang),
          sourceLang,
          targetLocales,
          site.dir,
        ),
      }
    : docusaurus
      ? { sourceLang, targetLocales, ...docusaurusLayout(docusaurus, sourceLang) }
      : starlight
        ? { sourceLang, targetLocales, ...starlightLayout(sourceLang, targetLocales) }
        : { sourceLang, targetLocales, files: [flags.files ?? 'docs/**/*.md'], out: flags.out ?? 'i18n' };
  const engines = enginesSection(targetLocales, ctx.env);
  const name = flags.json ? 'glossa.config.json' : 'glossa.config.ts';
  if (!flags.force) {
    for (const existing of CONFIG_FILE_NAMES) {
      if (
        await access(join(ctx.cwd, existing)).then(
          () => true,
          () => false,
        )
      ) {
        throw new UsageError(`${existing} already exists here (--force writes ${name} anyway)`);
      }
    }
  }
  // The config's type comes from @glossa/core: imported only where the project can resolve it (a
  // project with only the CLI, or none installed, would fail its type check on that line).
  const typed = resolvable('@glossa/core', ctx.cwd);
  const quote = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  const literal = (value: unknown): string =>
    typeof value === 'string'
      ? quote(value)
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? `[${value.map(quote).join(', ')}]`
        : JSON.stringify(value, null, 2).replaceAll('\n', '\n  ');
  const text = flags.json
    ? `${JSON.stringify({ ...config, engines }, null, 2)}\n`
    : [
        ...(typed ? ["import type { GlossaConfig } from '@glossa/core';", ''] : []),
        '// Every option is described in docs/config.md of Glossa.',
        'export default {',
        ...Object.entries(config).map(([key, value]) => `  ${key}: ${literal(value)},`),
        '  // Engines in order per target locale (keys stay in the environment); see docs/engines.md.',
        `  engines: ${literal(engines)},`,
        typed ? '} satisfies GlossaConfig;' : '};',
        '',
      ].join('\n');
  await writeFile(join(ctx.cwd, name), text, { flag: flags.force ? 'w' : 'wx' });
  if (site) {
    const at = site.dir === '.' ? '' : `${site.dir}/`;
    const src = site.pages === '.' ? '' : `${site.pages}/`;
    const pages = sourceFolder(ctx.cwd, site.pages, sourceLang);
    ctx.io.out(
      `wrote ${name}: ${sourceLang} → ${targetLocales.join(', ')}, VitePress site in ${at || './'}: pages from ${src}${pages ? `${pages}/` : ''}**/*.md, output in ${src}<locale>/; nav, sidebar and theme labels in ${at}.vitepress/glossa/locales.json (spread it into the site config's \`locales\`)`,
    );
  } else if (docusaurus) {
    ctx.io.out(
      `wrote ${name}: ${sourceLang} → ${targetLocales.join(', ')}, Docusaurus site: ${docusaurus.join(', ')} → i18n/<locale>/docusaurus-plugin-content-*/; run \`docusaurus write-translations --locale ${sourceLang}\` before each translate to refresh i18n/${sourceLang}/**/*.json (navbar, footer, sidebar, theme texts), and add the locales to the config's \`i18n.locales\``,
    );
  } else if (starlight) {
    const written = await writeStarlightModule(ctx.cwd, sourceLang, targetLocales);
    ctx.io.out(
      `wrote ${name}: ${sourceLang} → ${targetLocales.join(', ')}, Starlight site: src/content/docs/**/*.{md,mdx} → src/content/docs/<locale>/ (Starlight's locale keys: ${targetLocales.map((l) => `'${starlightLocaleKey(l)}'`).join(', ')})`,
    );
    if (written.length > 0) ctx.io.out(`wrote ${written.join(', ')}`);
    ctx.io.out(
      `in astro.config.mjs: import { glossaLocales, glossaSidebar, glossaTitle } from './src/glossa/starlight.mjs'; then Starlight's \`locales: { root: { label: '…', lang: '${sourceLang}' }, ...glossaLocales }\`, \`sidebar: glossaSidebar([…])\` (the sidebar's labels in each locale) and \`title: glossaTitle('…', '${sourceLang}')\``,
    );
  } else {
    ctx.io.out(
      `wrote ${name}: ${sourceLang} → ${targetLocales.join(', ')}, files ${(config.files as string[])[0]}, output in ${config.out}/<locale>/`,
    );
  }
  for (const [key, value] of Object.entries(engines))
    if (Array.isArray(value)) ctx.io.out(`engines ${key}: ${value.join(' > ')}`);
  ctx.io.out('next: glossa translate (or glossa estimate to see the cost first)');
  return 0;
}

const CONFIG_EXTENSIONS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'];

/**
 * The VitePress site of the project at `cwd`: `vitepress` among its package.json dependencies and a
 * `.vitepress/config.*` (or `.vitepress/config/index.*`) at the root (`'.'`) or in a folder of it (`'docs'`, the usual one):
 * that folder (`dir`), and the one its pages are in (`pages`): `dir`, or its config's `srcDir: '…'` string
 * literal (`docs/src`; a `srcDir` computed by an expression is not read).
 */
async function findVitePress(cwd: string): Promise<{ dir: string; pages: string } | undefined> {
  const dir = await findVitePressDir(cwd);
  if (dir === undefined) return undefined;
  const config = CONFIG_EXTENSIONS.flatMap((ext) => [
    join(cwd, dir, '.vitepress', `config.${ext}`),
    join(cwd, dir, '.vitepress', 'config', `index.${ext}`),
  ]).find((path) => existsSync(path));
  const text = config === undefined ? '' : await readFile(config, 'utf8');
  const srcDir = /^\s*srcDir\s*:\s*(['"`])([^'"`$]*)\1/m.exec(text)?.[2];
  const pages = srcDir === undefined ? dir : posix.normalize(posix.join(dir, srcDir)).replace(/\/$/, '');
  return { dir, pages: pages.startsWith('..') ? dir : pages };
}

/** The folder of the project at `cwd` that holds `.vitepress/config.*` (`'.'`, `'docs'`). */
async function findVitePressDir(cwd: string): Promise<string | undefined> {
  const manifest = await readFile(join(cwd, 'package.json'), 'utf8').then(
    (text) => JSON.parse(text) as Record<string, Record<string, string> | undefined>,
    () => undefined,
  );
  const deps = { ...manifest?.dependencies, ...manifest?.devDependencies, ...manifest?.peerDependencies };
  if (!manifest || deps.vitepress === undefined) return undefined;
  const hasConfig = (dir: string) =>
    CONFIG_EXTENSIONS.some(
      (ext) =>
        existsSync(join(cwd, dir, '.vitepress', `config.${ext}`)) ||
        existsSync(join(cwd, dir, '.vitepress', 'config', `index.${ext}`)),
    );
  if (hasConfig('.')) return '.';
  const dirs = await readdir(cwd, { withFileTypes: true }).catch(() => []);
  const names = dirs
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== 'node_modules')
    .map((d) => d.name)
    .sort((a, b) => (a === 'docs' ? -1 : b === 'docs' ? 1 : a.localeCompare(b)));
  return names.find(hasConfig);
}

/** Home-page (`layout: home`) fields VitePress shows, besides each page's title and description. */
export const VITEPRESS_FRONTMATTER = [
  'title',
  'description',
  'hero.text',
  'hero.tagline',
  'hero.image.alt',
  'hero.actions.*.text',
  'features.*.title',
  'features.*.details',
  'features.*.linkText',
];

/**
 * The folder of the site `dir` that holds the source locale's pages when they are not at its root:
 * `<dir>/<sourceLang>/index.md` without `<dir>/index.md`, as in VitePress's own docs (`docs/en/…` served at
 * `/` through `rewrites: { 'en/:rest*': ':rest*' }`, each translation in `docs/<locale>/…`).
 */
function sourceFolder(cwd: string, dir: string, sourceLang: string): string | undefined {
  const site = join(cwd, dir);
  return !existsSync(join(site, 'index.md')) && existsSync(join(site, sourceLang, 'index.md'))
    ? sourceLang
    : undefined;
}

/**
 * Files and Markdown options of a VitePress site whose pages are in `dir` (its `srcDir`; the source
 * locale's in `dir/pages` when given): `<dir>/<locale>/<path>` outputs; the chrome beside `.vitepress` in
 * `root` (the site's folder, `dir` without a `srcDir`).
 */
function vitePressLayout(
  dir: string,
  pages: string | undefined,
  sourceLang: string,
  locales: readonly string[],
  root = dir,
) {
  const at = dir === '.' ? '' : `${dir}/`;
  const site = root === '.' ? '' : `${root}/`;
  return {
    files: [
      {
        include: `${at}${pages ? `${pages}/` : ''}**/*.md`,
        exclude: [...locales.map((locale) => `${at}${locale}/**`), ...(at === '' ? ['node_modules/**'] : [])],
        output: `${at}{locale}/{path}`,
      },
      // The chrome (nav, sidebar, footer, theme labels): `translate` writes its English texts, read from the
      // site's config, into this catalog, and the site's `locales` entries into `.vitepress/glossa/locales.json`.
      {
        include: `${site}.vitepress/glossa/${sourceLang}.json`,
        output: `${site}.vitepress/glossa/{locale}.json`,
      },
    ],
    markdown: { dialect: 'vitepress', frontmatter: VITEPRESS_FRONTMATTER },
  };
}

/**
 * The Docusaurus site at `cwd`: `@docusaurus/core` among its package.json dependencies and a
 * `docusaurus.config.*` beside it. Its content folders that exist, of `docs`, `blog` and `src/pages`
 * (the classic preset's defaults; a `path` option set in the config is not read).
 */
async function findDocusaurus(cwd: string): Promise<string[] | undefined> {
  const manifest = await readFile(join(cwd, 'package.json'), 'utf8').then(
    (text) => JSON.parse(text) as Record<string, Record<string, string> | undefined>,
    () => undefined,
  );
  const deps = { ...manifest?.dependencies, ...manifest?.devDependencies };
  if (!manifest || deps['@docusaurus/core'] === undefined) return undefined;
  if (!CONFIG_EXTENSIONS.some((ext) => existsSync(join(cwd, `docusaurus.config.${ext}`)))) return undefined;
  return Object.keys(DOCUSAURUS_CONTENT).filter((dir) => existsSync(join(cwd, dir)));
}

/** Where Docusaurus's i18n reads each content folder's translation, under `i18n/<locale>/`. */
const DOCUSAURUS_CONTENT: Readonly<Record<string, string>> = {
  docs: 'docusaurus-plugin-content-docs/current',
  blog: 'docusaurus-plugin-content-blog',
  'src/pages': 'docusaurus-plugin-content-pages',
};

/**
 * Files and Markdown options of a Docusaurus site with content folders `dirs`: each page to
 * `i18n/<locale>/<plugin folder>/<path>`, and the JSON translation files that `docusaurus write-translations`
 * writes for the source locale (`code.json`, `docusaurus-theme-classic/navbar.json`, …) to the same path
 * under each locale, read in Docusaurus's message syntax (`{label}` placeholders, apostrophes as text).
 */
function docusaurusLayout(dirs: readonly string[], sourceLang: string) {
  return {
    files: [
      ...dirs.map((dir) => ({
        include: `${dir}/**/*.{md,mdx}`,
        output: `i18n/{locale}/${DOCUSAURUS_CONTENT[dir]}/{path}`,
      })),
      { include: `i18n/${sourceLang}/**/*.json`, output: 'i18n/{locale}/{path}', syntax: 'docusaurus' },
    ],
    markdown: { dialect: 'docusaurus', frontmatter: ['title', 'description', 'sidebar_label'] },
  };
}

/** The Starlight site at `cwd`: `@astrojs/starlight` among its package.json dependencies and an `astro.config.*`. */
async function findStarlight(cwd: string): Promise<boolean> {
  const manifest = await readFile(join(cwd, 'package.json'), 'utf8').then(
    (text) => JSON.parse(text) as Record<string, Record<string, string> | undefined>,
    () => undefined,
  );
  const deps = { ...manifest?.dependencies, ...manifest?.devDependencies };
  if (!manifest || deps['@astrojs/starlight'] === undefined) return false;
  return CONFIG_EXTENSIONS.some((ext) => existsSync(join(cwd, `astro.config.${ext}`)));
}

/** Front-matter fields Starlight shows: each page's title and description, the splash page's hero. */
export const STARLIGHT_FRONTMATTER = [
  'title',
  'description',
  'sidebar.label',
  'hero.title',
  'hero.tagline',
  'hero.image.alt',
  'hero.actions.*.text',
];

/**
 * Files and Markdown options of a Starlight site: each page to `src/content/docs/<locale>/<path>` (Astro
 * serves `en-XA/` at `/en-xa/`: Starlight's key is the lower-cased tag), and the sidebar labels' catalog
 * (`starlight-chrome.ts`).
 */
function starlightLayout(sourceLang: string, locales: readonly string[]) {
  return {
    files: [
      {
        include: 'src/content/docs/**/*.{md,mdx}',
        exclude: locales.map((locale) => `src/content/docs/${locale}/**`),
        output: 'src/content/docs/{locale}/{path}',
      },
      { include: `src/glossa/${sourceLang}.json`, output: 'src/glossa/{locale}.json' },
    ],
    markdown: { dialect: 'starlight', frontmatter: STARLIGHT_FRONTMATTER },
  };
}

/** Whether the project at `cwd` has `name` installed (in its or a parent folder's `node_modules`). */
function resolvable(name: string, cwd: string): boolean {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * The `engines` section: pseudo and Apertium for every locale; where the environment holds a DeepL key or
 * an OpenAI-compatible service (`OPENAI_API_KEY`, `OPENAI_BASE_URL`), each real locale tries DeepL, then
 * the LLM, then Apertium (the server skips an engine that does not serve the pair), and the provider's
 * settings are written (base URL, model): never a key.
 */
export function enginesSection(
  locales: readonly string[],
  env: NodeJS.ProcessEnv,
): Record<string, string[] | Record<string, string>> {
  const deepl = Boolean(env.DEEPL_AUTH_KEY);
  const openai = Boolean(env.OPENAI_API_KEY || env.OPENAI_BASE_URL);
  const section: Record<string, string[] | Record<string, string>> = { default: ['pseudo', 'apertium'] };
  if (!deepl && !openai) return section;
  const list = [...(deepl ? ['deepl'] : []), ...(openai ? ['openai'] : []), 'apertium'];
  for (const locale of locales) if (!isPseudoLocale(locale)) section[locale] = list;
  if (openai) {
    section.openai = {
      ...(env.OPENAI_BASE_URL && { baseUrl: env.OPENAI_BASE_URL }),
      model: env.GLOSSA_OPENAI_MODEL || 'gpt-4o-mini',
    };
  }
  if (deepl && env.DEEPL_SERVER_URL) section.deepl = { serverUrl: env.DEEPL_SERVER_URL };
  return section;
}
