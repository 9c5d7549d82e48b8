/**
 * Issue 31: JSON bodies of THREAD_PARSE_BYTES and more are decoded and parsed on a thread, so a 10 MiB
 * glossary no longer holds the event loop while it is parsed. The answers are the same as when the event
 * loop parsed them: a value equal to JSON.parse's, and the same 400s for invalid UTF-8, an empty body,
 * invalid JSON and nesting deeper than a thread can hand back; bodies sent at once each get their own value.
 * Form bodies (application/x-www-form-urlencoded) of that size too: the same entries as the inline parser
 * (repeated fields in order, `+` and percent-escapes decoded) and the same 400s for invalid UTF-8 and
 * malformed or non-UTF-8 percent-escapes. A large body goes to the thread as the chunks it came in, joined
 * there, not on the event loop; a body sent in chunks without a length gets the same 413 over the limit.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  FormBody,
  registerBodyParsers,
  setThreadParseBytes,
  THREAD_PARSE_BYTES,
  threadParses,
} from '../src/http/body.js';
import { startTestServer, type TestServer } from './helpers.js';

const JSON_TYPE = { 'content-type': 'application/json' };
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** TSV entries of about `bytes` bytes. */
function entries(bytes: number, tag: string): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${tag}term${i}\tobjetivo ${i} é`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n');
}

const glossary = (name: string, tsv: string) => ({
  name,
  source_lang: 'en',
  target_lang: 'es',
  entries: tsv,
  entries_format: 'tsv',
});

describe('large JSON bodies are parsed on a thread', () => {
  it('a body over the threshold becomes the same value (a glossary with every entry)', async () => {
    const tsv = entries(2 * THREAD_PARSE_BYTES, 'a');
    const body = JSON.stringify(glossary('large', tsv));
    expect(Buffer.byteLength(body)).toBeGreaterThan(THREAD_PARSE_BYTES);
    const before = threadParses.count;
    const created = await t.call('/v2/glossaries', { raw: body, headers: JSON_TYPE });
    expect(created.status, created.text).toBe(201);
    expect(threadParses.count).toBe(before + 1);
    expect(created.data.name).toBe('large');
    expect(created.data.entry_count).toBe(tsv.split('\n').length);
    const stored = await t.call(`/v2/glossaries/${created.data.glossary_id}/entries`, {
      headers: { accept: 'text/tab-separated-values' },
    });
    expect(stored.text.trim()).toBe(tsv);
  });

  it("a large body's chunks are joined on the thread, not on the event loop (with a length or chunked)", async () => {
    const tsv = entries(2 * THREAD_PARSE_BYTES, 'c');
    const body = JSON.stringify(glossary('chunks', tsv));
    const pieces = (text: string) =>
      new ReadableStream({
        start(controller) {
          const bytes = Buffer.from(text);
          for (let at = 0; at < bytes.length; at += 16 * 1024)
            controller.enqueue(bytes.subarray(at, at + 16 * 1024));
          controller.close();
        },
      });
    const post = (path: string, text: string) =>
      fetch(`${t.server.url}${path}`, {
        method: 'POST',
        headers: { ...JSON_TYPE, authorization: `Service-Auth-Key ${t.server.devKey}` },
        body: pieces(text),
        duplex: 'half',
      } as RequestInit);
    const joined: number[] = [];
    const concat = Buffer.concat;
    const spy = vi.spyOn(Buffer, 'concat').mockImplementation((list, length) => {
      const result = concat(list, length);
      if (result.length >= THREAD_PARSE_BYTES) joined.push(result.length);
      return result;
    });
    try {
      const before = threadParses.count;
      const withLength = await t.call('/v2/glossaries', { raw: body, headers: JSON_TYPE });
      expect(withLength.status, withLength.text).toBe(201);
      const chunked = await post('/v2/glossaries', body);
      expect(chunked.status, await chunked.text()).toBe(201);
      expect(threadParses.count).toBe(before + 2);
      expect(joined).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    // Over translate's limit (128 KiB) without a content-length: the same 413 as with one.
    const over = await post(
      '/v2/translate',
      JSON.stringify({ text: ['a'.repeat(200 * 1024)], target_lang: 'de' }),
    );
    expect(over.status).toBe(413);
    expect(((await over.json()) as { code: string }).code).toBe('request_too_large');
  });

  it('bodies sent at once each get their own value', async () => {
    const sizes = [
      THREAD_PARSE_BYTES,
      3 * THREAD_PARSE_BYTES,
      1000,
      2 * THREAD_PARSE_BYTES,
      5 * THREAD_PARSE_BYTES,
    ];
    const replies = await Promise.all(
      sizes.map((size, k) =>
        t.call('/v2/glossaries', {
          raw: JSON.stringify(glossary(`at-once-${k}`, entries(size, `k${k}x`))),
          headers: JSON_TYPE,
        }),
      ),
    );
    for (const [k, reply] of replies.entries()) {
      expect(reply.status, reply.text).toBe(201);
      expect(reply.data.name).toBe(`at-once-${k}`);
      expect(reply.data.entry_count).toBe(entries(sizes[k]!, `k${k}x`).split('\n').length);
    }
  });

  it('invalid UTF-8, an empty body and invalid JSON get the same 400 as a small body', async () => {
    const padding = ' '.repeat(THREAD_PARSE_BYTES);
    const cases: [string, Uint8Array | string, Uint8Array | string][] = [
      [
        'invalid UTF-8',
        Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from(`"}${padding}`)]),
        Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      ],
      ['empty', padding, ' '],
      ['invalid JSON', `${padding}{"name": "x",`, '{"name": "x",'],
    ];
    for (const [what, large, small] of cases) {
      const [big, little] = await Promise.all(
        [large, small].map((raw) => t.call('/v2/glossaries', { raw, headers: JSON_TYPE })),
      );
      expect(big!.status, `${what}: ${big!.text}`).toBe(400);
      expect(big!.data.error?.code ?? big!.data.code, what).toBe(
        little!.data.error?.code ?? little!.data.code,
      );
      if (what === 'invalid JSON') {
        expect(big!.data.message).toMatch(/^Request body is not valid JSON: /);
        let reason = '';
        try {
          JSON.parse(`${padding}{"name": "x",`);
        } catch (error) {
          reason = (error as Error).message;
        }
        expect(big!.data.message).toBe(`Request body is not valid JSON: ${reason}`);
      } else expect(big!.data.message, what).toBe(little!.data.message);
    }
  });

  it('JSON nested 300,000 deep (over the threshold) is a 400, and the server goes on', async () => {
    const raw = `${'['.repeat(300_000)}${']'.repeat(300_000)}`;
    expect(raw.length).toBeGreaterThan(THREAD_PARSE_BYTES);
    const reply = await t.call('/v2/glossaries', { raw, headers: JSON_TYPE });
    expect(reply.status, reply.text).toBe(400);
    const after = await t.call('/v2/glossaries', {
      raw: JSON.stringify(glossary('after', entries(THREAD_PARSE_BYTES, 'z'))),
      headers: JSON_TYPE,
    });
    expect(after.status, after.text).toBe(201);
  });
});

const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * A form body of at least `bytes` bytes with what the form parser must get right: `text` repeated (its order
 * kept), `+` for a space and `%2B` for a plus, percent-escapes of 2-, 3- and 4-byte UTF-8, raw UTF-8, `=` in
 * a value, `%26` in a name, empty parts (`&&`), a name with no `=`, an empty value, and a first name that
 * begins with an escaped byte-order mark (kept).
 */
function formBody(bytes: number): string {
  const parts = ['%EF%BB%BFtarget_lang=DE', 'source_lang=EN'];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part =
      i % 7 === 3
        ? `flag${i}&&a%26b=${i}&empty=`
        : `text=line+${i}+caf%C3%A9+%E2%9C%93+%F0%9F%98%80+a%2Bb+x=y+日本+é%20z`;
    parts.push(part);
    size += Buffer.byteLength(part) + 1;
  }
  return parts.join('&');
}

describe('large form bodies are parsed on a thread', () => {
  it('a 10 MiB form body gives the same entries on the thread as on the event loop', async () => {
    const app = Fastify({ bodyLimit: 64 * 1024 * 1024 });
    registerBodyParsers(app);
    let received: unknown;
    app.post('/form', async (request) => {
      received = request.body;
      return {};
    });
    const raw = Buffer.from(formBody(10 * 1024 * 1024));
    expect(raw.length).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    const parse = async (onThread: boolean) => {
      setThreadParseBytes(onThread ? THREAD_PARSE_BYTES : Number.POSITIVE_INFINITY);
      try {
        const before = threadParses.count;
        const reply = await app.inject({ method: 'POST', url: '/form', payload: raw, headers: FORM_TYPE });
        expect(reply.statusCode, reply.body).toBe(200);
        expect(threadParses.count).toBe(before + (onThread ? 1 : 0));
        expect(received).toBeInstanceOf(FormBody);
        return [...(received as FormBody).params];
      } finally {
        setThreadParseBytes(THREAD_PARSE_BYTES);
      }
    };
    try {
      const inline = await parse(false);
      const threaded = await parse(true);
      expect(threaded.length).toBe(inline.length);
      expect(threaded).toEqual(inline);
      // What the inline parser gives, spelled out on a few entries.
      expect(threaded.slice(0, 3)).toEqual([
        ['\uFEFFtarget_lang', 'DE'],
        ['source_lang', 'EN'],
        ['text', 'line 0 café ✓ 😀 a+b x=y 日本 é z'],
      ]);
      expect(threaded.slice(5, 8)).toEqual([
        ['flag3', ''],
        ['a&b', '3'],
        ['empty', ''],
      ]);
      expect(threaded.filter(([name]) => name === 'text').map(([, value]) => value.split(' ')[1])).toEqual(
        inline.filter(([name]) => name === 'text').map(([, value]) => value.split(' ')[1]),
      );
    } finally {
      await app.close();
    }
  });

  it('a form glossary over the threshold is created with every entry', async () => {
    const tsv = entries(2 * THREAD_PARSE_BYTES, 'f');
    const raw = `name=large+form&source_lang=en&target_lang=es&entries_format=tsv&entries=${encodeURIComponent(tsv).replace(/%20/g, '+')}`;
    expect(Buffer.byteLength(raw)).toBeGreaterThan(THREAD_PARSE_BYTES);
    const before = threadParses.count;
    const created = await t.call('/v2/glossaries', { raw, headers: FORM_TYPE });
    expect(created.status, created.text).toBe(201);
    expect(threadParses.count).toBe(before + 1);
    expect(created.data.name).toBe('large form');
    expect(created.data.entry_count).toBe(tsv.split('\n').length);
    const stored = await t.call(`/v2/glossaries/${created.data.glossary_id}/entries`, {
      headers: { accept: 'text/tab-separated-values' },
    });
    expect(stored.text.trim()).toBe(tsv);
  });

  it('invalid UTF-8 and malformed or non-UTF-8 percent-escapes get the same 400 as a small body', async () => {
    const padding = `name=${'x'.repeat(THREAD_PARSE_BYTES)}&source_lang=en`;
    const cases: [string, Uint8Array | string][] = [
      [
        'invalid UTF-8',
        Buffer.concat([Buffer.from('entries=a'), Buffer.from([0xff, 0xfe]), Buffer.from('b')]),
      ],
      ['a malformed percent-escape', 'entries=100%zz'],
      ['a lone percent sign', 'entries=100%'],
      ['a percent-escape of invalid UTF-8', 'entries=%FF%FE'],
      ['a truncated UTF-8 sequence', 'entries=%E2%9C'],
      ['a bad escape in a name', 'entr%C3ies=x'],
    ];
    for (const [what, tail] of cases) {
      const large = Buffer.concat([Buffer.from(`${padding}&`), Buffer.from(tail)]);
      const small = Buffer.concat([Buffer.from('name=x&'), Buffer.from(tail)]);
      const before = threadParses.count;
      const [big, little] = await Promise.all(
        [large, small].map((raw) => t.call('/v2/glossaries', { raw, headers: FORM_TYPE })),
      );
      expect(threadParses.count, what).toBe(before + 1);
      expect(little!.status, `${what}: ${little!.text}`).toBe(400);
      expect(big!.status, `${what}: ${big!.text}`).toBe(400);
      expect(big!.data, what).toEqual(little!.data);
    }
  });
});
