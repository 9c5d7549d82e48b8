/**
 * Issue 31, item 1: large glossaries within the limits stay bounded. Past `LARGE_GLOSSARY` entries, the
 * Apertium engine (real, Debian's apertium-eng-spa) is given only the entries the text may use, and terms
 * still inflect by lemma ("files" → "archivos") and match as written; a glossary whose compilation cannot
 * fit the memory budget is refused at upload with 503 and Retry-After, and the server goes on serving.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_GLOSSARY } from '../src/glossaries/candidates.js';
import { DB_THREAD_CHARS, dbThreadStats, threadWritesSettled } from '../src/glossaries/db-thread.js';
import { createGlossaryStore, parseTsvBytesInSlices, parseTsvInSlices } from '../src/glossaries/store.js';
import { openResourceDatabase } from '../src/storage/resource-db.js';
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

describe('a dictionary past DB_THREAD_CHARS (written and read on the database thread)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimit: false });
  });
  afterAll(() => t.close());
  const onSqlite = !process.env.GLOSSA_TEST_POSTGRES;

  it('keeps every byte (multi-byte and astral characters across slices), merges with PATCH and replaces with PUT', async () => {
    // Lines of 1- to 4-byte characters, so that slice boundaries fall inside them.
    const lines = Array.from({ length: 12_000 }, (_, i) => `t${i}é😀${'ß'.repeat(i % 7)} x\tz${i}中😀`);
    const tsv = lines.join('\n');
    expect(tsv.length).toBeGreaterThan(DB_THREAD_CHARS);
    const jobs = dbThreadStats.jobs;
    const created = await t.call('/v3/glossaries', {
      json: {
        name: 'big',
        dictionaries: [{ source_lang: 'en', target_lang: 'es', entries: tsv, entries_format: 'tsv' }],
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.data.dictionaries).toEqual([
      { source_lang: 'en', target_lang: 'es', entry_count: 12_000 },
    ]);
    const id = created.data.glossary_id;
    const read = async () =>
      (await t.call(`/v3/glossaries/${id}/entries?source_lang=en&target_lang=es`)).data.dictionaries[0]
        .entries;
    expect(await read()).toBe(tsv);
    if (onSqlite) expect(dbThreadStats.jobs - jobs).toBe(2);

    // PATCH merges on the thread: a source given again takes its new target, a new one is added.
    const patched = await t.call(`/v3/glossaries/${id}`, {
      method: 'PATCH',
      json: {
        dictionaries: [
          {
            source_lang: 'en',
            target_lang: 'es',
            entries: `${lines[5]!.split('\t')[0]}\tnuevo\nextra\tmás`,
            entries_format: 'tsv',
          },
        ],
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const merged = [...lines];
    merged[5] = `${lines[5]!.split('\t')[0]}\tnuevo`;
    merged.push('extra\tmás');
    expect(await read()).toBe(merged.join('\n'));
    if (onSqlite) expect(dbThreadStats.jobs - jobs).toBe(4);

    const put = await t.call(`/v3/glossaries/${id}/dictionaries`, {
      method: 'PUT',
      json: {
        source_lang: 'en',
        target_lang: 'es',
        entries: lines.slice(0, 11_000).join('\n'),
        entries_format: 'tsv',
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.data.entry_count).toBe(11_000);
    expect(await read()).toBe(lines.slice(0, 11_000).join('\n'));
    const fetched = await t.call(`/v3/glossaries/${id}`);
    expect(fetched.data.dictionaries).toEqual([
      { source_lang: 'en', target_lang: 'es', entry_count: 11_000 },
    ]);
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

describe('a stored dictionary read from its UTF-8 bytes a slice of whole lines at a time', () => {
  it('gives the entries parseTsvInSlices gives from the decoded string: slices cut between lines, a line longer than a slice, a trailing newline', async () => {
    const long = `${'é'.repeat(200_000)}\t${'😀'.repeat(100_000)}`;
    const lines = Array.from({ length: 40_000 }, (_, i) => `t${i}é😀${'ß'.repeat(i % 7)}\tz${i}中`);
    for (const tsv of [
      '',
      'a\tb',
      'a\tb\n',
      'no tab\nx\ty\n\n',
      [...lines.slice(0, 20_000), long, ...lines.slice(20_000)].join('\n'),
      `${lines.join('\n')}\n`,
    ]) {
      const entries = await parseTsvBytesInSlices(new TextEncoder().encode(tsv));
      const before = await parseTsvInSlices(tsv);
      expect(entries.length).toBe(before.length);
      expect(entries).toEqual(before);
    }
  });
});

describe("the event loop's own glossary writes while the database thread writes", () => {
  it('wait for the thread asynchronously (after its write, in order), not on the SQLite lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'glossa-thread-writes-'));
    try {
      const db = openResourceDatabase(dir);
      const store = createGlossaryStore(db);
      const tsv = Array.from({ length: 20_000 }, (_, i) => `term${i}\tobjetivo${i}`).join('\n');
      expect(tsv.length).toBeGreaterThan(DB_THREAD_CHARS);
      const order: string[] = [];
      const large = store
        .create('a', 'large', [{ source: 'en', target: 'es', tsv, entryCount: 20_000 }])
        .then(() => order.push('large'));
      // The large write is sent to the thread once its text is encoded; the small one is asked for meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      const small = store
        .create('b', 'small', [{ source: 'en', target: 'es', tsv: 'a\tb', entryCount: 1 }])
        .then(() => order.push('small'));
      await Promise.all([large, small]);
      expect(order).toEqual(['large', 'small']);
      expect(threadWritesSettled(db.name)).toBeUndefined();
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
