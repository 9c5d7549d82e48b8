/**
 * The XLIFF round trip as a user runs it: the real `glossa` CLI as child processes on a copy of this
 * example, on the embedded server it starts (real Apertium for es), and the example's own `start` script.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const example = resolve(import.meta.dirname, '..');
const bin = resolve(example, '../../packages/cli/src/bin.ts');
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
let dir: string;
let env: NodeJS.ProcessEnv;

function run(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [tsx, '--conditions', '@glossa/source', ...args],
      { cwd, env },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const glossa = (...args: string[]) => run(dir, [bin, ...args]);

/** What a translator's CAT tool does: replace the target of one unit and mark it final. */
function editUnit(xliff: string, unit: string, target: string): string {
  const pattern = new RegExp(
    `(<unit id="${unit}">[\\s\\S]*?<segment) state="translated">([\\s\\S]*?<target>)[\\s\\S]*?(</target>)`,
  );
  const edited = xliff.replace(pattern, `$1 state="final">$2${target}$3`);
  expect(edited).not.toBe(xliff);
  return edited;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-xliff-roundtrip-'));
  await cp(join(example, 'site'), join(dir, 'site'), { recursive: true });
  await cp(join(example, 'glossa.config.json'), join(dir, 'glossa.config.json'));
  const { GLOSSA_SERVER_URL: _url, GLOSSA_API_KEY: _key, ...rest } = process.env;
  env = { ...rest, GLOSSA_DATA_DIR: join(dir, '.server-data') };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('examples/xliff-roundtrip', () => {
  it('keeps a translator’s XLIFF edit on later runs, also when another source changes', async () => {
    const first = await glossa('translate');
    expect(first.code, first.stderr).toBe(0);
    const exported = await glossa('xliff', 'export', '--dir', 'xliff');
    expect(exported.stdout).toBe('xliff/es.xlf: 5 units, 5 with a target\n');
    const xliff = await readFile(join(dir, 'xliff/es.xlf'), 'utf8');
    expect(xliff).toContain('trgLang="es"');
    expect(xliff).toContain('<data id="1_o">&lt;a href="/map.html"&gt;</data>');

    const fix =
      'La tienda abre a las siete y cierra cuando el pan está <pc id="1" dataRefStart="1_o" dataRefEnd="1_c">agotado</pc>.';
    await writeFile(join(dir, 'reviewed.xlf'), editUnit(xliff, 'site/index.html#p-2', fix));
    const imported = await glossa('xliff', 'import', 'reviewed.xlf');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe('es: 1 target(s) changed from reviewed.xlf, 1 file(s) written\n');
    const edit = '<p>La tienda abre a las siete y cierra cuando el pan está <strong>agotado</strong>.</p>';
    expect(await readFile(join(dir, 'out/es/index.html'), 'utf8')).toContain(edit);

    const again = await glossa('translate', '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ humanEdits: 1, unchanged: 4, requests: 0 });
    expect(await readFile(join(dir, 'out/es/index.html'), 'utf8')).toContain(edit);

    const page = join(dir, 'site/index.html');
    await writeFile(page, (await readFile(page, 'utf8')).replace('for a party', 'for a wedding'));
    const changed = await glossa('translate', '--json');
    expect(JSON.parse(changed.stdout)).toMatchObject({ humanEdits: 1, translated: 1, requests: 1 });
    const html = await readFile(join(dir, 'out/es/index.html'), 'utf8');
    expect(html).toContain(edit);
    expect(html).toMatch(/boda/);
  }, 240_000);

  it('refuses an imported target whose codes are broken and keeps the current one', async () => {
    const xliff = await readFile(join(dir, 'xliff/es.xlf'), 'utf8');
    await writeFile(
      join(dir, 'broken.xlf'),
      editUnit(xliff, 'site/index.html#p-1', 'Horneamos pan detrás del mercado.'),
    );
    const before = await readFile(join(dir, 'out/es/index.html'), 'utf8');
    const imported = await glossa('xliff', 'import', 'broken.xlf');
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(
      /broken\.xlf: unit site\/index\.html#p-1: .*\(skipped; the segment keeps its current target\)/,
    );
    // The export predates the edit of p-2 and the source change of p-3: neither is undone.
    expect(imported.stderr).toContain('unit site/index.html#p-2: kept the current human edit');
    expect(imported.stderr).toContain('unit site/index.html#p-3: its source changed since the export');
    expect(await readFile(join(dir, 'out/es/index.html'), 'utf8')).toBe(before);
  }, 120_000);

  it('runs end to end with its one command (pnpm start)', async () => {
    const start = await run(example, ['roundtrip.ts']);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toContain('es: 1 target(s) changed from xliff/es.reviewed.xlf, 1 file(s) written');
    expect(start.stdout).toMatch(/human edits kept: 1/);
    expect(start.stdout).toContain(
      '<p>La tienda abre a las siete y cierra cuando el pan está <strong>agotado</strong>.</p>',
    );
  }, 240_000);
});
