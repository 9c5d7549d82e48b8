/** A link that leads nowhere among the inputs is a failed file, reported with the others (in process, pseudo translator instead of a server). */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPseudoTranslator } from '@glossa/core';
import { expect, it } from 'vitest';
import { translateCommand } from '../src/commands/translate.js';

it('reports a dangling symbolic link in the docs folder as a failed file and translates the rest (in-process pseudo translator instead of a server)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'glossa-dangling-'));
  try {
    await mkdir(join(dir, 'docs'));
    await writeFile(join(dir, 'docs/a.md'), '# Hello there\n');
    await symlink(join(dir, 'missing.md'), join(dir, 'docs/gone.md'));
    await writeFile(
      join(dir, 'glossa.config.json'),
      JSON.stringify({
        targetLocales: ['en-XA'],
        files: [{ include: 'docs', output: 'i18n/{locale}/{path}' }],
      }),
    );
    const out: string[] = [];
    const code = await translateCommand(
      {
        io: { out: (t) => out.push(t), err: () => {}, isTTY: false },
        cwd: dir,
        env: {},
        translator: createPseudoTranslator(),
      },
      [],
      { json: true },
    );
    const result = JSON.parse(out.join('\n'));
    expect(code).toBe(1);
    expect(result.failedFiles).toEqual([
      expect.objectContaining({
        file: 'docs/gone.md',
        stage: 'read',
        reason: expect.stringMatching(/^cannot read: ENOENT/),
      }),
    ]);
    expect(result.written).toEqual(['i18n/en-XA/a.md']);
    expect(await readFile(join(dir, 'i18n/en-XA/a.md'), 'utf8')).toBe('# \\[Ĥééļļöö ţĥééŕéé\\]\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
