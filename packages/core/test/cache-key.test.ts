import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type CacheKeyParts,
  cacheKey,
  cacheKeyer,
  createTranslationRun,
  type RunSegment,
} from '../src/index.js';

const base: CacheKeyParts = {
  source: 'Open the <g id="1">menu</g>',
  sourceLang: 'en',
  targetLang: 'es',
  formality: 'more',
  glossaryHash: 'a1',
  memory: { id: 'm', version: 1 },
  styleList: { id: 's', version: 3 },
  customInstructions: ['Be brief.'],
  context: 'toolbar',
  modelType: 'quality_optimized',
  tagHandlingVersion: 'v1',
  engineFingerprint: 'apertium-eng-spa@1.2',
};

describe('cache key', () => {
  it.each<[string, Record<string, unknown>]>([
    ['source', { source: 'Open the <g id="1">file</g>' }],
    ['source language', { sourceLang: 'fr' }],
    ['target language', { targetLang: 'fr' }],
    ['formality', { formality: 'less' }],
    ['glossary content', { glossaryHash: 'b2' }],
    ['memory version', { memory: { id: 'm', version: 2 } }],
    ['memory id', { memory: { id: 'n', version: 1 } }],
    ['style list version', { styleList: { id: 's', version: 4 } }],
    ['custom instructions', { customInstructions: ['Be formal.'] }],
    ['context', { context: 'menu bar' }],
    ['model type', { modelType: 'latency_optimized' }],
    ['tag-handling version', { tagHandlingVersion: 'v2' }],
    ['engine fingerprint', { engineFingerprint: 'apertium-eng-spa@1.3' }],
    ['a part left out', { context: undefined }],
  ])('changes with the %s', (_name, change) => {
    const changed = { ...base, ...change } as CacheKeyParts;
    expect(cacheKey(changed)).not.toBe(cacheKey(base));
  });

  it('ignores what does not change the output: NFC form, line endings, outer whitespace, language case', () => {
    const key = cacheKey({ ...base, source: 'Café\nbar' });
    expect(cacheKey({ ...base, source: '  Cafe\u0301\r\nbar \n' })).toBe(key);
    expect(cacheKey({ ...base, source: 'Café\nbar', targetLang: 'ES', sourceLang: 'EN' })).toBe(key);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('cache key in a run', () => {
  it('a glossary, memory or style id on the request changes the key even without content hashes', async () => {
    const { createMemoryStore, createTranslationCache, createPseudoTranslator } = await import(
      '../src/index.js'
    );
    const cache = createTranslationCache([createMemoryStore()]);
    const sent: string[] = [];
    const pseudo = createPseudoTranslator();
    const translator = {
      translateText: (texts: string[], o: Parameters<typeof pseudo.translateText>[1]) => {
        sent.push(...texts);
        return pseudo.translateText(texts, o);
      },
    };
    const segments: RunSegment[] = [{ key: 'a', source: 'Hello' }];
    const runWith = (requestOptions: object) =>
      createTranslationRun({
        translator,
        sourceLang: 'en',
        targetLangs: ['en-XA'],
        cache,
        requestOptions,
      }).translate({
        segments,
      });
    await runWith({});
    await runWith({ glossaryId: '00000000-0000-4000-8000-000000000001' });
    await runWith({ translationMemoryId: '00000000-0000-4000-8000-000000000002' });
    await runWith({
      translationMemoryId: '00000000-0000-4000-8000-000000000002',
      translationMemoryThreshold: 90,
    });
    await runWith({ styleId: '00000000-0000-4000-8000-000000000003' });
    await runWith({});
    expect(sent).toEqual(['Hello', 'Hello', 'Hello', 'Hello', 'Hello']);
  });
});

describe('dry run', () => {
  it('estimates requests and billed characters without a translator', async () => {
    const segments: RunSegment[] = [
      { key: 'a', source: 'Hello <x id="1"/> world' },
      { key: 'b', source: 'Hello <x id="1"/> world' },
      { key: 'c', source: 'Goodbye', context: 'footer' },
      { key: 'd', source: '<x id="1"/> &amp; <x id="2"/>' },
    ];
    const run = createTranslationRun({ sourceLang: 'en', targetLangs: ['es', 'fr'] });
    expect(await run.estimate({ segments })).toEqual({
      segments: 8,
      unchanged: 2, // "d" has no words, in both locales
      humanEdits: 0,
      cacheHits: 0,
      requests: 4, // per locale: one without context, one with "footer"
      requestBytes: expect.any(Number),
      billedCharacters: 2 * ('Hello  world'.length + 'Goodbye'.length),
    });
    await expect(run.translate({ segments })).rejects.toThrow('`translator` is required to translate');
  });
});

describe('cacheKeyer', () => {
  it('gives the keys existing caches hold: sha256 of the canonical JSON of every part', () => {
    const { source: _, ...rest } = base;
    const canonical = JSON.stringify([
      'glossa-cache-v1',
      base.source,
      'en',
      'es',
      'more',
      'a1',
      ['m', '1'],
      ['s', '3'],
      ['Be brief.'],
      base.context ?? null,
      base.modelType ?? null,
      base.tagHandlingVersion ?? null,
      base.engineFingerprint ?? null,
    ]);
    const expected = createHash('sha256').update(canonical).digest('hex');
    expect(cacheKey(base)).toBe(expected);
    expect(cacheKeyer(rest)(base.source)).toBe(expected);
    expect(cacheKeyer({ targetLang: 'de' })('  Hi\r\n')).toBe(cacheKey({ targetLang: 'de', source: 'Hi' }));
  });
});
