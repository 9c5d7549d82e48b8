/**
 * The message syntax of a JSON catalog set per file in the config, reported, and used to read the outputs
 * back (in process, core's pseudo translator instead of a server).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPseudoTranslator, loadConfig, type Translator } from '@glossa/core';
import { expect, it } from 'vitest';
import { translateCommand } from '../src/commands/translate.js';

it('reads a catalog in the syntax its config entry names, reports it, and reads the outputs back in it (in-process pseudo translator instead of a server)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'glossa-syntax-'));
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
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), isTTY: false };
    const code = await translateCommand({ io, cwd: dir, env: {}, translator }, [], { json: true });
    expect(code, out.join('\n')).toBe(0);
    return { result: JSON.parse(out.join('\n')), err: err.join('\n'), sent };
  };
  try {
    await mkdir(join(dir, 'vue'));
    await mkdir(join(dir, 'app'));
    await mkdir(join(dir, 'icu'));
    // Not ICU (the plural is not closed): kept as i18next text, and said with its place.
    await writeFile(
      join(dir, 'icu/en.json'),
      JSON.stringify({ menu: { broken: 'You have {count, plural, one {# file}' } }, null, 2),
    );
    // Without the config's `vue`, `a|b` choices without spaces read as ICU: one message, not two.
    await writeFile(
      join(dir, 'vue/en.json'),
      JSON.stringify({ apples: 'one apple|{count} apples', hi: 'Hello {name}' }),
    );
    await writeFile(join(dir, 'app/en.json'), JSON.stringify({ files: 'You have {count} new files' }));
    await writeFile(
      join(dir, 'glossa.config.json'),
      JSON.stringify({
        targetLocales: ['en-XA'],
        files: [
          { include: 'vue/en.json', output: 'vue/{locale}.json', syntax: 'vue' },
          { include: 'app/en.json', output: 'app/{locale}.json', syntax: 'auto' },
          { include: 'icu/en.json', output: 'icu/{locale}.json', syntax: 'icu' },
        ],
      }),
    );
    const first = await run();
    expect(first.result.catalogs).toEqual([
      { file: 'vue/en.json', syntax: 'vue', detected: false },
      { file: 'app/en.json', syntax: 'icu', detected: true },
      { file: 'icu/en.json', syntax: 'icu', detected: false },
    ]);
    expect(first.err).toMatch(
      /icu\/en\.json:3:5: warning: menu\.broken: not icu \(.+\); translated as plain i18next text/,
    );
    expect(first.err).toContain('glossa: vue/en.json: vue messages\n');
    expect(first.err).toContain('glossa: app/en.json: icu messages (detected)');
    expect(first.sent.map((t) => t.replace(/<[^>]*>/g, '')).sort()).toEqual(
      [
        'one apple',
        ' apples',
        'Hello ',
        'You have  new files',
        'You have {count, plural, one {# file}',
      ].sort(),
    );
    expect(JSON.parse(await readFile(join(dir, 'vue/en-XA.json'), 'utf8')).apples).toBe(
      '[öñéé ååþþļéé]|[{count} ååþþļééš]',
    );
    // The outputs are read back as vue too: nothing is sent again, nothing rewritten.
    const second = await run();
    expect(second.sent).toEqual([]);
    expect(second.result).toMatchObject({ segments: 5, unchanged: 5, cacheHits: 0 });
    expect(second.result.written).toEqual([]);
    expect(second.result.unchangedFiles).toBe(3);
    // A wrong name is a config error.
    await writeFile(
      join(dir, 'bad.json'),
      JSON.stringify({ files: [{ include: 'vue/en.json', output: 'x/{locale}.json', syntax: 'fluent' }] }),
    );
    await expect(loadConfig({ configFile: join(dir, 'bad.json'), env: {} })).rejects.toThrow(
      /files\[0\]\.syntax.*auto, i18next, icu, vue/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
