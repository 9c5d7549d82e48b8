import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, TRACE_ID } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('errors and trace ids', () => {
  it('puts a 32-hex X-Trace-ID on successes, errors, 404s and framework errors', async () => {
    const ok = await t.call('/v2/usage');
    const denied = await t.call('/v2/usage', { key: null });
    const missing = await t.call('/v2/nothing-here');
    const badUrl = await t.call('/v2/%E0%A4%A');
    for (const reply of [ok, denied, missing, badUrl])
      expect(reply.headers.get('x-trace-id')).toMatch(TRACE_ID);
    expect(new Set([ok, denied, missing].map((r) => r.headers.get('x-trace-id'))).size).toBe(3);
    expect(missing.status).toBe(404);
    expect(missing.data).toEqual({ message: 'Not found: GET /v2/nothing-here', code: 'not_found' });
    expect(badUrl.status).toBe(400);
    expect(typeof badUrl.data.message).toBe('string');
  });

  it('ignores a trace id sent by the client', async () => {
    const reply = await t.call('/v2/usage', {
      headers: { 'x-trace-id': 'a'.repeat(32), 'request-id': 'b'.repeat(32) },
    });
    expect(reply.headers.get('x-trace-id')).not.toBe('a'.repeat(32));
  });
});

describe('malformed HTTP', () => {
  it('a request the HTTP parser refuses gets a JSON 400 with a trace id', async () => {
    const { port } = new URL(t.server.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GARBAGE / HTTP/9\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
    expect(raw).toMatch(/\r\nX-Trace-ID: [0-9a-f]{32}\r\n/);
    expect(raw.endsWith('{"message":"Malformed HTTP request.","code":"invalid_request"}')).toBe(true);
  });
});

describe('authentication', () => {
  it('403 without a key, with a wrong key, with a wrong scheme', async () => {
    const expected = {
      message:
        "Authorization failed. Send a valid key in the header 'Authorization: Service-Auth-Key <key>'.",
      code: 'authorization_failed',
    };
    expect(await t.call('/v2/usage', { key: null })).toMatchObject({ status: 403, data: expected });
    expect(await t.call('/v2/usage', { key: 'nope' })).toMatchObject({ status: 403, data: expected });
    const bearer = await t.call('/v2/usage', {
      key: null,
      headers: { authorization: `Bearer ${t.server.devKey}` },
    });
    expect(bearer).toMatchObject({ status: 403, data: expected });
  });

  it('never answers 401', async () => {
    const reply = await t.translate({ text: ['x'], target_lang: 'en-XA' }, { key: '' });
    expect(reply.status).toBe(403);
  });

  it('a free key at the paid URL and a paid key at the free URL get 403 naming the right address', async () => {
    const free = await t.server.createAccount({ plan: 'free' });
    expect(free.key.endsWith(':fx')).toBe(true);
    const atPaid = await t.call('/v2/usage', { key: free.key });
    expect(atPaid.status).toBe(403);
    expect(atPaid.data).toEqual({
      message: `Wrong endpoint: this key belongs to the free plan. Use ${t.server.freeUrl} instead.`,
      code: 'wrong_plan_base_url',
    });
    const atFree = await t.call('/v2/usage', { base: t.server.freeUrl });
    expect(atFree.status).toBe(403);
    expect(atFree.data.message).toBe(
      `Wrong endpoint: this key belongs to the paid plan. Use ${t.server.url} instead.`,
    );
    expect((await t.call('/v2/usage', { key: free.key, base: t.server.freeUrl })).status).toBe(200);
    expect(t.server.freeUrl).not.toBe(t.server.url);
  });
});

describe('bodies', () => {
  it('415 invalid_content_type for text/plain, multipart, missing content type with a body', async () => {
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/xml']) {
      const reply = await t.call('/v2/translate', { raw: 'text=hi', headers: { 'content-type': type } });
      expect(reply.status, type).toBe(415);
      expect(reply.data.code).toBe('invalid_content_type');
      expect(reply.data.message).toContain('application/json');
    }
  });

  it('accepts JSON with a charset and form bodies with repeated keys', async () => {
    const json = await t.call('/v2/translate', {
      raw: JSON.stringify({ text: ['Hi'], target_lang: 'en-XA', source_lang: 'EN' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(json.status).toBe(200);
    const form = await t.call('/v2/translate', {
      form: [
        ['text', 'Good morning'],
        ['text', 'Thank you'],
        ['target_lang', 'en-xa'],
        ['source_lang', 'en'],
        ['show_billed_characters', '1'],
      ],
    });
    expect(form.status).toBe(200);
    expect(form.data.translations).toHaveLength(2);
    expect(form.data.translations[1].billed_characters).toBe(9);
  });

  it('400 with a message for broken JSON, non-object JSON, empty body, invalid UTF-8, bad percent-escapes', async () => {
    const cases: [string, Uint8Array | string, string, string][] = [
      ['application/json', '{"text": [', 'invalid_json', 'Request body is not valid JSON: '],
      ['application/json', '[1,2]', 'invalid_request', 'Request body must be a JSON object.'],
      ['application/json', 'null', 'invalid_request', 'Request body must be a JSON object.'],
      ['application/json', '   ', 'invalid_request', 'Request body is empty.'],
      [
        'application/json',
        new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
        'invalid_request',
        'Request body is not valid UTF-8.',
      ],
      [
        'application/x-www-form-urlencoded',
        'text=%FF&target_lang=de',
        'invalid_request',
        'Form body is not valid',
      ],
      ['application/x-www-form-urlencoded', 'text=%zz', 'invalid_request', 'Form body is not valid'],
    ];
    for (const [type, raw, code, message] of cases) {
      const reply = await t.call('/v2/translate', { raw, headers: { 'content-type': type } });
      expect(reply.status, String(raw)).toBe(400);
      expect(reply.data.code).toBe(code);
      expect(reply.data.message.startsWith(message)).toBe(true);
    }
  });

  it('413 over exactly 128 KiB on translate; a body of exactly 128 KiB is read', async () => {
    const envelope = JSON.stringify({ text: [''], target_lang: 'en-XA', source_lang: 'EN' });
    const exact = JSON.stringify({
      text: ['a'.repeat(128 * 1024 - envelope.length)],
      target_lang: 'en-XA',
      source_lang: 'EN',
    });
    expect(Buffer.byteLength(exact)).toBe(128 * 1024);
    const atLimit = await t.call('/v2/translate', {
      raw: exact,
      headers: { 'content-type': 'application/json' },
    });
    expect(atLimit.status).toBe(200);
    const over = await t.call('/v2/translate', {
      raw: `${exact} `,
      headers: { 'content-type': 'application/json' },
    });
    expect(over.status).toBe(413);
    expect(over.data).toEqual({
      message: 'Request body too large: the limit is 131072 bytes.',
      code: 'request_too_large',
    });
    const form = await t.call('/v2/translate', { form: `text=${'a'.repeat(132 * 1024)}&target_lang=de` });
    expect(form.status).toBe(413);
  });

  it('names the offending parameter', async () => {
    expect((await t.translate({ text: ['Hi'] })).data.message).toBe(
      "Missing required parameter 'target_lang'.",
    );
    expect((await t.translate({ text: [1], target_lang: 'ES' })).data.message).toMatch(/'text\[0\]'/);
    // Unknown parameters are ignored (wire decisions), known ones still validated.
    expect((await t.translate({ text: ['x'], target_lang: 'ES', colour: 1 })).status).toBe(200);
    expect(
      (await t.translate({ text: ['x'], target_lang: 'ES', colour: 1, formality: 'very' })).data.message,
    ).toBe(
      "Value for 'formality' not supported. Expected one of: 'default', 'more', 'less', 'prefer_more', 'prefer_less'.",
    );
    expect((await t.translate({ text: [], target_lang: 'ES' })).data.message).toBe(
      "Parameter 'text' must not be empty.",
    );
  });
});

describe('unknown parameters', () => {
  it('are ignored in JSON and form bodies and in queries; known ones next to them are still validated', async () => {
    const json = await t.translate({ text: ['Hello'], target_lang: 'ES', example_extra_param: 'x' });
    expect(json.status).toBe(200);
    const form = await t.call('/v2/translate', { form: 'text=Hello&target_lang=ES&example_extra_param=1' });
    expect(form.status).toBe(200);
    expect(form.data.translations).toHaveLength(1);
    const badForm = await t.call('/v2/translate', {
      form: 'text=Hello&target_lang=ES&x=1&split_sentences=7',
    });
    expect(badForm.status).toBe(400);
    expect(badForm.data.message).toMatch(/'split_sentences'/);
    const query = await t.call('/v3/languages?resource=translate_text&example_extra_param=1', {
      method: 'GET',
    });
    expect(query.status).toBe(200);
    const badQuery = await t.call('/v3/languages?resource=nothing&example_extra_param=1', { method: 'GET' });
    expect(badQuery.status).toBe(400);
  });
});

describe('rate limit', () => {
  it('429 with Retry-After once a key has used its burst, other keys unaffected', async () => {
    const limited = await startTestServer({ rateLimit: { requestsPerSecond: 0.5, burst: 3 } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.call('/v2/usage')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await limited.call('/v2/usage');
      expect(refused.status).toBe(429);
      expect(refused.data.code).toBe('too_many_requests');
      expect(Number(refused.headers.get('retry-after'))).toBe(2);
      const other = await limited.server.createAccount({ plan: 'paid' });
      expect((await limited.call('/v2/usage', { key: other.key })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
