/**
 * The persistent cache is keyed by the embedded server's engines: a model change makes the cache miss
 * (in process, a counting translator instead of a server).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPseudoTranslator, type Translator } from '@glossa/core';
import { expect, it } from 'vitest';
import { translateCommand } from '../src/commands/translate.js';

it('re-translates from the cache only what the same engines produced: a model change misses (counting in-process translator instead of a server)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'glossa-fingerprint-'));
  let sent = 0;
  const pseudo = createPseudoTranslator();
  const translator: Translator = {
    translateText: (texts, options) => {
      sent += texts.length;
      return pseudo.translateText(texts, { ...options, targetLang: 'en-XA' }); // any locale
    },
  };
  const config = (model: string) =>
    writeFile(
      join(dir, 'glossa.config.json'),
      JSON.stringify({
        targetLocales: ['de', 'es'],
        files: [{ include: 'docs', output: 'i18n/{locale}/{path}' }],
        engines: { default: ['pseudo', 'apertium'], de: ['openai'], openai: { model } },
      }),
    );
  const run = async (env: NodeJS.ProcessEnv = {}) => {
    // A fresh checkout that shares the cache: no outputs, no lock.
    await rm(join(dir, 'i18n'), { recursive: true, force: true });
    await rm(join(dir, 'glossa.lock'), { force: true });
    sent = 0;
    const code = await translateCommand(
      { io: { out: () => {}, err: () => {}, isTTY: false }, cwd: dir, env, translator },
      [],
      {},
    );
    expect(code).toBe(0);
    return sent;
  };
  try {
    await mkdir(join(dir, 'docs'));
    await writeFile(join(dir, 'docs/a.md'), '# Hello there\n\nA second paragraph of text.\n');
    await config('llama3.1');
    expect(await run()).toBe(4); // 2 segments × de, es
    expect(await run()).toBe(0); // all from the cache
    await config('qwen2.5');
    expect(await run()).toBe(2); // de's engine changed; es is still Apertium's
    expect(await run({ GLOSSA_OPENAI_MODEL: 'other', OPENAI_API_KEY: 'sk-x' })).toBe(0); // config wins; keys do not count
    await config('llama3.1');
    expect(await run()).toBe(0); // the first model's outputs are still cached
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
