/**
 * More than 1,000 generated bad requests against a real server: broken JSON and form bodies, wrong types,
 * huge arrays, deep nesting, invalid UTF-8, wrong content types, oversize bodies, garbage queries and
 * headers. Every answer must be a 4xx in the interface's shape with a trace id; the server must stay up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, TRACE_ID } from './helpers.js';
import { random } from './test-utils.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ rateLimit: false });
});
afterAll(() => t.close());

interface BadRequest {
  label: string;
  path: string;
  method?: string;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const VALID = { text: ['Hello <b>world</b>'], target_lang: 'en-XA', source_lang: 'EN', tag_handling: 'xml' };
const WRONG_VALUES: unknown[] = [
  null, 0, -1, 1.5, true, {}, [], [null], [1], 'x'.repeat(5000), '\u0000', '../../etc', { $gt: '' },
  ['0b7e5f5a-0000-4000-8000-000000000001', 7], 1e308, '😀'.repeat(10), '<x id="1"/>',
]; // biome-ignore format: a value list
const FIELDS = [
  'text', 'target_lang', 'source_lang', 'context', 'show_billed_characters', 'split_sentences', 'preserve_formatting',
  'formality', 'model_type', 'glossary_id', 'glossary_ids', 'style_id', 'translation_memory_id',
  'translation_memory_threshold', 'show_translation_memory_matches', 'custom_instructions', 'tag_handling',
  'tag_handling_version', 'outline_detection', 'splitting_tags', 'non_splitting_tags', 'ignore_tags', '__proto__',
  'constructor',
]; // biome-ignore format: a field list

function generate(): BadRequest[] {
  const next = random(20260522);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const requests: BadRequest[] = [];
  const valid = JSON.stringify(VALID);

  // Broken JSON: every truncation point of a valid body, plus random byte flips.
  for (let cut = 0; cut < valid.length; cut++) {
    requests.push({
      label: 'truncated json',
      path: '/v2/translate',
      body: valid.slice(0, cut),
      headers: JSON_TYPE,
    });
  }
  for (let i = 0; i < 150; i++) {
    const chars = [...valid];
    for (let n = 0; n < 3; n++)
      chars[Math.floor(next() * chars.length)] = pick(['{', '}', '"', ',', ':', '[', ']', '\\', ' ']);
    requests.push({ label: 'mangled json', path: '/v2/translate', body: chars.join(''), headers: JSON_TYPE });
  }
  // Wrong types for every field.
  for (const field of FIELDS) {
    for (const value of WRONG_VALUES) {
      const body = `{${JSON.stringify(field)}:${JSON.stringify(value)},"text":${field === 'text' ? JSON.stringify(value) : '["a"]'},"target_lang":${field === 'target_lang' ? JSON.stringify(value) : '"xx"'}}`;
      requests.push({ label: `wrong type ${field}`, path: '/v2/translate', body, headers: JSON_TYPE });
    }
  }
  // Huge arrays and deep nesting (under and over the size limit), non-object roots.
  requests.push({
    label: 'huge text array',
    path: '/v2/translate',
    body: JSON.stringify({ text: Array(60_000).fill(''), target_lang: 'xx' }),
    headers: JSON_TYPE,
  });
  requests.push({
    label: 'huge glossary_ids',
    path: '/v2/translate',
    body: JSON.stringify({
      ...VALID,
      glossary_ids: Array(3000).fill('0b7e5f5a-0000-4000-8000-000000000001'),
    }),
    headers: JSON_TYPE,
  });
  requests.push({
    label: 'huge instructions',
    path: '/v2/translate',
    body: JSON.stringify({ ...VALID, custom_instructions: Array(5000).fill('x') }),
    headers: JSON_TYPE,
  });
  requests.push({
    label: 'deep json',
    path: '/v2/translate',
    body: `${'['.repeat(60_000)}${']'.repeat(60_000)}`,
    headers: JSON_TYPE,
  });
  requests.push({
    label: 'deep json object',
    path: '/v2/translate',
    body: `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
    headers: JSON_TYPE,
  });
  requests.push({
    label: 'many tags',
    path: '/v2/translate',
    body: JSON.stringify({ ...VALID, text: ['<b>x</b> '.repeat(12_000)], target_lang: 'xx' }),
    headers: JSON_TYPE,
  });
  for (const root of ['[]', '"text"', '1', 'true', 'null', '[{"text":["a"]}]']) {
    requests.push({ label: `json root ${root}`, path: '/v2/translate', body: root, headers: JSON_TYPE });
  }
  // Invalid UTF-8 in JSON and form bodies.
  const invalidBytes = [
    [0xff],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
    [0xe2, 0x82],
    [0x80],
  ];
  for (let i = 0; i < 60; i++) {
    const bytes = pick(invalidBytes);
    const prefix = Buffer.from('{"text":["ab');
    const suffix = Buffer.from('"],"target_lang":"en-XA"}');
    requests.push({
      label: 'invalid utf-8 json',
      path: '/v2/translate',
      body: Buffer.concat([prefix, Buffer.from(bytes), suffix]),
      headers: JSON_TYPE,
    });
    const encoded = bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    requests.push({
      label: 'invalid utf-8 form',
      path: '/v2/translate',
      body: `text=a${encoded}&target_lang=en-XA`,
      headers: FORM_TYPE,
    });
  }
  // Broken form bodies.
  const formParts = [
    'text',
    'target_lang',
    'glossary_ids',
    'dictionaries[0].x',
    'text[]',
    '%',
    '%zz',
    '=',
    '&&&',
    'a=b=c',
    '+',
    '%00',
  ];
  for (let i = 0; i < 150; i++) {
    const body = Array.from(
      { length: 1 + Math.floor(next() * 6) },
      () => `${pick(formParts)}=${pick(formParts)}`,
    ).join(pick(['&', '&&', ';']));
    requests.push({ label: 'broken form', path: '/v2/translate', body, headers: FORM_TYPE });
  }
  // Wrong content types.
  const types = [
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/octet-stream',
    'image/png',
    'application/jsonx',
    'json',
    '',
    'application/x-www-form-urlencoded-x',
    '*/*',
  ];
  for (const type of types) {
    for (let i = 0; i < 6; i++)
      requests.push({
        label: `content type ${type}`,
        path: '/v2/translate',
        body: valid,
        headers: { 'content-type': type },
      });
  }
  // Oversize bodies.
  for (let i = 0; i < 12; i++) {
    const size = 128 * 1024 + 1 + Math.floor(next() * 300_000);
    requests.push({
      label: 'oversize json',
      path: '/v2/translate',
      body: JSON.stringify({ text: ['a'.repeat(size)], target_lang: 'ES' }),
      headers: JSON_TYPE,
    });
    requests.push({
      label: 'oversize form',
      path: '/v2/translate',
      body: `text=${'b'.repeat(size)}&target_lang=ES`,
      headers: FORM_TYPE,
    });
  }
  // Garbage queries, paths, methods and headers.
  const queries = [
    'resource=',
    'resource=%',
    'resource=translate_text&resource=write',
    'include=beta',
    'resource[0]=x',
    '%%%',
    'resource=translate_text&include=%FF',
  ];
  for (const query of queries) requests.push({ label: 'languages query', path: `/v3/languages?${query}` });
  const analytics = [
    'start_date=x&end_date=y',
    'start_date=2025-01-01',
    'start_date=2025-13-01&end_date=2025-12-01',
    'start_date=2025-01-01&end_date=2025-01-02&page=x',
    'start_date=2025-01-01&end_date=2025-01-02&page=1e9',
    'start_date=0001-01-01&end_date=9999-12-31',
    'start_date=2025-01-01&end_date=2025-01-02&aggregate_by=day&aggregate_by=period',
  ];
  for (const query of analytics)
    requests.push({ label: 'analytics query', path: `/v2/admin/analytics/custom-tags?${query}` });
  for (const path of [
    '/v2/translate/',
    '/v2//translate',
    '/../v2/usage',
    '/v2/%00',
    '/v3/languages/%E0%A4%A',
    `/v2/${'x'.repeat(5000)}`,
  ]) {
    requests.push({ label: 'odd path', path });
  }
  for (const method of ['PUT', 'DELETE', 'PATCH', 'GET'])
    requests.push({ label: `method ${method}`, path: '/v2/translate', method });
  const tags = ['', ' ', 'a b', 'é', '\t', 'x'.repeat(101), 'a,b c'];
  for (const tag of tags)
    requests.push({
      label: 'reporting tag',
      path: '/v2/translate',
      body: valid,
      headers: { ...JSON_TYPE, 'x-service-reporting-tag': tag },
    });
  const auths = [
    '',
    'Service-Auth-Key',
    'Service-Auth-Key  ',
    'Basic abc',
    `Service-Auth-Key ${'k'.repeat(10_000)}`,
    'Service-Auth-Key a b c',
  ];
  for (const auth of auths)
    requests.push({ label: 'authorization', path: '/v2/usage', headers: { authorization: auth } });
  return requests;
}

describe('hostile but valid input', () => {
  it('markup nested 15,000 deep is translated with every tag kept, not a stack overflow', async () => {
    const text = `${'<a>'.repeat(15_000)}Hello${'</a>'.repeat(15_000)}`;
    const reply = await t.translate({
      text: [text],
      target_lang: 'en-XA',
      source_lang: 'EN',
      tag_handling: 'xml',
    });
    expect(reply.status).toBe(200);
    const out: string = reply.data.translations[0].text;
    expect(out.split('<a>')).toHaveLength(15_001);
    expect(out.split('</a>')).toHaveLength(15_001);
    expect(out).not.toContain('Hello');
  });

  it('JSON nested 60,000 deep is a 400, not a crash', async () => {
    const reply = await t.call('/v2/translate', {
      raw: `${'['.repeat(60_000)}${']'.repeat(60_000)}`,
      headers: JSON_TYPE,
    });
    expect(reply.status).toBe(400);
  });
});

describe('malformed input', () => {
  const requests = generate();

  it('generates more than 1,000 bad requests', () => {
    expect(requests.length).toBeGreaterThan(1000);
  });

  it('answers every one with a 4xx in the interface shape and a trace id; no 5xx; the server stays up', async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let index = 0;
    const worker = async () => {
      while (index < requests.length) {
        const request = requests[index++]!;
        const headers: Record<string, string> = {
          authorization: `Service-Auth-Key ${t.server.devKey}`,
          ...request.headers,
        };
        const init: RequestInit = {
          method: request.method ?? (request.body === undefined ? 'GET' : 'POST'),
          headers,
        };
        if (request.body !== undefined) init.body = request.body;
        const response = await fetch(t.server.url + request.path, init);
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        let body: { message?: unknown } | undefined;
        try {
          body = JSON.parse(text);
        } catch {}
        const shaped = response.status < 400 || typeof body?.message === 'string';
        if (response.status >= 500 || !shaped || !TRACE_ID.test(response.headers.get('x-trace-id') ?? '')) {
          failures.push(`${request.label} ${request.path}: ${response.status} ${text.slice(0, 120)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(failures).toEqual([]);
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
    expect(statuses.get(400)).toBeGreaterThan(500);
    expect(statuses.get(413)).toBeGreaterThanOrEqual(24);
    expect(statuses.get(415)).toBeGreaterThanOrEqual(50);
    const alive = await t.translate({ text: ['still here'], target_lang: 'en-XA', source_lang: 'EN' });
    expect(alive.status).toBe(200);
  }, 120_000);
});
