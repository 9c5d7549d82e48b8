/**
 * Docusaurus's classic template site (create-docusaurus 3.10.2, `test/fixtures/docusaurus`) as a user localizes
 * it: the real `docusaurus write-translations --locale en` writes the theme's and plugins' JSON messages; the
 * real `glossa` CLI (child process, embedded server: Apertium for es, the pseudo engine for en-XA) runs
 * `init --to es,en-XA` and `translate`; the real `docusaurus build` builds es (only es: the two-locale webpack
 * build was most of the file's time; en-XA pages are written and checked here, built in `vitepress.test.ts`,
 * and Docusaurus's en-XA pseudo output is checked in packages/cli/test/init-docusaurus.test.ts) with the site's own
 * config, whose link and anchor checkers throw on a broken link; every internal link and anchor of the built
 * HTML is resolved again by `links.ts`; the es site opens in Debian's Chromium, and a heading's anchor link
 * lands on its heading.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../examples/vite-site/test/chromium.js';
import { checkLinks } from './links.js';

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
let server: Server | undefined;

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

/** Serves `root` as a static host does Docusaurus's output: `/es/docs/intro` → `es/docs/intro/index.html`. */
function serveStatic(root: string): Promise<string> {
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg',
    '.ico': 'image/x-icon',
    '.json': 'application/json',
    '.xml': 'application/xml',
  };
  server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url!, 'http://site').pathname);
    const file = [path, `${path}/index.html`, `${path}.html`]
      .map((candidate) => join(root, ...candidate.split('/')))
      .find(
        (candidate) => candidate.startsWith(root) && existsSync(candidate) && statSync(candidate).isFile(),
      );
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    readFile(file).then((body) => {
      response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    });
  });
  return new Promise((done) =>
    server!.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`)),
  );
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
  if (server) await new Promise((done) => server!.close(done));
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

  it('docusaurus build builds es; its broken link and anchor checkers throw and find nothing', async () => {
    const config = await readFile(join(site, 'docusaurus.config.js'), 'utf8');
    expect(config).toMatch(/^ {2}onBrokenLinks: 'throw',$/m);
    expect(config).toMatch(/^ {2}onBrokenAnchors: 'throw',$/m);
    // es only (one webpack Server + Client compile); not minified (the test reads the HTML, not its size).
    // Docusaurus builds a single `--locale` at the site's root (`build/`, base URL `/`), not under `/es/`.
    const build = await docusaurus('build', '--locale', 'es', '--no-minify');
    expect(build.code, build.stderr + build.stdout).toBe(0);
    expect(build.stdout + build.stderr).not.toMatch(/\[WARNING\]|\[ERROR\]/);
    const links = await checkLinks(join(site, 'build'));
    expect(links.broken).toEqual([]);
    expect(links.pages).toBeGreaterThan(20);
    expect(links.fragments).toBeGreaterThan(50);
  }, 600_000);

  it('the es navbar and sidebar are Spanish in the built HTML', async () => {
    const html = await readFile(join(site, 'build/docs/intro/index.html'), 'utf8');
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
    // en-XA is translated (not built here): its page title is pseudo.
    const pseudo = await readFile(
      join(site, 'i18n/en-XA/docusaurus-plugin-content-docs/current/intro.mdx'),
      'utf8',
    );
    expect(pseudo.match(/^# (.*)$/m)?.[1]).toMatch(/^\\?\[Ţ/);
  });

  it('the built es site opens in Chromium; a heading anchor link lands on its heading', async () => {
    const origin = await serveStatic(join(site, 'build'));
    browser = await launchChromium(join(site, '.chromium'));
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('response', (response) => {
      if (response.url().startsWith(origin) && response.status() >= 400)
        errors.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${origin}/docs/intro`, { waitUntil: 'load' });
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    expect(await page.locator('h1').first().textContent()).not.toBe('Tutorial Intro');
    // The heading kept the English id ({#getting-started}); its text is Spanish.
    const heading = page.locator('h2#getting-started');
    expect(await heading.count()).toBe(1);
    expect(await heading.textContent()).not.toMatch(/Getting Started/);
    // The table of contents links to it; clicking the link scrolls to it (React's router, hydrated).
    const toc = page.locator('.table-of-contents a[href="#getting-started"]');
    await toc.first().click();
    await page.waitForURL(`${origin}/docs/intro#getting-started`);
    await expect
      .poll(() => heading.evaluate((element) => element.getBoundingClientRect().top))
      .toBeLessThan(200);
    // Another page's heading by its URL: the id Docusaurus's MDX comment gave it ({/* #my-custom-id */}).
    await page.goto(`${origin}/docs/tutorial-basics/markdown-features#my-custom-id`, {
      waitUntil: 'load',
    });
    const custom = page.locator('h3#my-custom-id');
    expect(await custom.textContent()).not.toMatch(/Heading Ids/);
    await expect
      .poll(() => custom.evaluate((element) => element.getBoundingClientRect().top))
      .toBeLessThan(200);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
