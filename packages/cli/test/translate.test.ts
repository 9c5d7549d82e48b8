/**
 * `glossa translate`, `estimate`, `status`, `usage` and `init` as real child processes against a real
 * @glossa/server peer (SQLite in a temporary folder, Apertium for es).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, glossa, project } from './helpers.js';

let server: GlossaServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startServer({
    dataDir: await project({}),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  env = childEnv({ GLOSSA_SERVER_URL: server.url, GLOSSA_API_KEY: server.devKey });
});
afterAll(() => server.close());

const HTML = `<!doctype html>
<html lang="en">
  <head><title>Welcome</title></head>
  <body>
    <h1>Welcome to the shop</h1>
    <p>Open the <a href="/cart.html">cart</a> to pay.</p>
    <img src="/logo.png" alt="The red house">
  </body>
</html>
`;

const XLIFF = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
  <file id="app">
    <unit id="greeting">
      <segment><source>Good morning</source></segment>
    </unit>
    <unit id="save">
      <segment><source>Save the <pc id="1">file</pc> now</source></segment>
    </unit>
  </file>
</xliff>
`;

describe('glossa translate', () => {
  it('translates HTML and XLIFF through their adapters into <out>/<locale>/<path>', async () => {
    const cwd = await project({ 'site/index.html': HTML, 'strings/app.xlf': XLIFF });
    const run = await glossa(['translate', 'site', 'strings/app.xlf', '--to', 'es', '--out', 'out'], {
      cwd,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^failures: +0$/m);
    const html = await readFile(join(cwd, 'out/es/index.html'), 'utf8');
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<a href="/cart.html">');
    expect(html).toContain('src="/logo.png"');
    expect(html).not.toContain('Welcome to the shop');
    expect(html).toMatch(/<title>Bienvenido<\/title>/);
    const xlf = await readFile(join(cwd, 'out/es/app.xlf'), 'utf8');
    expect(xlf).toContain('trgLang="es"');
    expect(xlf).toMatch(/<target>Buenos días<\/target>/);
    expect(xlf).toMatch(/<target>[^<]*<pc id="1">[^<]+<\/pc>[^<]*<\/target>/);
  }, 120_000);

  it('estimate predicts exactly the requests and billed characters translate then uses', async () => {
    const cwd = await project({
      'docs/a.md': '# Prices\n\nThe price of the house is *high*.\n\n- Red door\n- Blue window\n',
    });
    const estimate = await glossa(['estimate', 'docs', '--to', 'es,en-XA', '--json'], { cwd, env });
    expect(estimate.code, estimate.stderr).toBe(0);
    const planned = JSON.parse(estimate.stdout);
    const before = JSON.parse((await glossa(['usage', '--json'], { cwd, env })).stdout).character_count;
    const run = await glossa(['translate', 'docs', '--to', 'es,en-XA', '--json'], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(planned).toMatchObject({ files: 1, segments: 8, cacheHits: 0, requests: 2 });
    expect(report.requests).toBe(planned.requests);
    expect(report.billedCharacters).toBe(planned.billedCharacters);
    // Retries are not planned; their bound: the paragraph with *high* (inline codes) in each locale, once more.
    expect(planned.retriesAtMost).toEqual({ texts: 2, requests: 2, billedCharacters: 62 });
    expect(report.retried).toBeLessThanOrEqual(planned.retriesAtMost.texts);
    const after = JSON.parse((await glossa(['usage', '--json'], { cwd, env })).stdout).character_count;
    expect(after - before).toBe(report.billedCharacters);
    const again = JSON.parse(
      (await glossa(['estimate', 'docs', '--to', 'es,en-XA', '--json'], { cwd, env })).stdout,
    );
    expect(again).toMatchObject({ requests: 0, billedCharacters: 0, unchanged: 8 });
    expect(again.retriesAtMost).toEqual({ texts: 0, requests: 0, billedCharacters: 0 });
  }, 120_000);

  it('keeps a person’s edit, retranslates a changed source, and status says which is which', async () => {
    const cwd = await project({ 'docs/a.md': '# The house\n\nThe door is red.\n\nThe window is blue.\n' });
    const args = ['docs', '--to', 'es', '--out', 'out'];
    expect((await glossa(['translate', ...args], { cwd, env })).code).toBe(0);
    const out = join(cwd, 'out/es/a.md');
    const first = await readFile(out, 'utf8');
    const firstLines = first.split('\n');
    firstLines[2] = 'La puerta está pintada de rojo.'; // a reviewer's edit
    await writeFile(out, firstLines.join('\n'));
    await writeFile(join(cwd, 'docs/a.md'), '# The house\n\nThe door is red.\n\nThe window is green.\n');

    const status = await glossa(['status', ...args, '--json'], { cwd, env });
    expect(JSON.parse(status.stdout).locales.es).toEqual({
      current: 1,
      missing: 0,
      stale: 1,
      'human-edit': 1,
      untracked: 0,
    });
    expect(JSON.parse(status.stdout).findings).toEqual([
      { locale: 'es', key: 'docs/a.md#paragraph-2', where: 'docs/a.md:5:1', state: 'stale' },
    ]);
    const check = await glossa(['check', ...args], { cwd, env });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('docs/a.md:5:1 [es]: stale');

    const run = await glossa(['translate', ...args, '--json'], { cwd, env });
    expect(JSON.parse(run.stdout)).toMatchObject({ translated: 1, humanEdits: 1, unchanged: 1, requests: 1 });
    const second = (await readFile(out, 'utf8')).split('\n');
    expect(second[2]).toBe('La puerta está pintada de rojo.');
    expect(second[4]).not.toBe(firstLines[4]);
    expect(second[4]).toMatch(/verde/);
    expect((await glossa(['check', ...args], { cwd, env })).code).toBe(0);
  }, 180_000);

  it('lists segments the service could not translate with file:line and exits 1', async () => {
    const cwd = await project({ 'docs/a.md': 'Intro.\n\n## Setup\n\nRun it.\n' });
    const run = await glossa(['translate', 'docs', '--to', 'ja'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^failures: +3$/m);
    for (const at of ['1:1', '3:4', '5:1']) {
      expect(run.stdout).toMatch(new RegExp(`^  docs/a\\.md:${at} \\[ja\\]: .*not supported`, 'm'));
    }
    expect(run.stderr).toMatch(/glossa: ja: request 1\/1 \(3 texts, 0 characters\) failed/);
  }, 120_000);

  it('init writes glossa.config.ts, and translate and status follow it without arguments', async () => {
    const cwd = await project({ 'content/guide/start.md': '# Start\n\nRead this first.\n' });
    const init = await glossa(['init', '--to', 'es', '--files', 'content/**/*.md', '--out', 'i18n'], {
      cwd,
      env,
    });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(
      'wrote glossa.config.ts: en → es, files content/**/*.md, output in i18n/<locale>/',
    );
    expect(await readFile(join(cwd, 'glossa.config.ts'), 'utf8')).toContain("targetLocales: ['es']");
    const run = await glossa(['translate'], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(cwd, 'i18n/es/guide/start.md'), 'utf8')).toMatch(
      /^# Inicio\n\nLeído esto primero\.\n$/,
    );
    expect((await glossa(['status'], { cwd, env })).stdout).toBe(
      'es: 2 current, 0 human edits, 0 stale, 0 missing\n',
    );
    const again = await glossa(['init'], { cwd, env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('glossa.config.ts already exists here');
  }, 120_000);
  it('check fails on a target that lost its link (QA), and --fail-on critical lets it pass', async () => {
    const cwd = await project({ 'docs/a.md': 'Read the [guide](guide.md) first.\n' });
    const args = ['docs', '--to', 'es', '--out', 'out'];
    expect((await glossa(['translate', ...args], { cwd, env })).code).toBe(0);
    expect((await glossa(['check', ...args], { cwd, env })).code).toBe(0);
    const out = join(cwd, 'out/es/a.md');
    const translated = await readFile(out, 'utf8');
    expect(translated).toMatch(/\[[^\]]+\]\(guide\.md\)/);
    await writeFile(out, translated.replace(/\[([^\]]+)\]\(guide\.md\)/, '$1'));
    const check = await glossa(['check', ...args, '--json'], { cwd, env });
    expect(check.code).toBe(1);
    const result = JSON.parse(check.stdout);
    expect(result).toMatchObject({ ok: false, failOn: 'major', missing: [] });
    expect(result.qa).toContainEqual(
      expect.objectContaining({
        locale: 'es',
        where: 'docs/a.md:1:1',
        check: 'missing_tag',
        severity: 'major',
      }),
    );
    const lenient = await glossa(['check', ...args, '--fail-on', 'critical'], { cwd, env });
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(
      /^ok: 0 missing or stale, 0 QA issue\(s\) at critical or worse, [1-9]\d* below$/m,
    );
  }, 120_000);
  it('follows the config’s files: a single file, and outputs inside the input folder are never inputs', async () => {
    const cwd = await project({
      'glossa.config.json': JSON.stringify({
        targetLocales: ['en-XA'],
        files: ['site/**/*.html', { include: 'notes/todo.md', output: 'notes/todo.{locale}.md' }],
        out: 'site',
      }),
      'site/index.html': '<p>Home page</p>\n',
      'site/blog/post.html': '<p>First post</p>\n',
      'notes/todo.md': 'Buy milk.\n',
    });
    const first = await glossa(['translate', '--json'], { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).written.sort()).toEqual([
      'notes/todo.en-XA.md',
      'site/en-XA/blog/post.html',
      'site/en-XA/index.html',
    ]);
    const second = await glossa(['translate', '--json'], { cwd, env });
    expect(JSON.parse(second.stdout)).toMatchObject({ segments: 3, unchanged: 3, requests: 0 });
    expect(await readFile(join(cwd, 'notes/todo.en-XA.md'), 'utf8')).toMatch(/^\\\[Ɓû+ý+ ɱî+ļķ\.\\\]\n$/);
  }, 120_000);
  it('rebuilds an output whose source gained a paragraph, from the cache plus one request', async () => {
    const cwd = await project({ 'docs/a.md': 'The door is red.\n\nThe window is blue.\n' });
    const args = ['docs', '--to', 'es', '--out', 'out'];
    expect((await glossa(['translate', ...args], { cwd, env })).code).toBe(0);
    await writeFile(join(cwd, 'docs/a.md'), 'The house is old.\n\nThe door is red.\n\nThe window is blue.\n');
    const run = await glossa(['translate', ...args, '--json'], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "glossa: out/es/a.md no longer matches its source's structure: translating it again",
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ segments: 3, cacheHits: 2, translated: 1, requests: 1 });
    const out = (await readFile(join(cwd, 'out/es/a.md'), 'utf8')).split('\n\n');
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/casa/);
    expect(out[2]).toMatch(/ventana/);
  }, 120_000);
  it('translates i18next catalogs by key, with placeholders kept and the target locale’s plural forms', async () => {
    const catalog = {
      greeting: 'Hello {{name}}',
      items_one: '{{count}} item',
      items_other: '{{count}} items',
      nav: { home: 'Home page' },
    };
    const cwd = await project({
      'glossa.config.json': JSON.stringify({
        targetLocales: ['es'],
        files: [{ include: 'locales/en/*.json', output: 'locales/{locale}/{path}' }],
      }),
      'locales/en/common.json': JSON.stringify(catalog, null, 2),
    });
    const run = await glossa(['translate'], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    const es = JSON.parse(await readFile(join(cwd, 'locales/es/common.json'), 'utf8'));
    const forms = new Intl.PluralRules('es').resolvedOptions().pluralCategories.map((f) => `items_${f}`);
    expect(Object.keys(es).sort()).toEqual(['greeting', ...forms, 'nav'].sort());
    expect(es.greeting).toMatch(/^Hola \{\{name\}\}$/);
    expect(es.items_other).toMatch(/^\{\{count\}\} \S+$/);
    expect(es.nav.home).not.toBe('Home page');
    const again = await glossa(['translate', '--json'], { cwd, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ segments: 4, unchanged: 4, requests: 0 });
  }, 120_000);
});
