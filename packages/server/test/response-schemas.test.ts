/**
 * Every answer of the spine matches its schema in @glossa/protocol's ENDPOINTS table (the contract the
 * client types itself from), and every error matches ErrorBody.
 */
import { createValidator, ENDPOINTS, ErrorBody } from '@glossa/protocol';
import type { TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

function expectSchema(schema: TSchema | undefined, value: unknown) {
  const result = createValidator(schema!).validate(value);
  expect(result.ok ? 'ok' : result.message).toBe('ok');
}

describe('responses match the protocol schemas', () => {
  it('translate, in every option combination that changes the shape', async () => {
    const bodies = [
      { text: ['Hello world'], target_lang: 'ES', source_lang: 'EN' },
      {
        text: ['Hello <b>world</b>', ''],
        target_lang: 'en-XA',
        tag_handling: 'html',
        tag_handling_version: 'v2',
      },
      { text: ['Hi'], target_lang: 'ar-XB', show_billed_characters: true, model_type: 'latency_optimized' },
    ];
    for (const body of bodies) {
      const reply = await t.translate(body);
      expect(reply.status).toBe(200);
      expectSchema(ENDPOINTS.translateText.response, reply.data);
    }
  });

  it('usage (paid and free), languages, resources, v2 languages, glossary pairs, analytics', async () => {
    const free = await t.server.createAccount({ plan: 'free' });
    const today = new Date().toISOString().slice(0, 10);
    await t.translate(
      { text: ['Tagged'], target_lang: 'en-XA' },
      { headers: { 'x-service-reporting-tag': 'docs' } },
    );
    const checks: [TSchema | undefined, Promise<{ data: unknown; status: number }>][] = [
      [ENDPOINTS.getUsage.response, t.call('/v2/usage')],
      [ENDPOINTS.getUsage.response, t.call('/v2/usage', { key: free.key, base: t.server.freeUrl })],
      [ENDPOINTS.getLanguages.response, t.call('/v3/languages?resource=translate_text')],
      [ENDPOINTS.getLanguageResources.response, t.call('/v3/languages/resources')],
      [ENDPOINTS.getLanguagesV2.response, t.call('/v2/languages?type=target')],
      [ENDPOINTS.getGlossaryLanguagePairs.response, t.call('/v2/glossary-language-pairs')],
      [
        ENDPOINTS.getCustomTagUsage.response,
        t.call(`/v2/admin/analytics/custom-tags?start_date=${today}&end_date=${today}`),
      ],
      [
        ENDPOINTS.getCustomTagUsage.response,
        t.call(`/v2/admin/analytics/custom-tags?start_date=${today}&end_date=${today}&aggregate_by=day`),
      ],
    ];
    for (const [schema, pending] of checks) {
      const reply = await pending;
      expect(reply.status).toBe(200);
      expectSchema(schema, reply.data);
    }
  });

  it('errors: {message, code?, detail?} for every status the spine answers', async () => {
    const limited = await t.server.createAccount({ plan: 'paid', characterLimit: 1 });
    const errors = [
      t.call('/v2/usage', { key: null }),
      t.call('/v2/usage', { key: 'wrong' }),
      t.call('/nowhere'),
      t.call('/v2/translate', { raw: 'x', headers: { 'content-type': 'text/plain' } }),
      t.translate({ text: ['a'.repeat(140_000)], target_lang: 'ES' }),
      t.translate({ text: ['too long'], target_lang: 'en-XA' }, { key: limited.key }),
      t.translate({ text: ['x'], target_lang: 'ES', source_lang: 'EN', formality: 'more' }),
    ];
    const statuses: number[] = [];
    for (const pending of errors) {
      const reply = await pending;
      statuses.push(reply.status);
      expectSchema(ErrorBody, reply.data);
    }
    expect(statuses).toEqual([403, 403, 404, 415, 413, 456, 400]);
  });
});
