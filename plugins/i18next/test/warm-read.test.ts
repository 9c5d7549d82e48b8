/**
 * A warm read is served from the cache without parsing or extracting the source catalog: the hit is keyed
 * on the source's content hash. `extractCatalog` is the real function, wrapped to count its calls; the
 * translations come from core's pseudo-locale engine (en-XA), so no server is needed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMemoryStore,
  createPseudoTranslator,
  createTranslationCache,
  type Translator,
} from '@glossa/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { extractCatalog } from '../src/catalog.js';
import { GlossaBackend } from '../src/index.js';

vi.mock('../src/catalog.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/catalog.js')>();
  return { ...original, extractCatalog: vi.fn(original.extractCatalog) };
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-i18next-warm-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('GlossaBackend warm read', () => {
  it('serves the cached catalog without extracting the source while its text is unchanged', async () => {
    const pseudo = createPseudoTranslator();
    let requests = 0;
    const translator: Translator = {
      translateText: (texts, options) => {
        requests++;
        return pseudo.translateText(texts, options);
      },
    };
    const cache = createTranslationCache([createMemoryStore()]);
    const sourcePath = join(dir, '{{ns}}.json');
    await writeFile(
      join(dir, 'app.json'),
      '{"title": "The red house", "cart": {"items_other": "{{count}} dogs"}}',
    );
    const read = () => new GlossaBackend(undefined, { sourcePath, translator, cache }).read('en-XA', 'app');
    const extracted = vi.mocked(extractCatalog);
    extracted.mockClear();

    const first = await read();
    expect(first).toMatchObject({ title: expect.stringMatching(/^\[.+\]$/) });
    expect([requests, extracted.mock.calls.length]).toEqual([1, 1]);

    expect(await read()).toEqual(first); // a new backend (a new start): cache hit, no extraction
    expect([requests, extracted.mock.calls.length]).toEqual([1, 1]);
    expect(await new GlossaBackend(undefined, { sourcePath, translator, cache }).read('en', 'app')).toEqual({
      title: 'The red house',
      cart: { items_other: '{{count}} dogs' },
    }); // the source language is parsed, not extracted
    expect(extracted.mock.calls.length).toBe(1);

    // Another text (here only its spacing): extracted and built again, its strings from the cache.
    await writeFile(
      join(dir, 'app.json'),
      '{"title":"The red house","cart":{"items_other":"{{count}} dogs"}}',
    );
    expect(await read()).toEqual(first);
    expect([requests, extracted.mock.calls.length]).toEqual([1, 2]);
  });

  it('a source file that is not JSON fails the read with a CatalogError, and is read again once fixed', async () => {
    const cache = createTranslationCache([createMemoryStore()]);
    await writeFile(join(dir, 'broken.json'), '{"title": ');
    const backend = new GlossaBackend(undefined, {
      sourcePath: join(dir, '{{ns}}.json'),
      translator: createPseudoTranslator(),
      cache,
    });
    await expect(backend.read('en-XA', 'broken')).rejects.toThrow(/broken\.json: not valid JSON/);
    await writeFile(join(dir, 'broken.json'), '{"title": "Fixed"}');
    expect(await backend.read('en-XA', 'broken')).toEqual({
      title: expect.stringMatching(/^\[Ƒîîẋéé\W*\]$/),
    });
  });
});
