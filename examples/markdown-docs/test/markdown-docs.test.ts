/**
 * The example as a user runs it: the real `glossa` CLI as a child process on a copy of this folder,
 * against the embedded server it starts (real Apertium for es, the pseudo engine for en-XA).
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const example = resolve(import.meta.dirname, '..');
const bin = resolve(example, '../../packages/cli/src/bin.ts');
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
let dir: string;
let env: NodeJS.ProcessEnv;

function glossa(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [tsx, '--conditions', '@glossa/source', bin, ...args],
      { cwd: dir, env },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const links = (md: string) => [...md.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
const fences = (md: string) => [...md.matchAll(/```[\s\S]*?```/g)].map((m) => m[0]);
const inlineCode = (md: string) => [...md.matchAll(/`[^`\n]+`/g)].map((m) => m[0]);
const tableRows = (md: string) => md.split('\n').filter((l) => l.startsWith('|')).length;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-markdown-docs-'));
  await cp(join(example, 'docs'), join(dir, 'docs'), { recursive: true });
  await cp(join(example, 'glossa.config.json'), join(dir, 'glossa.config.json'));
  await cp(join(example, 'glossary.es.tsv'), join(dir, 'glossary.es.tsv'));
  const { GLOSSA_SERVER_URL: _url, GLOSSA_API_KEY: _key, ...rest } = process.env;
  env = { ...rest, GLOSSA_DATA_DIR: join(dir, '.server-data') };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('examples/markdown-docs', () => {
  it('translates the docs to es (Apertium) and en-XA with links, code and structure intact', async () => {
    const run = await glossa('translate');
    expect(run.stderr).not.toMatch(/warning|Error/);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/failures: +0/);
    for (const page of ['index.md', 'guide/install.md']) {
      const source = await readFile(join(dir, 'docs', page), 'utf8');
      for (const locale of ['es', 'en-XA']) {
        const out = await readFile(join(dir, 'out', locale, page), 'utf8');
        expect(out).not.toBe(source);
        expect(links(out)).toEqual(links(source));
        expect(fences(out)).toEqual(fences(source));
        expect(inlineCode(out)).toEqual(inlineCode(source));
        expect(tableRows(out)).toBe(tableRows(source));
        expect(out.startsWith('---\ntitle: ')).toBe(true);
      }
    }
    const es = await readFile(join(dir, 'out/es/index.md'), 'utf8');
    expect(es).toContain('**instalar**');
    expect(es).toContain('[notas de instalación](./guide/install.md)');
    expect(es).toContain('caché'); // glossary.es.tsv: Apertium alone leaves "cache" in English (a warning)
    const pseudo = await readFile(join(dir, 'out/en-XA/guide/install.md'), 'utf8');
    expect(pseudo).toContain('*šţåååŕţš*');
  }, 180_000);

  it('a second run sends nothing, and check passes until an output goes missing', async () => {
    const again = await glossa('translate', '--json');
    expect(again.code, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout);
    expect(report).toMatchObject({ requests: 0, translated: 0, billedCharacters: 0, failures: [] });
    expect(report.unchanged).toBe(report.segments);

    const ok = await glossa('check');
    expect(ok.code, ok.stderr + ok.stdout).toBe(0);
    await rm(join(dir, 'out/es/guide/install.md'));
    const failed = await glossa('check', '--json');
    expect(failed.code, failed.stderr).toBe(1);
    const result = JSON.parse(failed.stdout);
    expect(result.ok).toBe(false);
    // Exactly the segments of the deleted output, each with its line and column in the source.
    const status = JSON.parse((await glossa('status', '--json')).stdout);
    expect(status.locales.es.missing).toBe(result.missing.length);
    expect(result.missing.length).toBeGreaterThanOrEqual(6);
    for (const m of result.missing) {
      expect(m).toMatchObject({ locale: 'es', state: 'missing' });
      expect(m.where).toMatch(/^docs\/guide\/install\.md:\d+:\d+$/);
    }
    expect(result.missing.map((m: { where: string }) => m.where)).toEqual(
      expect.arrayContaining([
        'docs/guide/install.md:2:8',
        'docs/guide/install.md:5:3',
        'docs/guide/install.md:21:1',
      ]),
    );
  }, 180_000);
});
