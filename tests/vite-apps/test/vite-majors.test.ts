/**
 * @glossa/vite with every Vite major a project uses: 5, 6 and 7 (Rollup) and 8 (Rolldown), each the real
 * package (devDependencies `vite5`, `vite6`, `vite7`: npm aliases; `vite`: 8). Per major: a component build
 * in en-XA, the locale's `import.meta.env.BASE_URL`, the shared chunk emitted once, and `vite preview`
 * serving `/en-XA/…` (route fallback to the locale's page, page-relative assets).
 */
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '@glossa/server';
import { glossaVite } from '@glossa/vite';
import type * as Vite from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const work = join(packageDir, '.tmp');
let server: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  await rm(work, { recursive: true, force: true });
  server = await startServer({
    dataDir: join(work, 'server'),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
});
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

const TIMEOUT = 120_000;
const majors = [
  { major: 5, pkg: 'vite5' },
  { major: 6, pkg: 'vite6' },
  { major: 7, pkg: 'vite7' },
  { major: 8, pkg: 'vite' },
] as const;

/** The app copied into its own folder, whose `node_modules/vite` is this major (the plugin builds each locale with it). */
async function appFor(pkg: string): Promise<{ root: string; vite: typeof Vite }> {
  const root = join(work, pkg);
  await cp(join(packageDir, 'fixtures', 'jsx-app'), root, { recursive: true });
  // A dependency (the test writes it: fixtures keep no node_modules).
  await mkdir(join(root, 'node_modules', 'tide-lib'), { recursive: true });
  await writeFile(
    join(root, 'node_modules', 'tide-lib', 'package.json'),
    '{ "name": "tide-lib", "version": "1.0.0", "type": "module", "main": "index.js" }\n',
  );
  await writeFile(
    join(root, 'node_modules', 'tide-lib', 'index.js'),
    'export const rounded = (value) => Math.round(value * 10) / 10;\n',
  );
  await symlink(join(packageDir, 'node_modules', pkg), join(root, 'node_modules', 'vite'), 'dir');
  const vite = (await import(
    join(packageDir, 'node_modules', pkg, 'dist', 'node', 'index.js')
  )) as typeof Vite;
  return { root, vite };
}

describe.each(majors)('Vite $major', ({ major, pkg }) => {
  let root: string;
  let vite: typeof Vite;
  const config = () => ({
    root,
    configFile: false as const,
    logLevel: 'warn' as const,
    build: { outDir: join(root, 'dist'), emptyOutDir: true },
    plugins: [
      glossaVite({
        locales: ['en-XA'],
        components: true,
        configFile: false,
        lock: false,
        cache: { path: join(root, '.glossa', 'cache.jsonl') },
        service: { url: server.url, apiKey: server.devKey },
      }),
    ],
  });

  it(
    'builds the app and its en-XA version; the locale build is the same Vite, its base is /en-XA/',
    async () => {
      ({ root, vite } = await appFor(pkg));
      expect(vite.version.split('.')[0]).toBe(String(major));
      await vite.build(config() as Vite.InlineConfig);
      const dist = join(root, 'dist');
      const page = await readFile(join(dist, 'en-XA', 'index.html'), 'utf8');
      expect(page).toContain('<html lang="en-XA">');
      const assets = await readdir(join(dist, 'assets'));
      const chunks = await Promise.all(
        assets
          .filter((f) => f.endsWith('.js'))
          .map(async (f) => [f, await readFile(join(dist, 'assets', f), 'utf8')]),
      );
      const withText = (text: string) => chunks.filter(([, code]) => code!.includes(text)).map(([f]) => f);
      // The app chunk, the lazy module and the dependencies' chunk the plugin splits off (the app sets no
      // chunking) are shared by every locale; en-XA adds its dictionary of the strings that differ.
      expect(chunks).toHaveLength(4);
      expect(withText('Math.round(')).toEqual([expect.stringMatching(/^vendor-/)]);
      const [english] = withText('Tide tables');
      expect(english).toBeDefined();
      const dictionary = chunks.find(([f]) => /^glossa-text\.en-XA-[\w-]{8}\.js$/.test(f!));
      expect(dictionary, 'the en-XA dictionary').toBeDefined();
      expect(dictionary![1]).toMatch(/Ŧ|ţ|ĥ/);
      expect(withText('toFixed(1)')).toHaveLength(1); // the shared chunk, emitted once
      expect(page).toContain(`/assets/${dictionary![0]}`);
      expect(page).toContain(`/assets/${english}`);
      const englishCode = chunks.find(([f]) => f === english)![1]!;
      expect(englishCode).not.toContain('/en-XA/');
      expect(dictionary![1]).toContain('"/en-XA/"'); // import.meta.env.BASE_URL in the locale
      expect(englishCode).toContain('./images/logo.svg');
    },
    TIMEOUT,
  );

  it(
    'vite preview serves /en-XA/ routes with the en-XA page and page-relative assets from the app',
    async () => {
      const preview = await vite.preview({
        ...(config() as Vite.InlineConfig),
        preview: { port: 0, host: '127.0.0.1' },
      });
      try {
        const url = preview.resolvedUrls!.local[0]!.replace(/\/$/, '');
        const get = (path: string, accept = 'text/html') => fetch(`${url}${path}`, { headers: { accept } });
        for (const path of ['/en-XA/', '/en-XA/harbours/north', '/en-XA/harbours/north/']) {
          const res = await get(path);
          expect(res.status, path).toBe(200);
          expect(await res.text(), path).toContain('<html lang="en-XA">');
        }
        const english = await get('/harbours/north');
        expect(await english.text()).toContain('<html lang="en">');
        // `./images/logo.svg` seen from `/en-XA/`: the app's public file.
        const logo = await get('/en-XA/images/logo.svg', '*/*');
        expect(logo.status).toBe(200);
        expect(await logo.text()).toContain('<svg');
        const missing = await get('/en-XA/assets/nothing-here.js', '*/*');
        expect(await missing.text()).not.toContain('<html lang="en-XA">');
      } finally {
        await preview.close();
      }
    },
    TIMEOUT,
  );

  it(
    'the dev server serves /en-XA/ routes with the en-XA page',
    async () => {
      const dev = await vite.createServer({
        ...(config() as Vite.InlineConfig),
        server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
      });
      try {
        await dev.listen();
        const url = dev.resolvedUrls!.local[0]!.replace(/\/$/, '');
        const res = await fetch(`${url}/en-XA/harbours/north`, { headers: { accept: 'text/html' } });
        expect(res.status).toBe(200);
        const html = await res.text();
        expect(html).toContain('<html lang="en-XA">');
        expect(html).toContain('/src/main.jsx');
      } finally {
        await dev.close();
      }
    },
    TIMEOUT,
  );
});
