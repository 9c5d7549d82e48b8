/**
 * The packages as users get them: packed with `pnpm pack`, installed with npm into fresh projects outside the
 * workspace, and used the way their readmes say. A real `glossa-server` (from `@glossa/server-full`'s tarball)
 * is the service of the scenarios that use a service URL; pages are checked in real Chromium.
 * Installed sizes are printed (and kept in docs/benchmarks.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../examples/vite-site/test/chromium.js';
import { serveStatic } from '../../../examples/vite-site/test/static-server.js';
import { buildAndPack, type Installed, installProject, megabytes, packageManager, run } from './install.js';

const FIXTURES = join(import.meta.dirname, '../fixtures');
// The Vite the workspace is tested with (pnpm-lock.yaml), exact: a newer release resolved at install time
// can name a package the registry here does not have (vite 8.4.0's optional `napi-windows-process-start-time`:
// Yarn 1 fails on it, npm and pnpm skip it).
const VITE = '8.3.8';
const KEY = 'packed-install-test-key-0123456789abcdefghij';
const work = mkdtempSync(join(tmpdir(), 'glossa-packed-'));
const sizes: Record<string, Installed> = {};
let tarballs: Map<string, string>;
let server: ChildProcess | undefined;
let serviceUrl = '';

/** Environment of a command run in a fresh project: the service of the server scenario, or none. */
function env(service: boolean): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, GLOSSA_DATA_DIR: join(work, 'embedded-data') };
  delete base.GLOSSA_SERVER_URL;
  delete base.GLOSSA_API_KEY;
  return service ? { ...base, GLOSSA_SERVER_URL: serviceUrl, GLOSSA_API_KEY: KEY } : base;
}

async function withBrowser<T>(use: (browser: BrowserContext) => Promise<T>): Promise<T> {
  const browser = await launchChromium(mkdtempSync(join(work, 'chromium-')));
  try {
    return await use(browser);
  } finally {
    await browser.close();
  }
}

beforeAll(async () => {
  tarballs = buildAndPack(join(work, 'tarballs'));
  sizes.server = installProject(join(work, 'server'), tarballs, ['@glossa/server-full']);
  server = spawn(
    'npx',
    [
      'glossa-server',
      '--data-dir',
      join(work, 'server-data'),
      '--port',
      '0',
      '--free-port',
      '0',
      '--log-level',
      'silent',
    ],
    // Its own process group: `npx` runs the server as a child, which a signal to `npx` alone leaves running.
    { cwd: sizes.server.dir, env: { ...process.env, GLOSSA_API_KEY: KEY }, detached: true },
  );
  serviceUrl = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    server?.stderr?.on('data', (chunk) => {
      stderr += chunk;
      const match = /paid plan at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) resolve(match[1] as string);
    });
    server?.on('close', (code) => reject(new Error(`glossa-server exited ${code}: ${stderr}`)));
  });
}, 1_800_000);

afterAll(() => {
  try {
    if (server?.pid !== undefined) process.kill(-server.pid, 'SIGTERM');
  } catch {
    // the group has already exited
  }
  const rows = Object.entries(sizes).map(
    ([name, { bytes, packages, nativeBuilds }]) =>
      `${name}: ${megabytes(bytes)} MB, ${packages} packages, native builds: ${nativeBuilds.join(', ') || 'none'}`,
  );
  console.log(`installed sizes (npm, fresh projects):\n${rows.join('\n')}`);
  rmSync(work, { recursive: true, force: true });
});

describe('packed packages installed with npm', () => {
  it('npx glossa-server (@glossa/server-full) answers a curl translation with every feature', () => {
    const translated = run('curl', [
      '-s',
      `${serviceUrl}/v2/translate`,
      '-H',
      `Authorization: Service-Auth-Key ${KEY}`,
      '-d',
      'text=Save your changes.',
      '-d',
      'target_lang=en-XA',
    ]);
    expect(JSON.parse(translated)).toEqual({
      translations: [{ detected_source_language: 'EN', text: '[Šåṽéé ýýööûûŕ çĥååñĝééš.]' }],
    });
    const resources = JSON.parse(
      run('curl', [
        '-s',
        `${serviceUrl}/v3/languages/resources`,
        '-H',
        `Authorization: Service-Auth-Key ${KEY}`,
      ]),
    );
    expect(resources.map((resource: { name: string }) => resource.name)).toHaveLength(6);
  });

  it('a multi-page Vite site builds with @glossa/vite and a service URL; its pages work in Chromium', async () => {
    sizes.vite = installProject(join(work, 'vite-base'), tarballs, [], { vite: VITE });
    const site = join(work, 'vite-site');
    cpSync(join(FIXTURES, 'site'), site, { recursive: true });
    sizes['vite + @glossa/vite'] = installProject(site, tarballs, ['@glossa/vite'], { vite: VITE });

    // Without a service URL and without @glossa/server the build says what to install or set.
    expect(() => run('npx', ['vite', 'build'], { cwd: site, env: env(false) })).toThrow(
      /GLOSSA_SERVER_URL is not set and the embedded default, @glossa\/server, is not installed/,
    );
    run('npx', ['vite', 'build'], { cwd: site, env: env(true) });
    const { url, server: files } = await serveStatic(join(site, 'dist'));
    try {
      await withBrowser(async (browser) => {
        for (const [path, lang, heading] of [
          ['/es/', 'es', 'La Panadería de Esquina'],
          ['/es/about.html', 'es', 'Aproximadamente nos'],
          ['/en-XA/', 'en-XA', '[Ţĥé Çööŕñééŕ Ɓååķééŕýý]'],
        ] as const) {
          const page = await browser.newPage();
          const errors: string[] = [];
          page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
          page.on('pageerror', (error) => errors.push(error.message));
          await page.goto(url + path);
          expect(await page.getAttribute('html', 'lang')).toBe(lang);
          expect(await page.textContent('h1')).toBe(heading);
          if (path.endsWith('/')) {
            await page.click('#greet');
            expect(await page.textContent('#greeting')).toBe(`lang=${lang}`);
          }
          expect(errors.join('\n')).toBe('');
          await page.close();
        }
      });
    } finally {
      files.close();
    }
  }, 900_000);

  it.each(['pnpm', 'yarn'] as const)(
    'the Vite site installs with %s from the tarballs (overrides of every @glossa package) and builds',
    (name) => {
      const site = join(work, `vite-site-${name}`);
      cpSync(join(FIXTURES, 'site'), site, { recursive: true });
      const command = packageManager(name, join(work, 'tools'));
      installProject(site, tarballs, ['@glossa/vite'], { vite: VITE }, { name, command });
      run(process.execPath, [join(site, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
        cwd: site,
        env: env(true),
      });
      const es = readFileSync(join(site, 'dist', 'es', 'index.html'), 'utf8');
      expect(es).toContain('<html lang="es">');
      expect(es).toContain('La Panadería de Esquina');
      expect(readFileSync(join(site, 'dist', 'en-XA', 'index.html'), 'utf8')).toContain(
        '<html lang="en-XA">',
      );
    },
    600_000,
  );

  it('a Vite + React app shows its i18next catalogs translated by the plugin, in Chromium', async () => {
    const app = join(work, 'react-app');
    cpSync(join(FIXTURES, 'react-i18next'), app, { recursive: true });
    sizes['react app'] = installProject(app, tarballs, ['@glossa/vite'], {
      vite: VITE,
      '@vitejs/plugin-react': '^6.3.0',
      react: '^19.3.1',
      'react-dom': '^19.3.1',
      i18next: '^26.7.2',
    });
    run('npx', ['vite', 'build'], { cwd: app, env: env(true) });
    const { url, server: files } = await serveStatic(join(app, 'dist'));
    try {
      await withBrowser(async (browser) => {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(`${url}/es/`);
        await page.waitForSelector('body[data-ready="true"]');
        expect(await page.textContent('h1')).toBe('El jardín verde');
        expect(await page.textContent('#apples')).toBe('Tienes una manzana');
        await page.click('#buy');
        expect(await page.textContent('#apples')).toBe('Tienes 2 manzanas');
        expect(errors.join('\n')).toBe('');
      });
    } finally {
      files.close();
    }
  }, 900_000);

  it('npx glossa translate works out of the box on a docs folder (embedded server); a second run sends nothing', () => {
    const project = join(work, 'cli');
    cpSync(join(FIXTURES, 'docs'), join(project, 'docs'), { recursive: true });
    sizes['@glossa/cli'] = installProject(project, tarballs, ['@glossa/cli']);
    const translate = () =>
      run('npx', ['glossa', 'translate', 'docs', '--to', 'es,en-XA', '--out', 'out'], {
        cwd: project,
        env: env(false),
      });
    expect(translate()).toMatch(/^requests:\s+[1-9]/m);
    expect(readFileSync(join(project, 'out/es/index.md'), 'utf8')).toMatch(/^# Empezando\n/);
    expect(readFileSync(join(project, 'out/en-XA/guide/usage.md'), 'utf8')).toContain('setup --lang es');
    expect(translate()).toMatch(/^requests:\s+0$/m);
  }, 900_000);

  it('@glossa/i18next is the backend of i18next in a plain Node script', () => {
    sizes.i18next = installProject(join(work, 'i18next-base'), tarballs, [], { i18next: '^26.7.2' });
    const project = join(work, 'node-i18next');
    cpSync(join(FIXTURES, 'node-i18next'), project, { recursive: true });
    sizes['i18next + @glossa/i18next'] = installProject(project, tarballs, ['@glossa/i18next'], {
      i18next: '^26.7.2',
    });
    const output = run('node', ['app.mjs'], { cwd: project, env: env(true) });
    expect(JSON.parse(output.trim().split('\n').at(-1) as string)).toEqual({
      title: '[Ţĥéé ĝŕééééñ ĝååŕðééñ]',
      apples: '[Ýööûû ĥåṽéé 5 ååþþļééš]',
    });
  }, 900_000);

  it('remark, rehype and xliff adapters install without the server', () => {
    sizes.unified = installProject(join(work, 'unified-base'), tarballs, [], { unified: '^11.0.5' });
    for (const name of ['@glossa/remark', '@glossa/rehype']) {
      sizes[`unified + ${name}`] = installProject(join(work, name.slice(8)), tarballs, [name], {
        unified: '^11.0.5',
      });
    }
    sizes['@glossa/xliff'] = installProject(join(work, 'xliff'), tarballs, ['@glossa/xliff']);
    const used = run(
      'node',
      [
        '--input-type=module',
        '-e',
        "const m = await import('@glossa/xliff'); console.log(Object.keys(m).length > 0)",
      ],
      { cwd: join(work, 'xliff') },
    );
    expect(used.trim()).toBe('true');
  }, 900_000);

  it('each adapter adds at most 25 MB and no native build on top of its peers; the CLI with the spine stays under 120 MB', () => {
    const added = (scenario: string, base: string) =>
      (sizes[scenario]?.bytes ?? Number.NaN) - (sizes[base]?.bytes ?? Number.NaN);
    expect(megabytes(added('vite + @glossa/vite', 'vite'))).toBeLessThanOrEqual(25);
    expect(megabytes(added('unified + @glossa/remark', 'unified'))).toBeLessThanOrEqual(25);
    expect(megabytes(added('unified + @glossa/rehype', 'unified'))).toBeLessThanOrEqual(25);
    expect(megabytes(added('i18next + @glossa/i18next', 'i18next'))).toBeLessThanOrEqual(25);
    expect(megabytes(sizes['@glossa/xliff']?.bytes ?? Number.NaN)).toBeLessThanOrEqual(25);
    for (const scenario of [
      'vite + @glossa/vite',
      'unified + @glossa/remark',
      'unified + @glossa/rehype',
      'i18next + @glossa/i18next',
      '@glossa/xliff',
    ]) {
      expect(sizes[scenario]?.nativeBuilds, scenario).toEqual([]);
    }
    expect(megabytes(sizes['@glossa/cli']?.bytes ?? Number.NaN)).toBeLessThanOrEqual(120);
  });
});
