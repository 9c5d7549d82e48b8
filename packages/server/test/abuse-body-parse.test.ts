/**
 * Issue 31: JSON bodies of THREAD_PARSE_BYTES and more are decoded and parsed on a thread, so a 10 MiB
 * glossary no longer holds the event loop while it is parsed. The answers are the same as when the event
 * loop parsed them: a value equal to JSON.parse's, and the same 400s for invalid UTF-8, an empty body,
 * invalid JSON and nesting deeper than a thread can hand back; bodies sent at once each get their own value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THREAD_PARSE_BYTES, threadParses } from '../src/http/body.js';
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
