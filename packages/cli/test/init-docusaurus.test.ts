/**
 * `glossa init` in a Docusaurus site writes the layout Docusaurus's i18n reads: pages into
 * `i18n/<locale>/docusaurus-plugin-content-*`, the JSON translation files of `i18n/en/` to `i18n/<locale>/`.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { initCommand } from '../src/commands/init.js';
import { project } from './helpers.js';

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

it('recognises a Docusaurus site (package.json and docusaurus.config.*) and writes its i18n layout', async () => {
  const dir = await site({
    'package.json': JSON.stringify({ dependencies: { '@docusaurus/core': '3.10.2' } }),
    'docusaurus.config.ts': 'export default {}\n',
    'docs/intro.md': '# Intro\n',
    'blog/2021-08-01-post.mdx': '# Post\n',
  });
  const out: string[] = [];
  expect(await initCommand({ io: io(out), cwd: dir, env: {} }, { json: true, to: 'es' })).toBe(0);
  expect(out[0]).toContain('Docusaurus site: docs, blog → i18n/<locale>/docusaurus-plugin-content-*/');
  expect(out[0]).toContain('docusaurus write-translations --locale en');
  const written = JSON.parse(await readFile(join(dir, 'glossa.config.json'), 'utf8'));
  expect(written.files).toEqual([
    { include: 'docs/**/*.{md,mdx}', output: 'i18n/{locale}/docusaurus-plugin-content-docs/current/{path}' },
    { include: 'blog/**/*.{md,mdx}', output: 'i18n/{locale}/docusaurus-plugin-content-blog/{path}' },
    { include: 'i18n/en/**/*.json', output: 'i18n/{locale}/{path}' },
  ]);
  expect(written.markdown.dialect).toBe('docusaurus');
});

it('a docusaurus.config.js without @docusaurus/core in package.json is not taken for a site', async () => {
  const dir = await site({
    'package.json': JSON.stringify({ dependencies: {} }),
    'docusaurus.config.js': 'module.exports = {}\n',
    'docs/intro.md': '# Intro\n',
  });
  const out: string[] = [];
  expect(await initCommand({ io: io(out), cwd: dir, env: {} }, { json: true, to: 'es' })).toBe(0);
  const written = JSON.parse(await readFile(join(dir, 'glossa.config.json'), 'utf8'));
  expect(written.files).toEqual(['docs/**/*.md']);
});
