/**
 * `components`: real Vite builds of a small JSX app against a real @glossa/server over loopback (the
 * pseudo engine for en-XA): per-locale output, the catalog and lock that keep a person's edit, the QA of
 * codes, cacheOnly, the result cache of warm builds, and the dev server's updates.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { startServer } from '@glossa/server';
import { build, createLogger, createServer, type InlineConfig, type Logger } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GlossaViteOptions, glossaVite, MissingTranslationsError } from '../src/index.js';

let dir: string;
let app: string;
let server: Awaited<ReturnType<typeof startServer>>;

const PAGE = `<!doctype html>
<html lang="en">
<head><title>Small shop</title></head>
<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`;
const MAIN = (extra = '') => `import { msg } from '@glossa/vite/runtime';
const h = (tag: string, props: Record<string, unknown> | null, ...children: unknown[]) =>
  \`<\${tag}\${Object.entries(props ?? {}).map(([k, v]) => \` \${k}="\${v}"\`).join('')}>\${children.join('')}</\${tag}>\`;
const name = 'Ana';
const items = msg\`\${3} items in the basket\`;
document.getElementById('root')!.innerHTML = (
  <main>
    <h1>Welcome to the shop</h1>
    <p>Hello <b>{name}</b>, take a look around.</p>
    <input placeholder="Search the shop" />
    <p>{items}</p>${extra}
  </main>
);
`;

function logger() {
  const messages: string[] = [];
  const base = createLogger('info', { allowClearScreen: false });
  const log: Logger = {
    ...base,
    info: (m) => {
      messages.push(m);
    },
    warn: (m) => {
      messages.push(`WARN ${m}`);
    },
    warnOnce: (m) => {
      messages.push(`WARN ${m}`);
    },
    error: (m) => {
      messages.push(`ERROR ${m}`);
    },
  };
  return { log, messages };
}

function config(options: Partial<GlossaViteOptions>, outDir: string, customLogger?: Logger): InlineConfig {
  return {
    root: app,
    configFile: false,
    logLevel: 'info',
    ...(customLogger && { customLogger }),
    oxc: { jsx: { runtime: 'classic', pragma: 'h' } },
    build: { outDir: join(dir, outDir), emptyOutDir: true },
    plugins: [
      glossaVite({
        locales: ['en-XA'],
        configFile: false,
        cache: { path: join(dir, 'cache.jsonl') },
        lock: join(dir, 'glossa.lock'),
        service: { url: server.url, apiKey: server.devKey },
        components: { catalogDir: 'catalogs' },
        ...options,
      }),
    ],
  };
}

const catalogFile = () => join(app, 'catalogs', 'en-XA.json');
const readCatalog = async () =>
  JSON.parse(await readFile(catalogFile(), 'utf8')) as Record<string, { source: string; target: string }>;
const keyOf = async (source: string) =>
  Object.entries(await readCatalog()).find(([, e]) => e.source === source)![0];
/** The text of every JavaScript file of a locale's build (its pages' chunks). */
async function chunksOf(outDir: string, page: string) {
  const html = await readFile(join(dir, outDir, page), 'utf8');
  const files = [...html.matchAll(/src="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  return (await Promise.all(files.map((f) => readFile(join(dir, outDir, f), 'utf8')))).join('\n');
}

/** What the page's scripts (classic and module, in order, run in a `vm` context) write into #root. */
async function render(outDir: string, page: string) {
  const html = await readFile(join(dir, outDir, page), 'utf8');
  const root = { innerHTML: '' };
  const context: Record<string, unknown> = {
    document: {
      getElementById: () => root,
      createElement: () => ({ relList: { supports: () => true } }),
      querySelectorAll: () => [],
    },
  };
  context.globalThis = context;
  for (const [, file] of html.matchAll(/<script[^>]* src="\/(assets\/[^"]+\.js)"/g)) {
    runInNewContext(await readFile(join(dir, outDir, file!), 'utf8'), context);
  }
  // A development build (NODE_ENV=test) adds React's __self/__source props: not the page's text.
  return root.innerHTML.replace(/ __(self|source)="[^"]*"/g, '');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-vite-components-'));
  server = await startServer({
    dataDir: join(dir, 'server'),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  app = join(dir, 'app');
  await mkdir(join(app, 'src'), { recursive: true });
  await writeFile(join(app, 'index.html'), PAGE);
  await writeFile(join(app, 'src', 'main.tsx'), MAIN());
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('components', () => {
  it('builds each locale with its text in the components, and records catalog and lock', async () => {
    const { log, messages } = logger();
    await build(config({}, 'dist', log));
    const page = await readFile(join(dir, 'dist', 'en-XA', 'index.html'), 'utf8');
    expect(page).toContain('<html lang="en-XA">');
    expect(page).toMatch(/<title>\[.+\]<\/title>/);
    // The page's scripts run in order (the locale's dictionary, then the app's chunk, shared by every locale).
    const html = await render('dist', 'en-XA/index.html');
    expect(html).toMatch(/<h1>\[Ŵé+ļçö+ɱé+ ţö+ ţĥé+ šĥö+þ\]<\/h1>/);
    expect(html).toMatch(/<input placeholder="\[.+\]">/);
    expect(html).toMatch(/<p>3 \[.+\]<\/p>/); // the tag's text, its expression kept
    expect(await render('dist', 'index.html')).toBe(
      '<main><h1>Welcome to the shop</h1><p>Hello <b>Ana</b>, take a look around.</p><input placeholder="Search the shop"></input><p>3 items in the basket</p></main>',
    );
    const scripts = (page: string) =>
      readFile(join(dir, 'dist', page), 'utf8').then((p) => p.match(/src="[^"]+"/g));
    expect((await scripts('en-XA/index.html'))?.slice(1)).toEqual(await scripts('index.html'));
    const catalog = await readCatalog();
    expect(Object.values(catalog).map((e) => e.source)).toEqual(
      expect.arrayContaining(['Welcome to the shop', 'Hello <g id="1"><x id="2"/></g>, take a look around.']),
    );
    const lock = JSON.parse(await readFile(join(dir, 'glossa.lock'), 'utf8'));
    expect(Object.keys(lock.entries['en-XA'])).toEqual(Object.keys(catalog).sort());
    expect(messages.join('\n')).toMatch(
      /1 component module\(s\), 4 text\(s\) × en-XA: .* 4 translated, 0 kept in en/,
    );
  });

  it('a warm build takes the locale builds from the result cache', async () => {
    const { log, messages } = logger();
    await build(config({}, 'dist-warm', log));
    expect(messages.join('\n')).toContain('1 locale build(s) unchanged (result cache)');
    // The units of unchanged modules come from the last build: nothing is parsed again.
    const units = JSON.parse(await readFile(join(dir, 'cache.vite-units.json'), 'utf8'));
    expect(Object.keys(units.entries)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^src\/main\.tsx\0/)]),
    );
    expect(await chunksOf('dist-warm', 'en-XA/index.html')).toBe(await chunksOf('dist', 'en-XA/index.html'));
  });

  it("keeps a person's edit of a translation in the catalog, and the build uses it", async () => {
    const key = await keyOf('Welcome to the shop');
    const catalog = await readCatalog();
    catalog[key]!.target = 'Bienvenue dans la boutique';
    await writeFile(catalogFile(), JSON.stringify(catalog, null, 2));
    const { log, messages } = logger();
    await build(config({}, 'dist-edit', log));
    expect(await chunksOf('dist-edit', 'en-XA/index.html')).toContain('Bienvenue dans la boutique');
    expect((await readCatalog())[key]!.target).toBe('Bienvenue dans la boutique');
    expect(messages.join('\n')).toMatch(/3 unchanged, 1 human edit\(s\), 0 from cache, 0 translated/);
  });

  it('keeps the source where an edit broke the codes, and warns with file, line and key', async () => {
    const key = await keyOf('Hello <g id="1"><x id="2"/></g>, take a look around.');
    const catalog = await readCatalog();
    catalog[key]!.target = 'Bonjour, regardez';
    await writeFile(catalogFile(), JSON.stringify(catalog, null, 2));
    const { log, messages } = logger();
    await build(config({}, 'dist-bad', log));
    const js = await chunksOf('dist-bad', 'en-XA/index.html');
    expect(js).not.toContain('Bonjour, regardez');
    expect(js).toContain(', take a look around.');
    expect(messages.join('\n')).toContain(
      `WARN glossa: src/main.tsx:9:8: en-XA ${key}: Inline codes changed: missing g#1, x#2 (kept in en)`,
    );
    expect((await readCatalog())[key]!.target).toBe('Bonjour, regardez'); // for its author to fix
  });

  it('cacheOnly fails on a new text with its file and line, and calls nothing', async () => {
    await writeFile(join(app, 'src', 'main.tsx'), MAIN('\n    <p>A brand new line</p>'));
    try {
      const thrown = await build(
        config({ cacheOnly: true, service: { url: 'http://127.0.0.1:9', apiKey: 'unused' } }, 'dist-ci'),
      ).catch((e: unknown) => e);
      const failure = (thrown as { errors?: unknown[] }).errors?.[0] ?? thrown;
      expect(failure).toBeInstanceOf(MissingTranslationsError);
      const missing = (failure as MissingTranslationsError).missing;
      expect(missing.map((m) => [m.locale, m.file, m.position?.line])).toEqual([
        ['en-XA', 'src/main.tsx', 12],
      ]);
      expect((failure as Error).message).toMatch(/1 translation\(s\) missing/);
    } finally {
      await writeFile(join(app, 'src', 'main.tsx'), MAIN());
    }
  });

  it('the dev server serves the components in devLocale and updates them when the catalog changes', async () => {
    const dev = await createServer({
      ...config({ devLocale: 'en-XA' }, 'unused'),
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1', ws: false },
    });
    try {
      await dev.listen();
      const first = await dev.transformRequest('/src/main.tsx');
      expect(first?.code).toContain('Bienvenue dans la boutique');
      expect(first?.code).toMatch(/placeholder: "\[.+\]"/);
      const key = await keyOf('Welcome to the shop');
      const catalog = await readCatalog();
      catalog[key]!.target = 'Willkommen im Laden';
      await writeFile(catalogFile(), JSON.stringify(catalog, null, 2));
      let code = '';
      for (let i = 0; i < 100 && !code.includes('Willkommen'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        code = (await dev.transformRequest('/src/main.tsx'))?.code ?? '';
      }
      expect(code).toContain('Willkommen im Laden');
    } finally {
      await dev.close();
    }
    expect(await readdir(join(app, 'catalogs'))).toEqual(['en-XA.json']);
  });

  it('doNotTranslate keeps its terms in every locale, the pseudo-locale included', async () => {
    const options = {
      doNotTranslate: ['shop'],
      lock: join(dir, 'dnt.lock'),
      components: { catalogDir: 'catalogs-dnt' },
    };
    await build(config(options, 'dist-dnt', logger().log));
    const html = await render('dist-dnt', 'en-XA/index.html');
    expect(html).toMatch(/<h1>\[Ŵé+ļçö+ɱé+ ţö+ ţĥé+ shop\]<\/h1>/);
    expect(html).toMatch(/<input placeholder="\[Šé+åå*ŕçĥ ţĥé+ shop\]">/);
  });
});
