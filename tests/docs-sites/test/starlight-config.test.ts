/**
 * How `glossa` reads a Starlight site's Astro config (through the site's own Vite, as Astro does), on the
 * starter site of `starlight.test.ts` after `glossa init --to es`: an `astro.config.ts` is read like the
 * `.mjs` (its sidebar labels reach the catalog `src/glossa/en.json`), and a config whose `sidebar` is not
 * wrapped in `glossaSidebar(…)` gets a warning naming the fix instead of silently English labels.
 */
import { execFile } from 'node:child_process';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyStarlightSite } from './starlight-site.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const bin = resolve(packageDir, '../../packages/cli/src/bin.ts');

let site: string;
let env: NodeJS.ProcessEnv;

function glossa(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [tsx, '--conditions', '@glossa/source', bin, ...args],
      { cwd: site, env, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  ({ site, env } = await copyStarlightSite('.tmp-starlight-config-'));
  const init = await glossa('init', '--to', 'es');
  expect(init.code, init.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  if (site) await rm(site, { recursive: true, force: true });
});

it('reads the sidebar labels of an astro.config.ts', async () => {
  await rename(join(site, 'astro.config.mjs'), join(site, 'astro.config.ts'));
  const status = await glossa('status');
  expect(status.stderr).not.toMatch(/warning: nav, sidebar/);
  const catalog = JSON.parse(await readFile(join(site, 'src/glossa/en.json'), 'utf8'));
  expect(Object.values(catalog.sidebar)).toEqual(['Guides', 'Example Guide', 'Reference']);
}, 60_000);

it('warns when the config has a sidebar that glossaSidebar does not wrap', async () => {
  const path = join(site, 'astro.config.ts');
  const config = await readFile(path, 'utf8');
  expect(config).toContain('sidebar: glossaSidebar(');
  await writeFile(path, config.replace('sidebar: glossaSidebar(', 'sidebar: ('));
  const status = await glossa('status');
  expect(status.stderr).toMatch(
    /warning: .*astro\.config\.ts has a `sidebar` that is not wrapped in glossaSidebar\(…\)/,
  );
}, 60_000);
