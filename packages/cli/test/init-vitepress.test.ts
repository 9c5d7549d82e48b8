/**
 * `glossa init` in a VitePress site writes the layout VitePress's i18n expects, and `translate` follows it
 * (in process, core's pseudo translator instead of a server).
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createPseudoTranslator, loadConfig } from '@glossa/core';
import { afterEach, expect, it } from 'vitest';
import { initCommand } from '../src/commands/init.js';
import { translateCommand } from '../src/commands/translate.js';
import { project } from './helpers.js';

const HOME = `---
layout: home

hero:
  name: VitePress
  text: Vite & Vue powered static site generator
  tagline: Markdown to beautiful docs in minutes
  actions:
    - theme: brand
      text: What is VitePress?
      link: /guide/what-is-vitepress
    - theme: alt
      text: Quickstart
      link: /guide/getting-started

features:
  - title: Focus on your content
    details: Effortlessly create beautiful documentation sites with just markdown.
  - title: Enjoy the Vite DX
    details: Instant server start, lightning fast hot updates.
---
`;

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function site(files: Record<string, string>) {
  const dir = await project(files);
  dirs.push(dir);
  return dir;
}

const io = (out: string[]) => ({ out: (t: string) => out.push(t), err: () => {}, isTTY: false });

it('recognises a VitePress site in docs/ and translates its pages and home page into docs/<locale>/ (in-process pseudo translator instead of a server)', async () => {
  const dir = await site({
    'package.json': JSON.stringify({ devDependencies: { vitepress: '^1.6.0' } }),
    'docs/.vitepress/config.mts': 'export default {}\n',
    'docs/.vitepress/theme/notes.md': '# Not a page\n',
    'docs/index.md': HOME,
    'docs/guide/getting-started.md':
      '---\ntitle: Getting Started\n---\n\n# Getting Started\n\nInstall it first.\n',
    'README.md': '# Not part of the site\n',
  });
  const out: string[] = [];
  expect(await initCommand({ io: io(out), cwd: dir, env: {} }, { json: true, to: 'en-XA' })).toBe(0);
  expect(out[0]).toContain('VitePress site in docs/: pages from docs/**/*.md, output in docs/<locale>/');
  const written = JSON.parse(await readFile(join(dir, 'glossa.config.json'), 'utf8'));
  expect(written.files).toEqual([
    { include: 'docs/**/*.md', exclude: ['docs/en-XA/**'], output: 'docs/{locale}/{path}' },
    { include: 'docs/.vitepress/glossa/en.json', output: 'docs/.vitepress/glossa/{locale}.json' },
  ]);
  expect(written.markdown.dialect).toBe('vitepress');
  expect(written.markdown.frontmatter).toEqual(
    expect.arrayContaining([
      'hero.text',
      'hero.tagline',
      'hero.actions.*.text',
      'features.*.title',
      'features.*.details',
    ]),
  );
  const report: string[] = [];
  const code = await translateCommand(
    { io: io(report), cwd: dir, env: {}, translator: createPseudoTranslator() },
    [],
    { json: true },
  );
  expect(code, report.join('\n')).toBe(0);
  const pages = (written: string[]) => written.filter((path) => path.endsWith('.md')).sort();
  expect(pages(JSON.parse(report.join('\n')).written)).toEqual([
    'docs/en-XA/guide/getting-started.md',
    'docs/en-XA/index.md',
  ]);
  const home = await readFile(join(dir, 'docs/en-XA/index.md'), 'utf8');
  expect(home).toContain('  name: VitePress\n'); // the product's name stays
  expect(home).toContain('  tagline: "[Ṁåŕķðööŵñ ţöö ƀééååûûţîƒûûļ ðööçš îîñ ɱîîñûûţééš]"');
  expect(home).toContain('      text: "[Ŵĥååţ îîš ṼîîţééÞŕéééšš?]"');
  expect(home).toMatch(/- title: "\[Ƒ/);
  expect(home).toMatch(/ {4}details: "\[É/);
  expect(home).toContain('link: /guide/getting-started');
  expect(home).not.toMatch(/Focus on your content|Quickstart|Instant server start/);
  // A second run: nothing left to translate, nothing rewritten; the outputs are not read as sources.
  const again: string[] = [];
  await translateCommand({ io: io(again), cwd: dir, env: {}, translator: createPseudoTranslator() }, [], {
    json: true,
  });
  expect(JSON.parse(again.join('\n'))).toMatchObject({ written: [], translated: 0 });
});

it('a site whose .vitepress is at the root writes <locale>/ at the root; without vitepress the plain layout stays', async () => {
  const dir = await site({
    'package.json': JSON.stringify({ dependencies: { vitepress: '1.6.3' } }),
    '.vitepress/config.js': 'export default {}\n',
    'index.md': '# Home\n',
  });
  expect(await initCommand({ io: io([]), cwd: dir, env: {} }, { json: true, to: 'es' })).toBe(0);
  const config = await loadConfig({ cwd: dir, env: {} });
  expect(config.files[0]).toMatchObject({ include: ['**/*.md'], exclude: ['es/**', 'node_modules/**'] });
  expect(config.files[0]!.output).toBe(join(dir, '{locale}/{path}'));
  const plain = await site({
    'package.json': JSON.stringify({ devDependencies: { vite: '7' } }),
    'docs/.vitepress/config.ts': '',
  });
  expect(await initCommand({ io: io([]), cwd: plain, env: {} }, { json: true })).toBe(0);
  expect(JSON.parse(await readFile(join(plain, 'glossa.config.json'), 'utf8'))).toMatchObject({
    files: ['docs/**/*.md'],
    out: 'i18n',
  });
});

it("VitePress's own layout: .vitepress/config/index.ts, English pages in docs/en/ (served at / by a rewrite) → docs/<locale>/", async () => {
  const dir = await site({
    'package.json': JSON.stringify({ devDependencies: { vitepress: '1.6.4' } }),
    'docs/.vitepress/config/index.ts': 'export default {}\n',
    'docs/en/index.md': HOME,
    'docs/en/guide/routing.md': '# Routing\n',
  });
  const out: string[] = [];
  expect(await initCommand({ io: io(out), cwd: dir, env: {} }, { json: true, to: 'es' })).toBe(0);
  expect(out[0]).toContain('VitePress site in docs/: pages from docs/en/**/*.md, output in docs/<locale>/');
  const config = await loadConfig({ cwd: dir, env: {} });
  expect(config.files[0]).toMatchObject({ include: ['docs/en/**/*.md'] });
  expect(config.files[0]!.output).toBe(join(dir, 'docs/{locale}/{path}'));
  const report: string[] = [];
  await translateCommand({ io: io(report), cwd: dir, env: {}, translator: createPseudoTranslator() }, [], {
    json: true,
  });
  const written: string[] = JSON.parse(report.join('\n')).written;
  expect(written.filter((path) => path.endsWith('.md')).sort()).toEqual([
    'docs/es/guide/routing.md',
    'docs/es/index.md',
  ]);
});

it("a config's srcDir (docs/src): pages from docs/src/**/*.md → docs/src/<locale>/, the chrome beside docs/.vitepress", async () => {
  const dir = await site({
    'package.json': JSON.stringify({ devDependencies: { vitepress: '1.6.4' } }),
    'docs/.vitepress/config.mts': "export default {\n  srcDir: './src',\n  title: 'Site',\n}\n",
    'docs/src/index.md': HOME,
    'docs/src/guide/routing.md': '# Routing\n',
    'docs/notes.md': '# Not a page of the site\n',
  });
  const out: string[] = [];
  expect(await initCommand({ io: io(out), cwd: dir, env: {} }, { json: true, to: 'es' })).toBe(0);
  expect(out[0]).toContain(
    'VitePress site in docs/: pages from docs/src/**/*.md, output in docs/src/<locale>/; nav, sidebar and theme labels in docs/.vitepress/glossa/locales.json',
  );
  const written = JSON.parse(await readFile(join(dir, 'glossa.config.json'), 'utf8'));
  expect(written.files).toEqual([
    { include: 'docs/src/**/*.md', exclude: ['docs/src/es/**'], output: 'docs/src/{locale}/{path}' },
    { include: 'docs/.vitepress/glossa/en.json', output: 'docs/.vitepress/glossa/{locale}.json' },
  ]);
  const report: string[] = [];
  await translateCommand({ io: io(report), cwd: dir, env: {}, translator: createPseudoTranslator() }, [], {
    json: true,
  });
  const pages: string[] = JSON.parse(report.join('\n')).written;
  expect(pages.filter((path) => path.endsWith('.md')).sort()).toEqual([
    'docs/src/es/guide/routing.md',
    'docs/src/es/index.md',
  ]);
});
