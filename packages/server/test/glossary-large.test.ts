/**
 * Issue 31, item 1: large glossaries within the limits stay bounded. Past `LARGE_GLOSSARY` entries, the
 * Apertium engine (real, Debian's apertium-eng-spa) is given only the entries the text may use, and terms
 * still inflect by lemma ("files" → "archivos") and match as written; a glossary whose compilation cannot
 * fit the memory budget is refused at upload with 503 and Retry-After, and the server goes on serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_GLOSSARY } from '../src/glossaries/candidates.js';
import { startTestServer, type TestServer } from './helpers.js';

/** `count` filler entries that no English text uses, and the terms of the test after them. */
const glossary = (count: number, terms: string) =>
  `${Array.from({ length: count }, (_, i) => `zq${i.toString(36)}v word${i}\tobjetivo${i}`).join('\n')}\n${terms}`;

describe('a glossary past LARGE_GLOSSARY entries', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimit: false });
  });
  afterAll(() => t.close());

  it('inflects a term by lemma and matches one of several words, as a small glossary does', async () => {
    const terms = 'file\tarchivo\nhard disk\tunidad rígida';
    const small = await t.glossary('en', 'es', terms);
    const large = await t.glossary('en', 'es', glossary(LARGE_GLOSSARY * 3, terms));
    const text = ['The files are ready.', 'Open the hard disk.'];
    const results: string[][] = [];
    for (const glossary_id of [small, large]) {
      const reply = await t.translate({ text, source_lang: 'EN', target_lang: 'ES', glossary_id });
      expect(reply.status, reply.text).toBe(200);
      results.push(reply.data.translations.map((item: { text: string }) => item.text));
    }
    expect(results[0]).toEqual(['Los archivos están a punto.', 'Abierto la unidad rígida.']);
    expect(results[1]).toEqual(results[0]);
  });
});

describe('a memory budget too small for a glossary', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimit: false, memoryBudgetMb: 64 });
  });
  afterAll(() => t.close());

  it('refuses its upload with 503 and Retry-After (the budget holds from the start), and serves the next request', async () => {
    const refused = await t.call('/v2/glossaries', {
      json: {
        name: 'g',
        source_lang: 'en',
        target_lang: 'es',
        entries: glossary(60_000, 'file\tarchivo'),
        entries_format: 'tsv',
      },
    });
    expect(refused.status, refused.text).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.data.message).toMatch(/more than this server's memory budget allows/);
    const id = await t.glossary('en', 'es', 'file\tarchivo');
    const next = await t.translate({
      text: ['The file.'],
      source_lang: 'EN',
      target_lang: 'ES',
      glossary_id: id,
    });
    expect(next.status).toBe(200);
    expect(next.data.translations[0].text).toBe('El archivo.');
  });
});
