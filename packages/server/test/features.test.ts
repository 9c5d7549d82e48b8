/** The spine alone, and feature packages plugged into it: real servers over loopback. */
import { ENDPOINTS, ERROR_CODES } from '@glossa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRoute } from '../src/http/route.js';
import type { ServerFeature } from '../src/index.js';
import { startTestServer, type TestServer } from './helpers.js';

describe('the spine without feature packages', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it.each([
    ['/v2/document', '@glossa/server-documents', 'Document translation'],
    ['/v2/write/rephrase', '@glossa/server-language-tools', 'Text improvement'],
    ['/v3/detect/language', '@glossa/server-language-tools', 'Text improvement'],
    ['/v1/quality-evaluation', '@glossa/server-language-tools', 'Text improvement'],
    ['/v3/voice/realtime', '@glossa/server-voice', 'Voice'],
    ['/v1/jobs/voice/translate', '@glossa/server-voice', 'Voice'],
  ])('POST %s answers 501 naming %s', async (path, name, what) => {
    const reply = await t.call(path, { json: { text: ['Hello'] } });
    expect(reply.status).toBe(501);
    expect(reply.data).toEqual({
      message: `${what}${reply.data.message.slice(what.length, reply.data.message.indexOf(':'))}: install ${name} and pass it to createServer (glossa-server from @glossa/server-full has every feature).`,
      code: ERROR_CODES.featureNotInstalled,
    });
    expect(reply.data.message).toContain('is not installed on this server');
  });

  it('a missing feature still checks the key first (403), and GET endpoints answer 501 too', async () => {
    expect((await t.call('/v2/document', { json: {}, key: 'wrong' })).status).toBe(403);
    expect((await t.call('/v3/voice/jobs/abc')).status).toBe(501);
  });

  it('languages of a resource no installed feature serves are empty; text translation is unchanged', async () => {
    expect((await t.call('/v3/languages?resource=write')).data).toEqual([]);
    expect((await t.call('/v3/languages?resource=voice')).data).toEqual([]);
    expect((await t.call('/v3/languages?resource=translate_text')).data.length).toBeGreaterThan(1);
    expect((await t.translate({ text: ['Hello'], target_lang: 'en-XA' })).status).toBe(200);
  });

  it('the features option is checked', async () => {
    await expect(startTestServer({ features: [{} as ServerFeature] })).rejects.toThrow(
      'features: expected an array of server features',
    );
  });
});

describe('a feature plugged into the spine', () => {
  const events: string[] = [];
  const echo: ServerFeature = {
    name: 'echo-detect',
    routes: [
      defineRoute(ENDPOINTS.detectLanguage, async ({ body }) => ({
        results: body.text.map(() => ({ detected_language: 'xx', status: 'success' })),
      })),
    ],
    resources: { write: ({ translateText }) => translateText().slice(0, 1) },
    plugin: (app) => {
      app.get('/echo-plugin', async () => ({ plugged: true }));
    },
    start: () => {
      events.push('start');
      return { close: async () => void events.push('close') };
    },
  };

  it('serves its routes, resources and plugin, and is started and closed with the server', async () => {
    const t = await startTestServer({ features: [echo] });
    try {
      expect(events).toEqual(['start']);
      const detected = await t.call('/v3/detect/language', { json: { text: ['a', 'b'] } });
      expect(detected.status).toBe(200);
      expect(detected.data.results).toHaveLength(2);
      // The endpoints of the other features of the same package are still not installed.
      expect((await t.call('/v2/write/correct', { json: { text: ['x'] } })).status).toBe(501);
      expect((await t.call('/v3/languages?resource=write')).data).toHaveLength(1);
      const resources = (await t.call('/v3/languages/resources')).data.map((r: { name: string }) => r.name);
      expect(resources).toEqual(['translate_text', 'write', 'glossary', 'style_rules']);
      expect((await t.call('/echo-plugin')).data).toEqual({ plugged: true });
    } finally {
      await t.close();
    }
    expect(events).toEqual(['start', 'close']);
  });

  it('/ready answers 503 while a feature loads (its ready() pending), 200 once it has loaded', async () => {
    let loaded: () => void = () => {};
    const loading = new Promise<void>((resolve) => {
      loaded = resolve;
    });
    const slow: ServerFeature = {
      name: 'slow-loader',
      routes: [],
      start: () => ({ ready: () => loading, close: async () => {} }),
    };
    const t = await startTestServer({ features: [slow] });
    try {
      const waiting = await t.call('/ready', { key: null });
      expect([waiting.status, waiting.data.message]).toEqual([503, 'Not ready: a feature is still loading']);
      loaded();
      expect((await t.call('/ready', { key: null })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
