/** GlossaBackend over the app's own catalogs: human values first, only missing keys machine translated. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GlossaClient } from '@glossa/client';
import type { Translator } from '@glossa/core';
import { startServer } from '@glossa/server';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, GlossaBackend, mergeReviewed } from '../src/index.js';

const en: Catalog = {
  title: 'The red house',
  welcome: 'Welcome, {{name}}!',
  menu: { open: 'Open the file', close: 'Close the window' },
  dogs_one: 'You have one dog',
  dogs_other: 'You have {{count}} dogs',
  bye: 'Good night',
};
/** The app's translators wrote half of it, with their own choices (not what Apertium would say). */
const es: Catalog = {
  title: 'La casa colorada',
  menu: { open: 'Abrir archivo' },
  dogs_one: 'Tienes un perrito',
  dogs_other: 'Tienes {{count}} perritos',
};

let dir: string;
let server: Awaited<ReturnType<typeof startServer>>;
let client: GlossaClient;
const sent: string[] = [];
const translator: Translator = {
  translateText: (texts, options) => {
    sent.push(...texts);
    return client.translateText(texts, options);
  },
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-i18next-human-'));
  server = await startServer({
    dataDir: join(dir, 'server'),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  client = new GlossaClient({ authKey: server.devKey, serverUrl: server.url });
  await mkdir(join(dir, 'locales/en'), { recursive: true });
  await mkdir(join(dir, 'locales/es'), { recursive: true });
  await writeFile(join(dir, 'locales/en/common.json'), JSON.stringify(en));
  await writeFile(join(dir, 'locales/es/common.json'), JSON.stringify(es));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('GlossaBackend over human catalogs', () => {
  it('returns the human values unchanged and machine translates only the missing keys', async () => {
    const instance = i18next.createInstance();
    await instance.use(GlossaBackend).init({
      lng: 'es',
      fallbackLng: 'en',
      ns: ['common'],
      defaultNS: 'common',
      backend: {
        loadPath: join(dir, 'locales/{{lng}}/{{ns}}.json'),
        reviewPath: join(dir, 'review/{{lng}}/{{ns}}.json'),
        translator,
      },
    });
    // Human values, unchanged.
    expect(instance.t('title')).toBe('La casa colorada');
    expect(instance.t('menu.open')).toBe('Abrir archivo');
    expect(instance.t('dogs', { count: 1 })).toBe('Tienes un perrito');
    expect(instance.t('dogs', { count: 4 })).toBe('Tienes 4 perritos');
    // Missing keys, machine translated (Apertium).
    expect(instance.t('menu.close')).toBe('Cercano la ventana');
    expect(instance.t('bye')).toBe('Noche buena');
    expect(instance.t('welcome', { name: 'Ana' })).toMatch(/^Bienvenido, Ana!?$/);
    // Only the three missing strings were sent.
    expect(sent.sort()).toEqual(['Close the window', 'Good night', 'Welcome, <x id="1"/>!'].sort());

    const review = JSON.parse(await readFile(join(dir, 'review/es/common.json'), 'utf8')) as Catalog;
    expect(Object.keys(review).sort()).toEqual(['bye', 'menu', 'welcome']);
    expect(review['menu']).toEqual({ close: 'Cercano la ventana' });

    // A reviewer edits one value and (by mistake) one the app already has: the human value wins.
    const reviewed = { ...review, bye: 'Buenas noches', title: 'La casa roja' };
    const merged = mergeReviewed(es, reviewed, review);
    expect(merged.kept).toEqual(['title']);
    expect(merged.added).toEqual([
      { key: 'welcome', edited: false },
      { key: 'menu.close', edited: false },
      { key: 'bye', edited: true },
    ]);
    expect(merged.catalog).toEqual({
      title: 'La casa colorada',
      menu: { open: 'Abrir archivo', close: 'Cercano la ventana' },
      dogs_one: 'Tienes un perrito',
      dogs_other: 'Tienes {{count}} perritos',
      welcome: review['welcome'],
      bye: 'Buenas noches',
    });
  });

  it('bundled resources count as the human catalog; a language without one is all machine', async () => {
    const backend = new GlossaBackend(undefined, {
      resources: { en: { common: en }, es: { common: es } },
      translator,
    });
    const catalog = (await backend.read('es', 'common')) as Catalog;
    expect(catalog['title']).toBe('La casa colorada');
    expect(catalog['dogs_one']).toBe('Tienes un perrito');
    expect(Object.keys(catalog)).not.toContain('dogs_many'); // the human group's forms are the translators'
    const fr = (await backend.read('fr', 'common')) as Catalog;
    expect(fr['title']).not.toBe('The red house');
    expect(Object.keys(fr)).toEqual(expect.arrayContaining(['dogs_one', 'dogs_many', 'dogs_other']));
  });
});
