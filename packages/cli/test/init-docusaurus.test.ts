/**
 * `glossa init` in a Docusaurus site writes the layout Docusaurus's i18n reads: pages into
 * `i18n/<locale>/docusaurus-plugin-content-*`, the JSON translation files of `i18n/en/` to `i18n/<locale>/`.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createPseudoTranslator, type Translator } from '@glossa/core';
import { afterEach, expect, it } from 'vitest';
import { initCommand } from '../src/commands/init.js';
import { translateCommand } from '../src/commands/translate.js';
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
    { include: 'i18n/en/**/*.json', output: 'i18n/{locale}/{path}', syntax: 'docusaurus' },
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

it("translates write-translations' JSON in Docusaurus's syntax: '{label}' stays a placeholder, | plural forms stay apart, descriptions stay (in-process pseudo translator instead of a server)", async () => {
  const entry = (message: string) => ({ message, description: `The ${message} note` });
  const dir = await site({
    'package.json': JSON.stringify({ dependencies: { '@docusaurus/core': '3.10.2' } }),
    'docusaurus.config.js': 'export default {}\n',
    'docs/intro.md': '# Intro\n\n![A diagram](./img/a.png)\n',
    'docs/img/a.png': 'not really a PNG',
    'i18n/en/code.json': JSON.stringify({
      'theme.DocSidebarItem.expandCategoryAriaLabel': entry("Expand sidebar category '{label}'"),
      'theme.blog.post.plurals': entry('One post|{count} posts'),
    }),
  });
  expect(await initCommand({ io: io([]), cwd: dir, env: {} }, { json: true, to: 'en-XA' })).toBe(0);
  let sent: string[] = [];
  const pseudo = createPseudoTranslator();
  const translator: Translator = {
    translateText: (texts, options) => {
      sent.push(...texts);
      return pseudo.translateText(texts, options);
    },
  };
  const run = async () => {
    sent = [];
    const out: string[] = [];
    const err: string[] = [];
    const runIo = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), isTTY: false };
    const code = await translateCommand({ io: runIo, cwd: dir, env: {}, translator }, [], { json: true });
    expect(code, `${out.join('\n')}\n${err.join('\n')}`).toBe(0);
    return { result: JSON.parse(out.join('\n')), err: err.join('\n') };
  };
  const first = await run();
  expect(first.err).toContain('glossa: i18n/en/code.json: docusaurus messages');
  // The image beside the page is copied too; it is not one of the project's files (2 here).
  expect(first.result.written).toContain('i18n/en-XA/docusaurus-plugin-content-docs/current/img/a.png');
  expect(first.result.written).toHaveLength(3);
  expect(first.result.unchangedFiles).toBe(0);
  expect(sent.filter((t) => !t.includes('Intro') && !t.includes('diagram'))).toEqual([
    'Expand sidebar category \'<x id="1"/>\'',
    'One post',
    '<x id="1"/> posts',
  ]);
  const code = JSON.parse(await readFile(join(dir, 'i18n/en-XA/code.json'), 'utf8'));
  const expand = code['theme.DocSidebarItem.expandCategoryAriaLabel'];
  expect(expand.message).toMatch(/^\[.*'\{label\}'.*\]$/);
  expect(expand.description).toBe("The Expand sidebar category '{label}' note");
  const plurals = code['theme.blog.post.plurals'].message.split('|');
  expect(plurals).toHaveLength(2);
  expect(plurals[0]).not.toBe('One post');
  expect(plurals[1]).toContain('{count}');
  expect(code['theme.blog.post.plurals'].description).toBe('The One post|{count} posts note');
  // The outputs are read back in the same syntax: nothing to send again.
  const again = await run();
  expect(sent).toEqual([]);
  expect(again.result).toMatchObject({ written: [], unchangedFiles: 2 });
});

it('reports a {word} placeholder that a translation adds to a Docusaurus message (Docusaurus would show it as written) (in-process translator instead of a server)', async () => {
  const dir = await site({
    'package.json': JSON.stringify({ dependencies: { '@docusaurus/core': '3.10.2' } }),
    'docusaurus.config.js': 'export default {}\n',
    'i18n/en/code.json': JSON.stringify({
      'theme.blog.post.readingTime': { message: '{readingTime} min read' },
      'theme.common.skipToMainContent': { message: 'Skip to main content' },
    }),
  });
  expect(await initCommand({ io: io([]), cwd: dir, env: {} }, { json: true, to: 'es' })).toBe(0);
  // The engine keeps the code and adds a `{minutes}` of its own to the first message only.
  const translator: Translator = {
    translateText: async (texts) =>
      texts.map((text) => ({
        text: text.includes('min read') ? text.replace('min read', '{minutes} min de lectura') : `ES ${text}`,
        detected_source_language: 'EN',
      })),
  };
  const out: string[] = [];
  const err: string[] = [];
  const runIo = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), isTTY: false };
  const code = await translateCommand({ io: runIo, cwd: dir, env: {}, translator }, [], { json: true });
  const result = JSON.parse(out.join('\n'));
  expect(code, err.join('\n')).toBe(1);
  // Already caught by QA's extra_placeholder check (critical, so a failure): this test keeps it so.
  expect(result.failures).toEqual([
    {
      locale: 'es',
      key: 'i18n/en/code.json#theme.blog.post.readingTime.message',
      file: 'i18n/en/code.json',
      reason: 'QA critical: extra_placeholder: The placeholder {minutes} is not in the source.',
    },
  ]);
  const es = JSON.parse(await readFile(join(dir, 'i18n/es/code.json'), 'utf8'));
  expect(es['theme.common.skipToMainContent'].message).toBe('ES Skip to main content');
  // The failed message is not written with the added placeholder.
  expect(es['theme.blog.post.readingTime'].message).not.toContain('{minutes}');
});
