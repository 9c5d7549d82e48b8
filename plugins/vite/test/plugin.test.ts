/** glossaVite in real Vite builds and a real dev server, against a real @glossa/server over loopback. */
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@glossa/server';
import { build, createServer, type InlineConfig } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogManifest,
  type GlossaViteOptions,
  glossaVite,
  MissingTranslationsError,
} from '../src/index.js';

let dir: string;
let server: Awaited<ReturnType<typeof startServer>>;

const PAGE = `<!doctype html>
<html lang="en">
<head><title>Opening hours</title><link rel="stylesheet" href="/style.css"></head>
<body><p>We are open <strong>every day</strong>.</p></body>
</html>
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-vite-'));
  server = await startServer({
    dataDir: join(dir, 'server'),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  await mkdir(join(dir, 'site', 'locales', 'en'), { recursive: true });
  await writeFile(join(dir, 'site', 'index.html'), PAGE);
  await writeFile(join(dir, 'site', 'style.css'), 'p { color: green; }\n');
  await writeFile(join(dir, 'site', 'locales', 'en', 'app.json'), '{"hello": "Hello {{name}}"}\n');
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

function config(options: Partial<GlossaViteOptions>, outDir = 'dist'): InlineConfig {
  return {
    root: join(dir, 'site'),
    configFile: false,
    logLevel: 'silent',
    build: { outDir: join(dir, outDir), emptyOutDir: true },
    plugins: [
      glossaVite({
        locales: ['en-XA'],
        configFile: false,
        cache: { path: join(dir, 'cache.jsonl') },
        service: { url: server.url, apiKey: server.devKey },
        catalogs: { source: 'locales/en' },
        ...options,
      }),
    ],
  };
}

describe('glossaVite build', () => {
  it('cacheOnly with an empty cache fails with the list of missing translations and calls nothing', async () => {
    // A service that does not exist: a call would fail with a connection error, not this one.
    const thrown = await build(
      config({ cacheOnly: true, service: { url: 'http://127.0.0.1:9', apiKey: 'unused' } }),
    ).catch((e: unknown) => e);
    expect((thrown as Error).message).toContain('index.html#p-1'); // what the developer sees
    // Vite 8 (Rolldown) wraps plugin errors: `errors` holds the plugin's own error.
    const failure = (thrown as { errors?: unknown[] }).errors?.[0];
    expect(failure).toBeInstanceOf(MissingTranslationsError);
    const missing = (failure as MissingTranslationsError).missing.map((m) => `${m.locale} ${m.key}`);
    expect(missing).toEqual(['en-XA index.html#title-1', 'en-XA index.html#p-1']);
    expect((failure as Error).message).toMatch(/2 translation\(s\) missing[\s\S]*en-XA {2}index.html#p-1/);
  });

  it('emits the localized page, catalogs and manifest; then cacheOnly builds the same output', async () => {
    await build(config({}));
    const page = await readFile(join(dir, 'dist', 'en-XA', 'index.html'), 'utf8');
    expect(page).toContain('<html lang="en-XA">');
    expect(page).toMatch(/<p>\[.+<strong>.+<\/strong>.*\]<\/p>/);
    expect(page).toContain('<link rel="alternate" hreflang="en" href="/">');
    expect(page).toContain('<link rel="alternate" hreflang="en-XA" href="/en-XA/">');
    const manifest = JSON.parse(await readFile(join(dir, 'dist', 'locales', 'manifest.json'), 'utf8'));
    expect(manifest.locales['en-XA'].app).toMatch(/^en-XA\/app\.[0-9a-f]{10}\.json$/);
    const catalog = JSON.parse(
      await readFile(join(dir, 'dist', 'locales', manifest.locales['en-XA'].app), 'utf8'),
    );
    expect(catalog.hello).toMatch(/^\[.*\{\{name\}\}\]$/);

    await build(
      config({ cacheOnly: true, service: { url: 'http://127.0.0.1:9', apiKey: 'unused' } }, 'dist2'),
    );
    expect(await readFile(join(dir, 'dist2', 'en-XA', 'index.html'), 'utf8')).toBe(page);
  });

  it('keeps a <title> that is the project name (a slug, or package.json `name`) and translates the rest', async () => {
    const build1 = async (title: string, pkg?: string) => {
      await writeFile(join(dir, 'site', 'index.html'), PAGE.replace('Opening hours', title));
      if (pkg) await writeFile(join(dir, 'site', 'package.json'), JSON.stringify({ name: pkg }));
      try {
        await build(config({}, 'dist-title'));
        return await readFile(join(dir, 'dist-title', 'en-XA', 'index.html'), 'utf8');
      } finally {
        await writeFile(join(dir, 'site', 'index.html'), PAGE);
        await rm(join(dir, 'site', 'package.json'), { force: true });
      }
    };
    const slug = await build1('tsr-app');
    expect(slug).toContain('<title>tsr-app</title>');
    expect(slug).toMatch(/<p>\[.+<strong>.+<\/strong>.*\]<\/p>/); // the body is still translated
    expect(await build1('Shop', 'Shop')).toContain('<title>Shop</title>');
    expect(await build1('Shop')).toMatch(/<title>\[.+\]<\/title>/);
  });

  it('reads the catalogs in the syntax the options name, not the one detected', async () => {
    await mkdir(join(dir, 'site', 'locales', 'pipes'), { recursive: true });
    const value = 'no apples | one apple | {count} apples';
    await writeFile(
      join(dir, 'site', 'locales', 'pipes', 'app.json'),
      `${JSON.stringify({ apples: value })}\n`,
    );
    const catalogOf = async (outDir: string) => {
      const root = join(dir, outDir, 'locales');
      const manifest = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8'));
      return JSON.parse(await readFile(join(root, manifest.locales['en-XA'].app), 'utf8'));
    };
    // Detected as vue-i18n (choices split by ` | `): each choice pseudo-localized on its own.
    await build(config({ catalogs: { source: 'locales/pipes' } }, 'dist-auto'));
    expect((await catalogOf('dist-auto')).apples.split(' | ')).toHaveLength(3);
    expect((await catalogOf('dist-auto')).apples).toMatch(
      /^\[[^\]]+\] \| \[[^\]]+\] \| \[\{count\} [^\]]+\]$/,
    );
    // Named ICU: the pipes are text, one message.
    await build(config({ catalogs: { source: 'locales/pipes', syntax: 'icu' } }, 'dist-icu'));
    expect((await catalogOf('dist-icu')).apples).toMatch(/^\[[^\]]+ \| [^\]]+ \| \{count\} [^\]]+\]$/);
  });

  it('sets dir="rtl" for a right-to-left locale, absolute hreflang URLs with siteUrl, a custom output', async () => {
    await build(
      config(
        { locales: ['ar-XB'], siteUrl: 'https://bakery.example', output: 'intl/{locale}/{path}' },
        'dist3',
      ),
    );
    const page = await readFile(join(dir, 'dist3', 'intl', 'ar-XB', 'index.html'), 'utf8');
    expect(page).toMatch(/<html dir="rtl" lang="ar-XB">/);
    expect(page).toContain(
      '<link rel="alternate" hreflang="ar-XB" href="https://bakery.example/intl/ar-XB/">',
    );
    expect(page).toContain('<link rel="alternate" hreflang="x-default" href="https://bakery.example/">');
    const source = await readFile(join(dir, 'dist3', 'index.html'), 'utf8');
    expect(source).toContain('<html lang="en">');
    expect(source).toContain('hreflang="ar-XB" href="https://bakery.example/intl/ar-XB/"');
  });

  it('reuses a page from the result cache only while its source and translations are unchanged', async () => {
    const site = join(dir, 'site-results');
    await mkdir(join(site, 'locales', 'en'), { recursive: true });
    await writeFile(join(site, 'index.html'), PAGE);
    await writeFile(join(site, 'locales', 'en', 'app.json'), '{"hello": "Hello {{name}}"}\n');
    const cachePath = join(dir, 'results', 'cache.jsonl');
    const at = (out: string, cacheOnly = true) => ({
      ...config({
        cache: { path: cachePath },
        ...(cacheOnly && { cacheOnly, service: { url: 'http://127.0.0.1:9', apiKey: 'unused' } }),
      }),
      root: site,
      build: { outDir: join(dir, out), emptyOutDir: true },
    });
    const pageIn = (out: string) => readFile(join(dir, out, 'en-XA', 'index.html'), 'utf8');
    await build(at('r1', false));
    const first = await pageIn('r1');

    // The entry is what a warm build emits: a marker put in its output shows up.
    const resultsPath = join(dir, 'results', 'cache.vite-results.json');
    const entries = async () => Object.values(JSON.parse(await readFile(resultsPath, 'utf8')).entries);
    const results = JSON.parse(await readFile(resultsPath, 'utf8'));
    const stored = Object.values(results.entries) as { outputs: Record<string, string> }[];
    expect(stored).toHaveLength(2); // the page and the catalog
    for (const entry of stored) {
      if (!entry.outputs['en-XA']!.includes('<html')) continue;
      entry.outputs['en-XA'] = entry.outputs['en-XA']!.replace('</body>', '<!-- from the entry --></body>');
    }
    await writeFile(resultsPath, JSON.stringify(results));
    await build(at('r2'));
    expect(await pageIn('r2')).toBe(first.replace('</body>', '<!-- from the entry --></body>'));

    // A changed translation in the cache: the page is made again from it.
    const lines = (await readFile(cachePath, 'utf8')).trimEnd().split('\n');
    const edited = lines.map((line) => {
      const [key, value] = JSON.parse(line) as [string, string];
      return JSON.stringify([
        key,
        value.includes('<') && value.startsWith('[') ? `[EDITED ${value.slice(1)}` : value,
      ]);
    });
    await writeFile(cachePath, `${edited.join('\n')}\n`);
    await build(at('r3'));
    const rebuilt = await pageIn('r3');
    expect(rebuilt).not.toContain('from the entry');
    expect(rebuilt).toMatch(/<p>\[EDITED .+<strong>/);

    // A changed source: not reused (cacheOnly lists the new text as missing), then translated.
    await writeFile(join(site, 'index.html'), PAGE.replace('every day', 'every morning'));
    const thrown = await build(at('r4')).catch((e: unknown) => e);
    expect((thrown as Error).message).toContain('en-XA  index.html#p-1');
    await build(at('r5', false));
    expect(await pageIn('r5')).toMatch(/<p>\[.*<strong>[^<]*ɱööŕñîîñĝ/);
    expect(await entries()).toHaveLength(2); // the old page's entry is pruned
  });

  it('a warm build whose results are current neither reads the translation cache nor starts a service', async () => {
    const site = join(dir, 'site-trusted');
    await mkdir(join(site, 'locales', 'en'), { recursive: true });
    await writeFile(join(site, 'index.html'), PAGE);
    await writeFile(join(site, 'locales', 'en', 'app.json'), '{"hello": "Hello {{name}}"}\n');
    const cachePath = join(dir, 'trusted', 'cache.jsonl');
    const at = (out: string, cacheOnly = true) => ({
      ...config({
        cache: { path: cachePath },
        ...(cacheOnly && { cacheOnly, service: { url: 'http://127.0.0.1:9', apiKey: 'unused' } }),
      }),
      root: site,
      build: { outDir: join(dir, out), emptyOutDir: true },
    });
    const pageIn = (out: string) => readFile(join(dir, out, 'en-XA', 'index.html'), 'utf8');
    await build(at('t1', false));
    // The cache file as a later build finds it: last written an hour ago (not in the same mtime tick).
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    await utimes(cachePath, hourAgo, hourAgo);
    await build(at('t2')); // checks every entry against the cache, then records the cache file's identity
    expect(await pageIn('t2')).toBe(await pageIn('t1'));

    // Same size, same inode and mtime, but not a cache any more: a build that read it would find no
    // translation and fail (cacheOnly). This one takes every output from the result file.
    const garbage = (await readFile(cachePath)).map((byte) => (byte === 0x0a ? byte : 0x23)); // '#'
    await writeFile(cachePath, garbage);
    await utimes(cachePath, hourAgo, hourAgo);
    await build(at('t3'));
    expect(await pageIn('t3')).toBe(await pageIn('t1'));
    // Nor is a service started: the embedded server could not start in a data folder that is a file.
    const notAFolder = join(dir, 'trusted', 'not-a-folder');
    await writeFile(notAFolder, '');
    const embedded = config({ cache: { path: cachePath }, service: { dataDir: notAFolder } });
    await build({ ...at('t3b', false), plugins: embedded.plugins ?? [] });
    expect(await pageIn('t3b')).toBe(await pageIn('t1'));

    // Any change to the file (here its mtime): the entries are checked, and the broken cache shows.
    await writeFile(cachePath, garbage);
    const thrown = await build(at('t4')).catch((e: unknown) => e);
    expect((thrown as Error).message).toContain('en-XA  index.html#p-1');
  });

  it("reads glossa.config.json from a folder above Vite's root when the options do not say", async () => {
    const project = join(dir, 'project');
    await mkdir(join(project, 'web'), { recursive: true });
    await writeFile(join(project, 'web', 'index.html'), PAGE);
    const cachePath = join(project, '.glossa', 'cache.jsonl');
    await writeFile(
      join(project, 'glossa.config.json'),
      JSON.stringify({
        targetLocales: ['en-XA'],
        cache: { path: cachePath },
        service: { url: server.url, apiKey: server.devKey },
      }),
    );
    await build({
      root: join(project, 'web'),
      configFile: false,
      logLevel: 'silent',
      build: { outDir: join(dir, 'dist-config'), emptyOutDir: true },
      plugins: [glossaVite()],
    });
    expect(await readFile(join(dir, 'dist-config', 'en-XA', 'index.html'), 'utf8')).toContain(
      '<html lang="en-XA">',
    );
    expect((await readFile(cachePath, 'utf8')).split('\n').length).toBeGreaterThan(2); // the config's cache
  });

  it('a cache file that cannot be read fails the build with the cache error', async () => {
    const folder = join(dir, 'cache-is-a-folder.jsonl');
    await mkdir(folder, { recursive: true });
    const thrown = await build(config({ cache: { path: folder } }, 'dist-bad-cache')).catch(
      (e: unknown) => e,
    );
    const failure = (thrown as { errors?: unknown[] }).errors?.[0] as Error | undefined;
    expect(failure?.name).toBe('CacheStoreError');
    expect(failure?.message).toMatch(/Cannot read the cache file .*cache-is-a-folder\.jsonl: EISDIR/);
  });

  it('refuses a relative base (asset URLs would break in the locale folders) and an output without {locale}', async () => {
    await expect(build({ ...config({}), base: './' })).rejects.toThrow(/`base` must be absolute/);
    expect(() => glossaVite({ output: 'out/{path}' })).toThrow(/must contain \{locale\} and \{path\}/);
  });
});

describe('glossaVite dev server', () => {
  it('serves localized pages under /<locale>/ and the catalogs, and picks up a change to the page', async () => {
    const dev = await createServer({ ...config({}), server: { port: 0, host: '127.0.0.1', ws: false } });
    await dev.listen();
    try {
      const base = `http://127.0.0.1:${(dev.httpServer!.address() as AddressInfo).port}`;
      const first = await (await fetch(`${base}/en-XA/`)).text();
      expect(first).toContain('<html lang="en-XA">');
      expect(first).toContain('/@vite/client'); // Vite's own transforms ran first
      expect(first).toMatch(/<title>\[.+\]<\/title>/);
      const css = await fetch(`${base}/en-XA/style.css`);
      expect(css.status).toBe(200);

      const manifest = (await (await fetch(`${base}/locales/manifest.json`)).json()) as CatalogManifest;
      const catalog = (await (await fetch(`${base}/locales/${manifest.locales['en-XA']!.app}`)).json()) as {
        hello: string;
      };
      expect(catalog.hello).toMatch(/^\[.*\{\{name\}\}\]$/);

      await writeFile(join(dir, 'site', 'index.html'), PAGE.replace('Opening hours', 'Closing hours'));
      const second = await (await fetch(`${base}/en-XA/index.html`)).text();
      expect(second).toMatch(/<title>\[Çļöö?šîîñĝ.*\]<\/title>/);
      expect((await fetch(`${base}/`)).status).toBe(200); // the source page is Vite's as usual
    } finally {
      await dev.close();
      await writeFile(join(dir, 'site', 'index.html'), PAGE);
    }
  });
});
