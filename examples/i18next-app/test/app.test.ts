/**
 * The example app renders its strings in Spanish over its translators' half-done Spanish catalog: their
 * values unchanged, the rest machine translated (real i18next, real embedded server, Apertium).
 */
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
  'Nuestro jardín verde', // locales/es/common.json, as the translators wrote it
  '¡Te damos la bienvenida, Ana!', // the same

  'Tienes una manzana',
  'Tienes 5 manzanas',
  'La tienda abre en <1>9:00</1>.', // a Trans tag stays as written (t() shows it raw)
];

it('serves the human Spanish values unchanged, machine translates the rest, and again from the cache file', async () => {
  const options = {
    cachePath: join(dir, 'cache.jsonl'),
    dataDir: join(dir, 'server'),
    reviewDir: join(dir, 'review'),
  };
  expect(await renderStrings('es', options)).toEqual(SPANISH);
  const cached = (await readFile(options.cachePath, 'utf8')).trim().split('\n');
  // One entry per machine translated string (the plural forms and the opening hours), plus the built catalog.
  expect(cached).toHaveLength(4);
  expect(cached.filter((line) => line.includes('\\"catalog\\"'))).toHaveLength(1);
  expect(cached.some((line) => line.includes('green garden') || line.includes('Welcome'))).toBe(false);
  // Only the machine translated keys go to the review file, for a person.
  const review = JSON.parse(await readFile(join(options.reviewDir, 'es/common.json'), 'utf8'));
  expect(review).toEqual({
    basket: {
      apples_one: 'Tienes una manzana',
      apples_many: 'Tienes {{count}} manzanas',
      apples_other: 'Tienes {{count}} manzanas',
    },
    opening: 'La tienda abre en <1>{{time}}</1>.',
  });
  expect(await renderStrings('es', options)).toEqual(SPANISH);
});

it('renders the source language without translating', async () => {
  const lines = await renderStrings('en', {
    cachePath: join(dir, 'en-cache.jsonl'),
    dataDir: join(dir, 'server'),
    reviewDir: join(dir, 'review'),
  });
  expect(lines).toEqual([
    'The green garden',
    'Welcome, Ana!',
    'You have one apple',
    'You have 5 apples',
    'The shop opens at <1>9:00</1>.',
  ]);
});
