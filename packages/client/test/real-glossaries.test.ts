import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { GlossaClient, type GlossaError, NotFoundError } from '../src/index.js';
import { startRealServer } from './real-server.js';

const real = await startRealServer();
afterAll(() => real.close());
beforeEach(() => {
  real.fetchCalls.count = 0;
});

async function failure(promise: Promise<unknown>): Promise<GlossaError> {
  try {
    await promise;
  } catch (error) {
    return error as GlossaError;
  }
  throw new Error('expected the call to fail');
}

describe('glossary entries as data (no request sent for bad entries)', () => {
  it('refuses empty terms, tabs, line separators and duplicate sources with a RangeError naming the entry', async () => {
    const client = real.client();
    const create = (entries: { source: string; target: string }[]) =>
      client.glossaries.create('bad', [{ sourceLang: 'en', targetLang: 'es', entries }]);
    await expect(create([{ source: 'cat', target: ' ' }])).rejects.toThrow(
      new RangeError('Glossary entry 1: empty target term'),
    );
    await expect(
      create([
        { source: 'a', target: 'b' },
        { source: 'c\td', target: 'e' },
      ]),
    ).rejects.toThrow(
      new RangeError('Glossary entry 2: source term holds a control or line-separator character'),
    );
    await expect(create([{ source: 'a', target: 'b\u2028c' }])).rejects.toThrow(RangeError);
    await expect(
      create([
        { source: 'a', target: 'b' },
        { source: 'a', target: 'c' },
      ]),
    ).rejects.toThrow(new RangeError("Glossary entry 2: duplicate source term 'a'"));
    expect(real.fetchCalls.count).toBe(0);
  });
});

describe('glossaries v3 against the real server', () => {
  it('creates, reads, merges, replaces and deletes, with entries as data', async () => {
    const client = real.client();
    const glossary = await client.glossaries.create('Product terms', [
      {
        sourceLang: 'en',
        targetLang: 'es',
        entries: [
          { source: 'cat', target: 'gato' },
          { source: 'window', target: 'ventana' },
        ],
      },
      { sourceLang: 'en', targetLang: 'fr', entries: new Map([['cat', 'chat']]) },
    ]);
    expect(glossary.name).toBe('Product terms');
    expect(glossary.dictionaries).toHaveLength(2);
    const id = glossary.glossary_id;
    expect((await client.glossaries.get(id)).glossary_id).toBe(id);
    expect((await client.glossaries.list()).map((item) => item.glossary_id)).toContain(id);

    const [dictionary] = await client.glossaries.getEntries(id, 'en', 'es');
    expect(dictionary?.entries).toEqual([
      { source: 'cat', target: 'gato' },
      { source: 'window', target: 'ventana' },
    ]);

    await client.glossaries.update(id, {
      name: 'Terms',
      dictionary: { sourceLang: 'en', targetLang: 'es', entries: new Map([['dog', 'perro']]) },
    });
    expect((await client.glossaries.get(id)).name).toBe('Terms');
    const merged = (await client.glossaries.getEntries(id, 'en', 'es'))[0]?.entries ?? [];
    expect(merged.map((entry) => entry.source).sort()).toEqual(['cat', 'dog', 'window']);

    await client.glossaries.replaceDictionary(id, {
      sourceLang: 'en',
      targetLang: 'es',
      entries: { text: 'house,casa\n"big, red",rojo', format: 'csv' },
    });
    expect((await client.glossaries.getEntries(id, 'en', 'es'))[0]?.entries).toEqual([
      { source: 'house', target: 'casa' },
      { source: 'big, red', target: 'rojo' },
    ]);

    await client.glossaries.deleteDictionary(id, 'en', 'fr');
    expect((await client.glossaries.get(id)).dictionaries).toHaveLength(1);
    await client.glossaries.delete(id);
    expect(await failure(client.glossaries.get(id))).toBeInstanceOf(NotFoundError);
  });

  it("keeps accounts apart: another account's glossary is a 404", async () => {
    const glossary = await real
      .client()
      .glossaries.create('Mine', [
        { sourceLang: 'en', targetLang: 'es', entries: [{ source: 'cat', target: 'gato' }] },
      ]);
    const { key } = await real.createAccount({ plan: 'paid' });
    const other = new GlossaClient({ authKey: key, serverUrl: real.url });
    expect(await failure(other.glossaries.get(glossary.glossary_id))).toBeInstanceOf(NotFoundError);
  });
});

describe('glossaries v2 against the real server', () => {
  it('creates, lists, reads entries and deletes', async () => {
    const client = real.client();
    const glossary = await client.glossariesV2.create({
      name: 'v2 terms',
      sourceLang: 'en',
      targetLang: 'de',
      entries: [
        { source: 'cat', target: 'Katze' },
        { source: 'dog', target: 'Hund' },
      ],
    });
    expect(glossary.entry_count).toBe(2);
    expect(glossary.ready).toBe(true);
    const id = glossary.glossary_id;
    expect((await client.glossariesV2.list()).map((item) => item.glossary_id)).toContain(id);
    expect((await client.glossariesV2.get(id)).name).toBe('v2 terms');
    expect(await client.glossariesV2.getEntries(id)).toEqual([
      { source: 'cat', target: 'Katze' },
      { source: 'dog', target: 'Hund' },
    ]);
    await client.glossariesV2.delete(id);
    expect(await failure(client.glossariesV2.get(id))).toBeInstanceOf(NotFoundError);
  });

  it('lists the glossary language pairs (deprecated endpoint)', async () => {
    const pairs = await real.client().glossariesV2.languagePairs();
    // The pairs depend on the installed engines; each is a {source_lang, target_lang} pair.
    expect(Array.isArray(pairs)).toBe(true);
    for (const pair of pairs) expect(Object.keys(pair).sort()).toEqual(['source_lang', 'target_lang']);
  });
});
