import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPseudoEngine } from '../src/engines/pseudo.js';
import type { EngineInput, TranslationEngine } from '../src/index.js';
import { startTestServer, type TestServer } from './helpers.js';

/** The real pseudo engine, with a record of the units each call received. */
function recordingPseudo(calls: string[][]): TranslationEngine {
  const engine = createPseudoEngine();
  return {
    ...engine,
    translate: (input: EngineInput) => {
      calls.push([...input.texts]);
      return engine.translate(input);
    },
  };
}

describe('engine output cache', () => {
  const calls: string[][] = [];
  const uncachedCalls: string[][] = [];
  let cached: TestServer;
  let uncached: TestServer;
  beforeAll(async () => {
    cached = await startTestServer({ engines: [recordingPseudo(calls)] });
    uncached = await startTestServer({ engines: [recordingPseudo(uncachedCalls)], engineCacheEntries: 0 });
  });
  afterAll(async () => {
    await cached.close();
    await uncached.close();
  });

  it('sends each unit to the engine once; same answers from the cache', async () => {
    const body = {
      text: ['One sentence. Two sentences.', 'Two sentences.'],
      target_lang: 'en-XA',
      source_lang: 'EN',
    };
    const first = await cached.translate(body);
    const second = await cached.translate(body);
    expect(second.data).toEqual(first.data);
    expect(calls).toEqual([['One sentence.', 'Two sentences.', 'Two sentences.']]);
    await cached.translate({ ...body, text: ['Two sentences. Three.'] });
    expect(calls.at(-1)).toEqual(['Three.']);
  });

  it('keys on markup mode and target: the same unit in another mode is translated again', async () => {
    calls.length = 0;
    await cached.translate({ text: ['Fresh words'], target_lang: 'en-XA', source_lang: 'EN' });
    await cached.translate({
      text: ['Fresh words'],
      target_lang: 'en-XA',
      source_lang: 'EN',
      tag_handling: 'xml',
    });
    await cached.translate({ text: ['Fresh words'], target_lang: 'ar-XB', source_lang: 'EN' });
    expect(calls).toEqual([['Fresh words'], ['Fresh words'], ['Fresh words']]);
  });

  it('engineCacheEntries 0 sends every request to the engine; billing is the same either way', async () => {
    const body = { text: ['Again and again'], target_lang: 'en-XA', source_lang: 'EN' };
    await uncached.translate(body);
    await uncached.translate(body);
    expect(uncachedCalls).toEqual([['Again and again'], ['Again and again']]);
    expect((await uncached.call('/v2/usage')).data.character_count).toBe(30);
  });
});

describe('engine answers that break the contract', () => {
  it('fake engine returning too few outputs (the real engines cannot): 503, nothing billed, no empty text', async () => {
    const pseudo = createPseudoEngine();
    const broken: TranslationEngine = {
      ...pseudo,
      translate: async (input) => (await pseudo.translate(input)).slice(1),
    };
    const t = await startTestServer({ engines: [broken] });
    try {
      const reply = await t.translate({ text: ['One.', 'Two.'], target_lang: 'en-XA', source_lang: 'EN' });
      expect(reply.status).toBe(503);
      expect(reply.data).toEqual({
        message: "Translation engine 'pseudo' failed: pseudo returned 1 outputs for 2 texts",
        code: 'engine_error',
      });
      expect((await t.call('/v2/usage')).data.character_count).toBe(0);
    } finally {
      await t.close();
    }
  });
});
