/**
 * Issue 31: a large glossary's entries never become a string of the event loop's heap. A JSON body parsed on
 * the parsing thread hands the route its `entries` as UTF-8 bytes (`largeText`), the glossary thread parses
 * them and answers the canonical TSV as bytes, the database thread writes those, and the word index is built
 * from the bytes the database thread read: the event loop encodes no text for a thread on the way
 * (`dbThreadStats.encoded`). The answers are the ones of the string path (the body parsed on the event loop):
 * the same glossaries, entries, counts, translations and 400s.
 */
import { MAX_GLOSSARY_BYTES, parseGlossaryEntries } from '@glossa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_GLOSSARY } from '../src/glossaries/candidates.js';
import { dbThreadStats } from '../src/glossaries/db-thread.js';
import { setThreadParseBytes, THREAD_PARSE_BYTES, threadParses } from '../src/http/body.js';
import { type Reply, startTestServer, type TestServer } from './helpers.js';

const onSqlite = !process.env.GLOSSA_TEST_POSTGRES;
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
});
afterAll(() => t.close());

/** `count` filler lines of 1- to 4-byte characters (no English text uses them), then `terms`. */
const tsv = (count: number, terms: string, tag = 'a') =>
  `${Array.from({ length: count }, (_, i) => `zq${tag}${i.toString(36)}é😀${'ß'.repeat(i % 5)} v\tobjetivo${i}中`).join('\n')}\n${terms}`;

const TERMS = 'file\tarchivo\nhard disk\tunidad rígida';
const BIG = tsv(30_000, TERMS);

const dictionary = (entries: string, target = 'es', format = 'tsv') => ({
  source_lang: 'en',
  target_lang: target,
  entries,
  entries_format: format,
});

/** What a step answered, without the ids and times that differ between two runs. */
const answer = (reply: Reply) => ({
  status: reply.status,
  data:
    typeof reply.data === 'object' && reply.data !== null
      ? { ...reply.data, glossary_id: undefined, creation_time: undefined }
      : reply.data,
});

/** Every glossary route with large entries, and what it answered; `large`: texts that came as bytes. */
async function steps(): Promise<{ answers: unknown[]; large: number; encoded: number }> {
  const [large, encoded] = [threadParses.largeTexts, dbThreadStats.encoded];
  const answers: unknown[] = [];
  const v2 = await t.call('/v2/glossaries', { json: { name: 'v2', ...dictionary(BIG) } });
  answers.push(answer(v2));
  const entries = await t.call(`/v2/glossaries/${v2.data.glossary_id}/entries`, {
    headers: { accept: 'text/tab-separated-values' },
  });
  answers.push(entries.text === BIG);
  // Applied through Apertium: the glossary is past LARGE_GLOSSARY entries (its word index from the bytes read).
  const translated = await t.translate({
    text: ['The files are ready.', 'Open the hard disk.'],
    source_lang: 'EN',
    target_lang: 'ES',
    glossary_id: v2.data.glossary_id,
  });
  answers.push(answer(translated));

  // Not canonical (CRLF, padding, blank lines, CSV): stored canonical.
  const loose = `  ${BIG.split('\n').join(' \r\n')}\n\n`;
  const csv = BIG.split('\n')
    .map((line) => `"${line.replace('\t', '","')}",en,fr`)
    .join('\n');
  const v3 = await t.call('/v3/glossaries', {
    json: { name: 'v3', dictionaries: [dictionary(loose), dictionary(csv, 'fr', 'csv')] },
  });
  answers.push(answer(v3));
  for (const target of ['es', 'fr']) {
    const read = await t.call(
      `/v3/glossaries/${v3.data.glossary_id}/entries?source_lang=en&target_lang=${target}`,
    );
    answers.push(read.data.dictionaries[0].entries === BIG);
  }
  const id = v3.data.glossary_id;
  const patched = await t.call(`/v3/glossaries/${id}`, {
    method: 'PATCH',
    json: { name: 'renamed', dictionaries: [dictionary(tsv(20_000, 'file\tfichero', 'b'))] },
  });
  answers.push(answer(patched));
  const put = await t.call(`/v3/glossaries/${id}/dictionaries`, {
    method: 'PUT',
    json: dictionary(tsv(25_000, 'disk\tdisco', 'c'), 'fr'),
  });
  answers.push(answer(put));
  const read = await t.call(`/v3/glossaries/${id}/entries?source_lang=en&target_lang=es`);
  answers.push(read.data.dictionaries[0].entries.split('\n').length);

  // The 400s: a problem on a line deep in the text, a pair given twice, entries over the limit.
  const lines = BIG.split('\n');
  const broken = [...lines.slice(0, 20_000), 'no tab here', ...lines.slice(20_000)].join('\n');
  answers.push(answer(await t.call('/v2/glossaries', { json: { name: 'bad', ...dictionary(broken) } })));
  const twice = { name: 'twice', dictionaries: [dictionary(BIG), dictionary(loose)] };
  answers.push(answer(await t.call('/v3/glossaries', { json: twice })));
  const huge = tsv(Math.ceil(MAX_GLOSSARY_BYTES / 30), TERMS);
  expect(Buffer.byteLength(huge)).toBeGreaterThan(MAX_GLOSSARY_BYTES);
  answers.push(answer(await t.call('/v2/glossaries', { json: { name: 'huge', ...dictionary(huge) } })));

  await t.call(`/v3/glossaries/${id}`, { method: 'DELETE' });
  await t.call(`/v2/glossaries/${v2.data.glossary_id}`, { method: 'DELETE' });
  return {
    answers,
    large: threadParses.largeTexts - large,
    encoded: dbThreadStats.encoded - encoded,
  };
}

describe('large entries of a JSON body', () => {
  it('stay bytes from the body to the database and to the word index, answering what strings answer', async () => {
    expect(BIG.split('\n').length).toBeGreaterThan(LARGE_GLOSSARY);
    expect(Buffer.byteLength(JSON.stringify({ entries: BIG }))).toBeGreaterThan(THREAD_PARSE_BYTES);
    const asBytes = await steps();
    // Every large text came as bytes (v2, v3's two, PATCH, PUT, the broken one, the pair twice, the huge one).
    expect(asBytes.large).toBe(9);
    // The TSV written (and the one the word index read) were never encoded from a string here.
    if (onSqlite) expect(asBytes.encoded).toBe(0);

    // The string path: the same bodies parsed on the event loop.
    setThreadParseBytes(Number.POSITIVE_INFINITY);
    let asStrings: Awaited<ReturnType<typeof steps>>;
    try {
      asStrings = await steps();
    } finally {
      setThreadParseBytes(THREAD_PARSE_BYTES);
    }
    expect(asStrings.large).toBe(0);
    expect(asBytes.answers).toEqual(asStrings.answers);

    const expected = parseGlossaryEntries(
      [...BIG.split('\n').slice(0, 20_000), 'no tab here'].join('\n'),
      'tsv',
    );
    expect(asBytes.answers[1]).toBe(true);
    const translated = asBytes.answers[2] as { data: { translations: { text: string }[] } };
    expect(translated.data.translations.map((item) => item.text)).toEqual([
      'Los archivos están a punto.',
      'Abierto la unidad rígida.',
    ]);
    expect(asBytes.answers.slice(-3)).toEqual([
      {
        status: 400,
        data: expect.objectContaining({
          message: expected.ok ? '' : expected.message,
          detail: expected.ok ? '' : expected.detail,
        }),
      },
      { status: 400, data: expect.objectContaining({ message: 'Dictionary en-es is given twice.' }) },
      {
        status: 400,
        data: expect.objectContaining({
          message: 'Glossary too large.',
          detail: `Entries exceed ${MAX_GLOSSARY_BYTES} bytes.`,
        }),
      },
    ]);
  }, 120_000);
});

describe('large entries of a form body', () => {
  it('come as bytes too (v2 `entries`, v3 `dictionaries[0].entries`), answering what strings answer', async () => {
    const forms = async () => {
      const large = threadParses.largeTexts;
      const answers: unknown[] = [];
      const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
      const v2 = await t.call('/v2/glossaries', { form: form({ name: 'form', ...dictionary(BIG) }) });
      answers.push(answer(v2));
      const v3 = await t.call('/v3/glossaries', {
        form: form({
          name: 'form3',
          'dictionaries[0].source_lang': 'en',
          'dictionaries[0].target_lang': 'fr',
          'dictionaries[0].entries': BIG,
          'dictionaries[0].entries_format': 'tsv',
        }),
      });
      answers.push(answer(v3));
      const read = await t.call(
        `/v3/glossaries/${v3.data.glossary_id}/entries?source_lang=en&target_lang=fr`,
      );
      answers.push(read.data.dictionaries[0].entries === BIG);
      for (const id of [v2.data.glossary_id, v3.data.glossary_id])
        await t.call(`/v3/glossaries/${id}`, { method: 'DELETE' });
      return { answers, large: threadParses.largeTexts - large };
    };
    const asBytes = await forms();
    expect(asBytes.large).toBe(2);
    expect(asBytes.answers).toContainEqual(expect.objectContaining({ status: 201 }));
    setThreadParseBytes(Number.POSITIVE_INFINITY);
    let asStrings: Awaited<ReturnType<typeof forms>>;
    try {
      asStrings = await forms();
    } finally {
      setThreadParseBytes(THREAD_PARSE_BYTES);
    }
    expect(asStrings.large).toBe(0);
    expect(asBytes.answers).toEqual(asStrings.answers);
    expect(asBytes.answers.at(-1)).toBe(true);
  }, 60_000);
});
