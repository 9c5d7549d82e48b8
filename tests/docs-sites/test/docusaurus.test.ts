/**
 * Docusaurus's classic template site (create-docusaurus 3.10.2, `test/fixtures/docusaurus`) as a user localizes
 * it: the real `docusaurus write-translations --locale en` writes the theme's and plugins' JSON messages; the
 * real `glossa` CLI (child process, embedded server: Apertium for es, the pseudo engine for en-XA) runs
 * `init --to es,en-XA` and `translate`; the real `docusaurus build` builds es and en-XA with the site's own
 * config, whose link and anchor checkers throw on a broken link; every internal link and anchor of the built
 * HTML is resolved again by `links.ts`; the es site opens in Debian's Chromium, and a heading's anchor link
 * lands on its heading; so does an en-XA page.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../examples/vite-site/test/chromium.js';
import { checkLinks } from './links.js';
import { collectErrors, serveStatic } from './serve-static.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const bin = resolve(packageDir, '../../packages/cli/src/bin.ts');
const docusaurusBin = join(
  dirname(require.resolve('@docusaurus/core/package.json')),
  'bin',
  'docusaurus.mjs',
);
const LOCALES = ['es', 'en-XA'] as const;

/**
 * The site's es glossary: words Apertium's en→es dictionary does not have (it sends them back as they
 * came, which Glossa reports as failures); a site adds them to its glossary, as a user would.
 */
const GLOSSARY_ES = [
  ['Headings', 'Encabezados'],
  ['Admonitions', 'Advertencias'],
  ['Breadcrumbs', 'Migas de pan'],
  ['versioning', 'control de versiones'],
  ['Locale', 'Idioma'],
  ['info', 'información'],
  ['Docs', 'Documentación'],
  ['docs', 'documentos'],
  ['tagged', 'etiquetados'],
  ['sidebar', 'barra lateral'],
];

let site: string;
let env: NodeJS.ProcessEnv;
let browser: BrowserContext | undefined;
let server: { origin: string; close: () => Promise<void> } | undefined;

function run(command: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, command, { cwd, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const glossa = (...args: string[]) => run([tsx, '--conditions', '@glossa/source', bin, ...args], site);
const docusaurus = (...args: string[]) => run([docusaurusBin, ...args], site);

/** A JSON translation file's messages by key. */
async function messages(path: string): Promise<Record<string, string>> {
  const json: Record<string, { message: string }> = JSON.parse(await readFile(join(site, path), 'utf8'));
  return Object.fromEntries(Object.entries(json).map(([key, entry]) => [key, entry.message]));
}

/** The texts of the elements whose class list has `className`, tags stripped. */
function texts(html: string, className: string): string[] {
  const found = html.matchAll(new RegExp(`<a [^>]*class="[^"]*\\b${className}\\b[^"]*"[^>]*>(.*?)</a>`, 'g'));
  return [...found].map((m) => m[1]!.replace(/<[^>]*>/g, '').trim());
}

beforeAll(async () => {
  // Inside this package, so that the site resolves `@docusaurus/core` from its node_modules as a project would.
  site = await mkdtemp(join(packageDir, '.tmp-docusaurus-'));
  await cp(join(packageDir, 'test/fixtures/docusaurus'), site, { recursive: true });
  const { GLOSSA_SERVER_URL: _url, GLOSSA_API_KEY: _key, ...rest } = process.env;
  env = { ...rest, GLOSSA_DATA_DIR: join(site, '.server-data'), NO_COLOR: '1' };
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(site, { recursive: true, force: true });
});

describe.sequential('Docusaurus classic template (create-docusaurus 3.10.2) in es and en-XA', () => {
  it('write-translations, then glossa init and translate: every page and message, no failure', async () => {
    const written = await docusaurus('write-translations', '--locale', 'en');
    expect(written.code, written.stderr + written.stdout).toBe(0);
    const init = await glossa('init', '--to', 'es,en-XA');
    expect(init.code, init.stderr + init.stdout).toBe(0);
    expect(init.stdout).toContain(
      'Docusaurus site: docs, blog, src/pages → i18n/<locale>/docusaurus-plugin-content-*/',
    );
    const configPath = join(site, 'glossa.config.ts');
    const config = await readFile(configPath, 'utf8');
    expect(config).toContain("targetLocales: ['es', 'en-XA'],\n");
    await writeFile(join(site, 'glossary-es.tsv'), GLOSSARY_ES.map((row) => `${row.join('\t')}\n`).join(''));
    await writeFile(
      configPath,
      config.replace(
        "targetLocales: ['es', 'en-XA'],\n",
        "targetLocales: ['es', 'en-XA'],\n  glossaries: [{ file: 'glossary-es.tsv', targetLocales: ['es'] }],\n",
      ),
    );
    const translate = await glossa('translate', '--json');
    const report = JSON.parse(translate.stdout);
    expect(report.failures).toEqual([]);
    expect(report.qa).toEqual([]);
    expect(translate.code, translate.stderr).toBe(0);
    // Docusaurus's JSON messages in its own syntax: `'{label}'` is a placeholder between apostrophes.
    expect(report.catalogs).toContainEqual({
      file: 'i18n/en/code.json',
      syntax: 'docusaurus',
      detected: false,
    });
    const code = await messages('i18n/es/code.json');
    const english = await messages('i18n/en/code.json');
    const expand = 'theme.DocSidebarItem.expandCategoryAriaLabel';
    expect(english[expand]).toBe("Expand sidebar category '{label}'");
    expect(code[expand]).not.toBe(english[expand]);
    expect(code[expand]).toContain("'{label}'");
    // A warm rerun sends nothing and rewrites nothing.
    const again = await glossa('translate', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ requests: 0, translated: 0, written: [], failures: [] });
    for (const locale of LOCALES) {
      for (const page of ['docs/intro.mdx', 'docs/tutorial-basics/markdown-features.mdx'])
        expect(report.written).toContain(
          `i18n/${locale}/docusaurus-plugin-content-docs/current/${page.slice(5)}`,
        );
      expect(report.written).toContain(`i18n/${locale}/docusaurus-theme-classic/navbar.json`);
    }
  }, 300_000);

  it('docusaurus build builds es and en-XA; its broken link and anchor checkers throw and find nothing', async () => {
    const config = await readFile(join(site, 'docusaurus.config.js'), 'utf8');
    expect(config).toMatch(/^ {2}onBrokenLinks: 'throw',$/m);
    expect(config).toMatch(/^ {2}onBrokenAnchors: 'throw',$/m);
    // One command, the two locales one after the other (`build/es/`, `build/en-XA/`); not minified (the test
    // reads the HTML, not its size).
    const build = await docusaurus('build', '--locale', 'es', '--locale', 'en-XA', '--no-minify');
    expect(build.code, build.stderr + build.stdout).toBe(0);
    expect(build.stdout + build.stderr).not.toMatch(/\[WARNING\]|\[ERROR\]/);
    const links = await checkLinks(join(site, 'build'));
    expect(links.broken).toEqual([]);
    expect(links.pages).toBeGreaterThan(40);
    expect(links.fragments).toBeGreaterThan(100);
  }, 600_000);

  it('the es navbar and sidebar are Spanish in the built HTML', async () => {
    const html = await readFile(join(site, 'build/es/docs/intro/index.html'), 'utf8');
    expect(html).toContain('<html lang="es"');
    const navbar = await messages('i18n/es/docusaurus-theme-classic/navbar.json');
    const sidebar = await messages('i18n/es/docusaurus-plugin-content-docs/current.json');
    const tutorial = navbar['item.label.Tutorial']!;
    const basics = sidebar['sidebar.tutorialSidebar.category.Tutorial - Basics']!;
    expect(tutorial).not.toBe('Tutorial');
    expect(basics).not.toBe('Tutorial - Basics');
    expect(texts(html, 'navbar__item')).toContain(tutorial);
    const menu = texts(html, 'menu__link');
    expect(menu).toContain(basics);
    expect(menu).not.toContain('Tutorial - Basics');
    // The docs' own titles: the translated page's title, not the English one.
    expect(menu).not.toContain('Tutorial Intro');
    expect(html).toMatch(/<h1>(?!Tutorial Intro)[^<]+<\/h1>/);
    expect(
      (await readFile(join(site, 'build/en-XA/docs/intro/index.html'), 'utf8')).match(/<h1>([^<]*)</)?.[1],
    ).toMatch(/^\[Ţ/);
  });

  it('the built es site opens in Chromium; a heading anchor link lands on its heading; so does en-XA', async () => {
    server = await serveStatic(join(site, 'build'));
    const { origin } = server;
    browser = await launchChromium(join(site, '.chromium'));
    const page = await browser.newPage();
    const errors = collectErrors(page, origin);
    await page.goto(`${origin}/es/docs/intro`, { waitUntil: 'load' });
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    expect(await page.locator('h1').first().textContent()).not.toBe('Tutorial Intro');
    // The heading kept the English id ({#getting-started}); its text is Spanish.
    const heading = page.locator('h2#getting-started');
    expect(await heading.count()).toBe(1);
    expect(await heading.textContent()).not.toMatch(/Getting Started/);
    // The table of contents links to it; clicking the link scrolls to it (React's router, hydrated).
    const toc = page.locator('.table-of-contents a[href="#getting-started"]');
    await toc.first().click();
    await page.waitForURL(`${origin}/es/docs/intro#getting-started`);
    await expect
      .poll(() => heading.evaluate((element) => element.getBoundingClientRect().top))
      .toBeLessThan(200);
    // Another page's heading by its URL: the id Docusaurus's MDX comment gave it ({/* #my-custom-id */}).
    await page.goto(`${origin}/es/docs/tutorial-basics/markdown-features#my-custom-id`, {
      waitUntil: 'load',
    });
    const custom = page.locator('h3#my-custom-id');
    expect(await custom.textContent()).not.toMatch(/Heading Ids/);
    await expect
      .poll(() => custom.evaluate((element) => element.getBoundingClientRect().top))
      .toBeLessThan(200);
    // en-XA: two pseudo pages, their headings under the English ids, one reached from the table of contents.
    await page.goto(`${origin}/en-XA/docs/intro`, { waitUntil: 'load' });
    expect(await page.getAttribute('html', 'lang')).toBe('en-XA');
    expect(await page.locator('h1').first().textContent()).toMatch(/^\[Ţ/);
    await page.locator('.table-of-contents a[href="#getting-started"]').first().click();
    await page.waitForURL(`${origin}/en-XA/docs/intro#getting-started`);
    expect(await page.locator('h2#getting-started').textContent()).toMatch(/^\[/);
    await page.goto(`${origin}/en-XA/docs/tutorial-basics/markdown-features#my-custom-id`, {
      waitUntil: 'load',
    });
    expect(await page.locator('h3#my-custom-id').textContent()).toMatch(/^\[/);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
