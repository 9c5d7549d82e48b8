import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, status, upload, waitDone } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';
import { documentRow, expireDocument, hasStoredBytes } from './storage-probe.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('document lifecycle', () => {
  it('uploads (32-hex id, 64-hex key), reports done with billed characters, downloads once, then 404', async () => {
    const uploaded = await upload(t, 'a.txt', 'Hello world.\nThe red car is fast.\n', {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    expect(uploaded.status).toBe(200);
    expect(uploaded.data.document_id).toMatch(/^[0-9a-f]{32}$/);
    expect(uploaded.data.document_key).toMatch(/^[0-9a-f]{64}$/);
    const final = await waitDone(t, uploaded.data);
    expect(final).toEqual({ document_id: uploaded.data.document_id, status: 'done', billed_characters: 34 });
    const result = await download(t, uploaded.data);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(result.headers.get('content-disposition')).toContain('filename="a.txt"');
    expect(result.bytes.toString()).toMatch(/^Hola mundo\.\nEl coche rojo es [^\n]+\.\n$/i);
    expect((await download(t, uploaded.data)).status).toBe(404);
    expect((await status(t, uploaded.data)).status).toBe(404);
    expect(await hasStoredBytes(t, uploaded.data.document_id)).toBe(false);
  });

  it('a document in its target language is accepted and reported as a failed job, unbilled', async () => {
    for (const fields of [{ target_lang: 'ES' }, { target_lang: 'ES', source_lang: 'es' }]) {
      const uploaded = await upload(t, 'same.txt', 'La casa es grande y el coche es rojo.', fields);
      expect(uploaded.status).toBe(200);
      const reply = await status(t, uploaded.data);
      expect(reply.data).toMatchObject({
        document_id: uploaded.data.document_id,
        status: 'error',
        error_message: 'Source and target language are equal.',
      });
    }
  });

  it('the key is stored only as a hash', async () => {
    const uploaded = await upload(t, 'k.txt', 'Some text.');
    await waitDone(t, uploaded.data);
    const row = await documentRow(t, uploaded.data.document_id);
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(uploaded.data.document_key);
    expect(row!.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a result not yet translated is 503 document_not_ready; status says queued or translating with seconds_remaining', async () => {
    // Every line its own sentences: nothing comes from the engine cache, so the job takes a while.
    const long = Array.from(
      { length: 3000 },
      (_, i) => `The red car ${i} is fast. The house ${i} is big and the garden is green.\n`,
    ).join('');
    const uploaded = await upload(t, 'long.txt', long, { target_lang: 'ES', source_lang: 'EN' });
    expect(uploaded.status).toBe(200);
    const first = await status(t, uploaded.data);
    expect(['queued', 'translating']).toContain(first.data.status);
    expect(Number.isInteger(first.data.seconds_remaining)).toBe(true);
    const early = await download(t, uploaded.data);
    expect(early.status).toBe(503);
    expect(JSON.parse(early.bytes.toString()).code).toBe('document_not_ready');
    expect((await waitDone(t, uploaded.data, 120_000)).status).toBe('done');
  }, 130_000);

  it('wrong key, wrong id and another account: 404', async () => {
    const uploaded = await upload(t, 'b.txt', 'Hi there.');
    await waitDone(t, uploaded.data);
    const wrongKey = { ...uploaded.data, document_key: '0'.repeat(64) };
    expect((await status(t, wrongKey)).status).toBe(404);
    expect((await download(t, wrongKey)).status).toBe(404);
    expect((await status(t, { ...uploaded.data, document_id: 'f'.repeat(32) })).status).toBe(404);
    const other = await t.server.createAccount({ plan: 'paid' });
    expect((await status(t, uploaded.data, other.key)).status).toBe(404);
    expect((await download(t, uploaded.data, other.key)).status).toBe(404);
    expect((await download(t, uploaded.data)).status).toBe(200);
  });

  it('malformed id or key: 400', async () => {
    expect((await status(t, { document_id: 'xyz', document_key: '0'.repeat(64) })).status).toBe(400);
    expect((await status(t, { document_id: 'f'.repeat(32), document_key: 'short' })).status).toBe(400);
  });

  it('an expired document is 404 and its files are deleted', async () => {
    const uploaded = await upload(t, 'c.txt', 'Expiring text.');
    await waitDone(t, uploaded.data);
    await expireDocument(t, uploaded.data.document_id);
    expect(await hasStoredBytes(t, uploaded.data.document_id)).toBe(true);
    expect((await status(t, uploaded.data)).status).toBe(404);
    expect(await hasStoredBytes(t, uploaded.data.document_id)).toBe(false);
    expect(await documentRow(t, uploaded.data.document_id)).toBeUndefined();
  });

  it('works on the free plan listener with a free key', async () => {
    const free = await t.server.createAccount({ plan: 'free' });
    const uploaded = await upload(t, 'f.txt', 'Free text.', undefined, {
      key: free.key,
      base: t.server.freeUrl,
    });
    expect(uploaded.status).toBe(200);
  });
});

describe('document upload errors', () => {
  const cases: [string, string | Uint8Array, Record<string, string>, number, RegExp][] = [
    ['a.exe', 'x', { target_lang: 'ES' }, 400, /^Invalid file data: unsupported file extension '\.exe'/],
    ['noextension', 'x', { target_lang: 'ES' }, 400, /no extension/],
    ['a.txt', 'Hello.', {}, 400, /target_lang/],
    ['a.txt', 'Hello.', { target_lang: 'XX' }, 400, /target_lang/],
    ['a.txt', 'Hello.', { target_lang: 'ES', source_lang: 'JA' }, 400, /not supported/],
    ['a.txt', 'Hello.', { target_lang: 'ES', output_format: 'docx' }, 400, /output_format/],
    // Unknown fields are ignored (wire decisions); a known one next to them is still validated.
    ['a.txt', 'Hello.', { target_lang: 'ES', unknown_field: '1', formality: 'very' }, 400, /'formality'/],
    ['a.txt', new Uint8Array([0xff, 0xfe, 0x41]), { target_lang: 'ES' }, 400, /not valid UTF-8/],
    ['a.txt', '', { target_lang: 'ES' }, 400, /empty/],
    ['a.json', '{"a": ', { target_lang: 'en-XA' }, 400, /JSON document is not valid/],
    ['a.srt', 'no timings here', { target_lang: 'en-XA' }, 400, /no cue timing/],
    [
      'a.xlf',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><xliff version="1.2"/>',
      { target_lang: 'en-XA' },
      400,
      /DOCTYPE/,
    ],
    ['a.xlf', '<xliff version="1.2"><file>', { target_lang: 'en-XA' }, 400, /not well-formed/],
    [
      'a.txt',
      'Hello.',
      { target_lang: 'ES', glossary_id: '00000000-0000-4000-8000-000000000000' },
      404,
      /Glossary/,
    ],
  ];
  it.each(cases)('%s %j %j → %i', async (name, bytes, fields, code, message) => {
    const reply = await upload(t, name, bytes, fields);
    expect(reply.status).toBe(code);
    expect(reply.data.message).toMatch(message);
  });

  it('a file over the format limit: 413', async () => {
    const reply = await upload(t, 'big.txt', 'a'.repeat(1024 * 1024 + 1), { target_lang: 'ES' });
    expect(reply.status).toBe(413);
    expect(reply.data.message).toMatch(/TXT documents may be at most 1048576 bytes/);
  });

  it('a JSON body instead of multipart: 415; no file part: 400', async () => {
    const json = await t.call('/v2/document', { json: { target_lang: 'ES' } });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.append('target_lang', 'ES');
    const response = await fetch(`${t.server.url}/v2/document`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Service-Auth-Key ${t.server.devKey}` },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/'file' is required/);
  });

  it('no key: 403', async () => {
    const reply = await upload(t, 'a.txt', 'Hello.', { target_lang: 'ES' }, { key: 'not-a-key' });
    expect(reply.status).toBe(403);
  });

  it('the quota: 456 when the document does not fit, nothing queued', async () => {
    const small = await t.server.createAccount({ plan: 'paid', characterLimit: 20 });
    const reply = await upload(
      t,
      'q.txt',
      'This sentence is longer than twenty characters.',
      { target_lang: 'en-XA' },
      { key: small.key },
    );
    expect(reply.status).toBe(456);
    const fits = await upload(t, 'q.txt', 'Short one.', { target_lang: 'en-XA' }, { key: small.key });
    expect(fits.status).toBe(200);
    const usage = await t.call('/v2/usage', { key: small.key });
    expect(usage.data.character_count).toBe(10);
  });
});
