/** `glossa init` writes the engines section from the environment, never a key (in process). */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@glossa/core';
import { afterEach, expect, it } from 'vitest';
import { initCommand } from '../src/commands/init.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function init(env: NodeJS.ProcessEnv, flags: { json?: boolean; to?: string } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'glossa-init-'));
  dirs.push(dir);
  const out: string[] = [];
  const code = await initCommand(
    { io: { out: (t) => out.push(t), err: () => {}, isTTY: false }, cwd: dir, env },
    flags,
  );
  expect(code).toBe(0);
  const name = flags.json ? 'glossa.config.json' : 'glossa.config.ts';
  return { dir, out: out.join('\n'), text: await readFile(join(dir, name), 'utf8') };
}

it('writes pseudo and apertium as the default when no provider is in the environment', async () => {
  const { dir, text } = await init({}, { json: true, to: 'es,en-XA' });
  expect(JSON.parse(text).engines).toEqual({ default: ['pseudo', 'apertium'] });
  const config = await loadConfig({ cwd: dir, env: {} });
  expect(config.service.engines?.order).toEqual({ default: ['pseudo', 'apertium'] });
});

it('writes a list per real locale and the provider blocks when DeepL and an OpenAI-compatible service are set, never a key', async () => {
  const env = {
    DEEPL_AUTH_KEY: 'deepl-secret:fx',
    OPENAI_API_KEY: 'sk-openai-secret',
    OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
    GLOSSA_OPENAI_MODEL: 'llama3.1',
  };
  const { dir, text, out } = await init(env, { json: true, to: 'de,ja,en-XA' });
  expect(JSON.parse(text).engines).toEqual({
    default: ['pseudo', 'apertium'],
    de: ['deepl', 'openai', 'apertium'],
    ja: ['deepl', 'openai', 'apertium'],
    openai: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
  });
  expect(text).not.toMatch(/secret/);
  expect(out).toContain('engines de: deepl > openai > apertium');
  const config = await loadConfig({ cwd: dir, env: {} });
  expect(config.service.engines?.providers).toEqual({
    openai: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
  });
  // Only one provider: its list alone, the default model where none is set.
  const deeplOnly = await init(
    { DEEPL_AUTH_KEY: 'k', DEEPL_SERVER_URL: 'http://localhost:3000' },
    { json: true, to: 'fr' },
  );
  expect(JSON.parse(deeplOnly.text).engines).toEqual({
    default: ['pseudo', 'apertium'],
    fr: ['deepl', 'apertium'],
    deepl: { serverUrl: 'http://localhost:3000' },
  });
  const local = await init({ OPENAI_BASE_URL: 'http://localhost:8000/v1' }, { json: true, to: 'ja' });
  expect(JSON.parse(local.text).engines.openai).toEqual({
    baseUrl: 'http://localhost:8000/v1',
    model: 'gpt-4o-mini',
  });
});

it('writes the same section in glossa.config.ts', async () => {
  const { dir, text } = await init({ OPENAI_API_KEY: 'sk-secret' }, { to: 'de' });
  expect((await loadConfig({ cwd: dir, env: {} })).service.engines?.order?.de).toEqual([
    'openai',
    'apertium',
  ]);
  expect(text).toContain(
    '  engines: {\n    "default": [\n      "pseudo",\n      "apertium"\n    ],\n    "de": [',
  );
  expect(text).toContain('"model": "gpt-4o-mini"');
  expect(text).not.toMatch(/secret/);
});
