/** Absolute links in localized pages lead to the same locale's pages: real Vite builds, real @glossa/server. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@glossa/server';
import { build, createServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glossaVite } from '../src/index.js';

let dir: string;
let server: Awaited<ReturnType<typeof startServer>>;

const HOME = `<!doctype html>
<html lang="en">
<head><title>Home</title></head>
<body>
<nav><a href="/app/about.html">About</a> <a href="/app/blog/">Blog</a> <a href="/app/about#team">Team</a> <a href="/app/?q=1">Home</a></nav>
<p>Read <a href="/app/about.html?from=home">our story</a> or see <a href="https://example.com/app/about.html">the example</a>.</p>
<p><a href="/app/logo.svg">Logo</a> <a href="/app/gone.html">Gone</a> <a href="./about.html">Near</a> <a href="//cdn.example.com/app/about.html">Mirror</a> <a href="/about.html">Outside</a></p>
</body>
</html>
`;
const page = (title: string) =>
  `<!doctype html>\n<html lang="en">\n<head><title>${title}</title></head>\n<body><p><a href="/app/">Back home</a></p></body>\n</html>\n`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-vite-links-'));
  server = await startServer({
    dataDir: join(dir, 'server'),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  await mkdir(join(dir, 'site', 'blog'), { recursive: true });
  await writeFile(join(dir, 'site', 'index.html'), HOME);
  await writeFile(join(dir, 'site', 'about.html'), page('About'));
  await writeFile(join(dir, 'site', 'blog', 'index.html'), page('Blog'));
  const root = join(dir, 'site');
  await build({
    root,
    base: '/app/',
    configFile: false,
    logLevel: 'silent',
    build: {
      outDir: join(dir, 'dist'),
      emptyOutDir: true,
      rollupOptions: {
        input: [join(root, 'index.html'), join(root, 'about.html'), join(root, 'blog', 'index.html')],
      },
    },
    plugins: [
      glossaVite({
        locales: ['en-XA'],
        configFile: false,
        output: 'intl/{locale}/{path}',
        cache: { path: join(dir, 'cache.jsonl') },
        service: { url: server.url, apiKey: server.devKey },
      }),
    ],
  });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);

describe('glossaVite links', () => {
  it('points absolute links to localized pages at the locale’s pages (output layout and base honoured)', async () => {
    const localized = await readFile(join(dir, 'dist', 'intl', 'en-XA', 'index.html'), 'utf8');
    expect(hrefs(localized)).toEqual([
      '/app/intl/en-XA/about.html',
      '/app/intl/en-XA/blog/',
      '/app/intl/en-XA/about#team', // `about` is the page about.html
      '/app/intl/en-XA/?q=1',
      '/app/intl/en-XA/about.html?from=home', // inside a translated sentence
      'https://example.com/app/about.html', // external
      '/app/logo.svg', // not a page
      '/app/gone.html', // not a page of this build
      './about.html', // relative: already in the locale's folder
      '//cdn.example.com/app/about.html', // another host
      '/about.html', // outside the base
    ]);
    expect(localized).toMatch(/<p>\[.*<a href="\/app\/intl\/en-XA\/about.html\?from=home">.+<\/a>.*\]<\/p>/);
    const nested = await readFile(join(dir, 'dist', 'intl', 'en-XA', 'blog', 'index.html'), 'utf8');
    expect(hrefs(nested)).toEqual(['/app/intl/en-XA/']);
  });

  it('the dev server points them at its own /<locale>/ pages', async () => {
    const dev = await createServer({
      root: join(dir, 'site'),
      base: '/app/',
      configFile: false,
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1', ws: false },
      plugins: [
        glossaVite({
          locales: ['en-XA'],
          configFile: false,
          output: 'intl/{locale}/{path}',
          cache: { path: join(dir, 'cache.jsonl') },
          service: { url: server.url, apiKey: server.devKey },
        }),
      ],
    });
    await dev.listen();
    try {
      const origin = `http://127.0.0.1:${(dev.httpServer!.address() as AddressInfo).port}`;
      const html = await (await fetch(`${origin}/app/en-XA/`)).text();
      expect(hrefs(html).slice(0, 5)).toEqual([
        '/app/en-XA/about.html',
        '/app/en-XA/blog/',
        '/app/en-XA/about#team',
        '/app/en-XA/?q=1',
        '/app/en-XA/about.html?from=home',
      ]);
      expect(hrefs(html)).toContain('/app/gone.html'); // no such file under the root
      const about = await fetch(`${origin}${hrefs(html)[0]}`);
      expect(await about.text()).toContain('<html lang="en-XA">');
    } finally {
      await dev.close();
    }
  });

  it('leaves the source pages’ links as written', async () => {
    const source = await readFile(join(dir, 'dist', 'index.html'), 'utf8');
    expect(hrefs(source)).toEqual(hrefs(HOME));
  });
});
