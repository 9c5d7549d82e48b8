/** GlossaBackend inside real i18next, against a real @glossa/server (Apertium for Spanish) over loopback. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GlossaClient } from '@glossa/client';
import { cacheKey, createMemoryStore, createTranslationCache, type Translator } from '@glossa/core';
import { startServer } from '@glossa/server';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, GlossaBackend } from '../src/index.js';

const common: Catalog = {
  title: 'The red house',
  welcome: 'Welcome, {{name}}!',
  cart: { items_one: 'You have one dog', items_other: 'You have {{count}} dogs' },
};
const extra: Catalog = { bye: 'Good night' };

let dir: string;
let server: Awaited<ReturnType<typeof startServer>>;
let client: GlossaClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-i18next-'));
  server = await startServer({ dataDir: dir, port: 0, freePort: 0, host: '127.0.0.1', logger: false });
  client = new GlossaClient({ authKey: server.devKey, serverUrl: server.url });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The real client, with each request's size written down. */
function counting(): Translator & { requests: number[] } {
  const requests: number[] = [];
  return {
    requests,
    translateText: (texts, options) => {
      requests.push(texts.length);
      return client.translateText(texts, options);
    },
  };
}

const loadSource = (ns: string) => ({ common, extra })[ns] as Catalog;

describe('GlossaBackend in i18next', () => {
  it('serves Spanish from English catalogs through Apertium, both namespaces in one request', async () => {
    const translator = counting();
    const instance = i18next.createInstance();
    await instance.use(GlossaBackend).init({
      lng: 'es',
      fallbackLng: 'en',
      ns: ['common', 'extra'],
      defaultNS: 'common',
      backend: { loadSource, translator },
    });
    expect(instance.t('title')).toBe('La casa roja');
    expect(instance.t('welcome', { name: 'Ana' })).toMatch(/^Bienvenido, Ana!?$/);
    expect(instance.t('cart.items', { count: 1 })).toBe('Tienes un perro');
    expect(instance.t('cart.items', { count: 3 })).toBe('Tienes 3 perros');
    expect(instance.t('extra:bye')).toBe('Noche buena');
    expect(translator.requests).toEqual([5]); // 5 strings of 2 namespaces, one request
  });

  it('reuses a built catalog from the cache only while its source and translations are unchanged', async () => {
    const translator = counting();
    const cache = createTranslationCache([createMemoryStore()]);
    const backend = (catalog: Catalog) =>
      new GlossaBackend(undefined, { loadSource: () => catalog, translator, cache });
    const first = (await backend(common).read('es', 'common')) as Catalog;
    expect(await backend(common).read('es', 'common')).toEqual(first);
    expect(translator.requests).toEqual([4]);

    // A translation changed in the cache (a reviewer's fix): the catalog is built again with it.
    const title = cacheKey({
      source: 'The red house',
      sourceLang: 'en',
      targetLang: 'es',
      tagHandlingVersion: 'v1',
    });
    await cache.setMany(new Map([[title, 'La casa colorada']]));
    const edited = (await backend(common).read('es', 'common')) as Catalog;
    expect(edited).toEqual({ ...first, title: 'La casa colorada' });

    // A changed source: the new string is translated, the rest comes from the cache.
    const changed = (await backend({ ...common, title: 'The blue house' }).read('es', 'common')) as Catalog;
    expect(translator.requests).toEqual([4, 1]);
    expect(changed.title).toMatch(/azul/);
    expect(changed.welcome).toEqual(first.welcome);
  });

  it('reads from the cache the second time (no request) and returns promises without a callback', async () => {
    const translator = counting();
    const backend = new GlossaBackend(undefined, { loadSource, translator });
    const first = await backend.read('es', 'common');
    const second = await backend.read('es', 'common');
    expect(second).toEqual(first);
    expect(translator.requests).toEqual([4]);
    expect(await backend.read('en', 'common')).toEqual(common); // the source language is served as is
    expect(await backend.read('en-US', 'common')).toEqual(common); // and its regional variants
    expect(await backend.read('dev', 'common')).toEqual(common); // i18next's default fallback
    expect(translator.requests).toEqual([4]);
    // A pseudo-locale is not a regional variant of English: it is translated.
    const pseudo = (await backend.read('en-XA', 'common')) as Record<string, unknown>;
    expect(translator.requests).toEqual([4, 4]);
    expect(pseudo).not.toEqual(common);
    const multi = await backend.readMulti(['es', 'en'], ['extra']);
    expect(multi).toEqual({ es: { extra: { bye: 'Noche buena' } }, en: { extra } });
  });

  it('callback(err, true) when the service cannot be reached, so i18next retries', async () => {
    const gone = new GlossaClient({ authKey: server.devKey, serverUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    const backend = new GlossaBackend(undefined, { loadSource, translator: gone });
    const [error, retry] = await new Promise<[Error | null, unknown]>((resolve) =>
      backend.read('es', 'extra', (err, data) => resolve([err, data])),
    );
    expect(error?.name).toBe('BackendReadError');
    expect(retry).toBe(true);
  });

  it('callback(err, false) for a wrong key or a missing source file: retrying cannot help', async () => {
    const badKey = new GlossaClient({ authKey: 'not-a-key', serverUrl: server.url, maxRetries: 0 });
    const backend = new GlossaBackend(undefined, { loadSource, translator: badKey });
    const result = await new Promise<[Error | null, unknown]>((resolve) =>
      backend.read('es', 'extra', (err, data) => resolve([err, data])),
    );
    expect(result[0]?.message).toMatch(/403|auth|key/i);
    expect(result[1]).toBe(false);
    const noFile = new GlossaBackend(undefined, {
      sourcePath: join(dir, 'missing', '{{ns}}.json'),
      translator: client,
    });
    const missing = await new Promise<[Error | null, unknown]>((resolve) =>
      noFile.read('es', 'common', (err, data) => resolve([err, data])),
    );
    expect((missing[0] as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(missing[1]).toBe(false);
  });

  it('saveMissing: a new key is added to the source and translated into the languages in use', async () => {
    const translator = counting();
    const instance = i18next.createInstance();
    await instance.use(GlossaBackend).init({
      lng: 'es',
      fallbackLng: 'en',
      ns: ['extra'],
      defaultNS: 'extra',
      saveMissing: true,
      backend: { loadSource: () => ({ bye: 'Good night' }), translator },
    });
    expect(instance.t('thanks', 'Thank you')).toBe('Thank you');
    await expect.poll(() => instance.t('thanks'), { timeout: 10_000 }).toBe('Gracias');
  });

  it('serves a namespace the build manifest lists from its file, translating only the others', async () => {
    await mkdir(join(dir, 'built', 'es'), { recursive: true });
    await writeFile(join(dir, 'built', 'es', 'extra.abc.json'), '{"bye": "Hasta luego"}');
    await writeFile(
      join(dir, 'built', 'manifest.json'),
      '{"sourceLang": "en", "locales": {"es": {"extra": "es/extra.abc.json"}}}',
    );
    const translator = counting();
    const backend = new GlossaBackend(undefined, {
      loadSource,
      translator,
      manifest: join(dir, 'built', 'manifest.json'),
    });
    expect(await backend.readMulti(['es'], ['extra', 'common'])).toMatchObject({
      es: { extra: { bye: 'Hasta luego' }, common: { title: 'La casa roja' } },
    });
    expect(translator.requests).toEqual([4]); // only common's strings
  });

  it('needs a source: a clear TypeError without loadSource or sourcePath', () => {
    expect(() => new GlossaBackend(undefined, {})).toThrow(/loadSource/);
  });
});
