/** The example app renders its English-only strings in Spanish: real i18next, real embedded server, Apertium. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renderStrings } from '../src/app.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-i18next-app-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const SPANISH = [
  'El jardín verde',
  'Bienvenido, Ana!',
  'Tienes una manzana',
  'Tienes 5 manzanas',
  'La tienda abre en <1>9:00</1>.', // a Trans tag stays as written (t() shows it raw)
];

it('renders the strings in es through the runtime backend, and again from the cache file', async () => {
  const options = { cachePath: join(dir, 'cache.jsonl'), dataDir: join(dir, 'server') };
  expect(await renderStrings('es', options)).toEqual(SPANISH);
  const cached = (await readFile(options.cachePath, 'utf8')).trim().split('\n');
  // One entry per translated string, plus the built Spanish catalog (reused while those five are unchanged).
  expect(cached).toHaveLength(6);
  expect(cached.filter((line) => line.includes('\\"catalog\\"'))).toHaveLength(1);
  expect(await renderStrings('es', options)).toEqual(SPANISH);
});

it('renders the source language without translating', async () => {
  const lines = await renderStrings('en', {
    cachePath: join(dir, 'en-cache.jsonl'),
    dataDir: join(dir, 'server'),
  });
  expect(lines).toEqual([
    'The green garden',
    'Welcome, Ana!',
    'You have one apple',
    'You have 5 apples',
    'The shop opens at <1>9:00</1>.',
  ]);
});
