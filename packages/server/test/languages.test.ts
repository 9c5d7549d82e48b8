import { createOpenApiDocument, ENDPOINT_LIST } from '@glossa/protocol';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPseudoEngine } from '../src/engines/pseudo.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('GET /v3/languages', () => {
  it('translate_text: computed from the installed engines, features only where supported', async () => {
    const reply = await t.call('/v3/languages?resource=translate_text');
    expect(reply.status).toBe(200);
    const byCode = new Map(reply.data.map((l: { lang: string }) => [l.lang, l]));
    expect(byCode.get('en')).toEqual({
      lang: 'en',
      name: 'English',
      usable_as_source: true,
      usable_as_target: true,
      status: 'stable',
      features: {
        auto_detection: { status: 'stable' },
        tag_handling: { status: 'stable' },
        glossary: { status: 'stable' },
        style_rules: { status: 'stable' },
      },
    });
    expect(byCode.get('es')).toMatchObject({ usable_as_target: true, usable_as_source: true });
    expect(byCode.get('en-XA')).toMatchObject({
      usable_as_source: false,
      usable_as_target: true,
      features: { tag_handling: { status: 'stable' } },
    });
    expect(byCode.get('pt-BR')).toMatchObject({ usable_as_target: true });
    for (const language of reply.data) expect(language.features).not.toHaveProperty('formality');
    // Japanese can only be pseudo-localized here: not listed, as no real engine translates from it...
    expect(byCode.has('ja')).toBe(false);
    // ...but pseudo-localizing from it still works.
    const pseudo = await t.translate({ text: ['こんにちは'], source_lang: 'JA', target_lang: 'en-XA' });
    expect(pseudo.status).toBe(200);
  });

  it('lists every source the pseudo engine accepts when it is the only engine', async () => {
    const only = await startTestServer({ engines: [createPseudoEngine()] });
    try {
      const reply = await only.call('/v3/languages?resource=translate_text');
      const byCode = new Map(reply.data.map((l: { lang: string }) => [l.lang, l]));
      expect(byCode.get('ja')).toMatchObject({ usable_as_source: true, usable_as_target: false });
      expect(byCode.get('en-XA')).toMatchObject({ usable_as_source: false, usable_as_target: true });
    } finally {
      await only.close();
    }
  });

  it('accepts repeated include values; 400 without or with an unknown resource', async () => {
    expect((await t.call('/v3/languages?resource=translate_text&include=beta&include=external')).status).toBe(
      200,
    );
    expect((await t.call('/v3/languages')).data.message).toBe("Missing required parameter 'resource'.");
    expect((await t.call('/v3/languages?resource=nope')).status).toBe(400);
    expect((await t.call('/v3/languages?resource=translate_text&include=alpha')).status).toBe(400);
  });

  it('/v3/languages/resources lists the resources of the spine alone, with the sides each feature needs', async () => {
    const reply = await t.call('/v3/languages/resources');
    expect(reply.data.map((r: { name: string }) => r.name)).toEqual([
      'translate_text',
      'glossary',
      'style_rules',
    ]);
    const translate = reply.data[0].features;
    expect(translate).toContainEqual({
      name: 'glossary',
      needs_source_support: true,
      needs_target_support: true,
    });
    expect(translate).toContainEqual({ name: 'formality', needs_target_support: true });
  });
});

describe('/v3/languages for glossaries and style rules: what the spine really accepts (issue 21)', () => {
  it('style_rules lists every language a style list can be created in (de, ja too), and only those', async () => {
    const listed = (await t.call('/v3/languages?resource=style_rules')).data.map(
      (l: { lang: string }) => l.lang,
    );
    expect(listed).toEqual(expect.arrayContaining(['de', 'ja', 'en', 'es']));
    for (const language of listed) {
      const reply = await t.call('/v3/style_rules', { json: { name: 's', language } });
      expect(reply.status, language).toBe(201);
    }
    for (const language of ['pt', 'ca', 'en-XA']) {
      expect(listed).not.toContain(language);
      expect((await t.call('/v3/style_rules', { json: { name: 's', language } })).status, language).toBe(400);
    }
  });

  it('glossary lists every root language a dictionary can be created in (a de → en glossary works)', async () => {
    const listed = (await t.call('/v3/languages?resource=glossary')).data as {
      lang: string;
      usable_as_source: boolean;
      usable_as_target: boolean;
    }[];
    const codes = listed.map((language) => language.lang);
    expect(codes.length).toBeGreaterThan(6);
    expect(codes).toEqual(expect.arrayContaining(['de', 'en', 'es', 'ja', 'zh']));
    expect(codes.some((code) => code.includes('-'))).toBe(false);
    for (const language of listed) {
      expect(language).toMatchObject({ usable_as_source: true, usable_as_target: true });
      const other = language.lang === 'en' ? 'de' : 'en';
      const reply = await t.call('/v3/glossaries', {
        json: {
          name: 'g',
          dictionaries: [
            { source_lang: language.lang, target_lang: other, entries: 'a\tb', entries_format: 'tsv' },
          ],
        },
      });
      expect(reply.status, language.lang).toBe(201);
    }
    const pseudo = await t.call('/v3/glossaries', {
      json: {
        name: 'g',
        dictionaries: [{ source_lang: 'en', target_lang: 'en-XA', entries: 'a\tb', entries_format: 'tsv' }],
      },
    });
    expect(pseudo.status).toBe(400);
    expect(codes).not.toContain('en-XA');
  });
});

describe('deprecated v2 endpoints', () => {
  it('/v2/languages: sources by default, targets with supports_formality, upper-case codes', async () => {
    const sources = (await t.call('/v2/languages')).data;
    expect(sources).toContainEqual({ language: 'EN', name: 'English' });
    const targets = (await t.call('/v2/languages?type=target')).data;
    expect(targets).toContainEqual({ language: 'ES', name: 'Spanish', supports_formality: false });
    expect(targets).toContainEqual({
      language: 'EN-XA',
      name: 'Pseudo-English (accented, expanded)',
      supports_formality: false,
    });
    const codes = targets.map((language: { language: string }) => language.language);
    expect(codes).toEqual(expect.arrayContaining(['EN-GB', 'EN-US', 'PT-BR', 'PT-PT']));
    expect(codes).not.toContain('EN');
    expect(codes).not.toContain('PT');
    expect((await t.call('/v2/languages?type=both')).status).toBe(400);
  });

  it('/v2/glossary-language-pairs: every pair of root languages glossaries serve', async () => {
    const pairs = (await t.call('/v2/glossary-language-pairs')).data.supported_languages;
    expect(pairs).toContainEqual({ source_lang: 'en', target_lang: 'es' });
    expect(pairs).toContainEqual({ source_lang: 'es', target_lang: 'en' });
    expect(pairs.some((pair: { target_lang: string }) => pair.target_lang.includes('-'))).toBe(false);
  });
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document of the served endpoints, without a key', async () => {
    const reply = await t.call('/openapi.json', { key: null });
    expect(reply.status).toBe(200);
    const result = await new Validator().validate(reply.data);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(reply.data.servers).toEqual([
      { url: t.server.url, description: 'paid plan' },
      { url: t.server.freeUrl, description: 'free plan (keys ending in :fx)' },
    ]);
    expect(Object.keys(reply.data.paths)).toEqual(
      expect.arrayContaining([
        '/v2/translate',
        '/v2/usage',
        '/v3/languages',
        '/v2/admin/analytics/custom-tags',
      ]),
    );
    expect(reply.data.paths['/v2/translate'].post.requestBody.content).toHaveProperty(
      'application/x-www-form-urlencoded',
    );
  });

  it("is the protocol's document (createOpenApiDocument) for the served endpoints, not a second generator", async () => {
    const reply = await t.call('/openapi.json', { key: null });
    const paths = reply.data.paths as Record<string, Record<string, { operationId: string }>>;
    const served = new Set(Object.values(paths).flatMap((path) => Object.values(path)));
    const ids = new Set([...served].map((operation) => operation.operationId));
    const chosen = ENDPOINT_LIST.filter((endpoint) => ids.has(endpoint.operationId));
    expect(chosen.length).toBeGreaterThan(30);
    // Only what is served: no feature package is installed here.
    expect(reply.data.paths['/v2/document']).toBeUndefined();
    const expected = createOpenApiDocument({ endpoints: chosen, servers: reply.data.servers });
    for (const part of ['openapi', 'info', 'servers', 'security'] as const) {
      expect(reply.data[part]).toEqual(expected[part]);
    }
    for (const [path, operations] of Object.entries(expected['paths'] as typeof paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(paths[path]?.[method], `${method} ${path}`).toEqual(operation);
      }
    }
    expect(reply.data.paths['/v2/translate'].post['x-glossa-access']).toBeDefined();
  });
});
