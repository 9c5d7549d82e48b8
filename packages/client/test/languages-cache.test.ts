import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { GlossaClient } from '../src/index.js';
import { sendJson, startScriptedServer } from './scripted-server.js';

const server = await startScriptedServer();
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

const FUTURE_LANGUAGE = {
  lang: 'xx-Future',
  name: 'Future',
  usable_as_source: true,
  usable_as_target: false,
  status: 'early_access',
  features: { teleportation: { status: 'beta', extra: 1 } },
  new_field: ['kept'],
};

describe('language lookups, against a scripted loopback service (fake: it can send codes no server has yet)', () => {
  it('passes unknown language codes, feature keys and fields through untouched', async () => {
    server.routes({ 'GET /v3/languages': (_request, res) => sendJson(res, 200, [FUTURE_LANGUAGE]) });
    const languages = await new GlossaClient({ authKey: 'k', serverUrl: server.url }).getLanguages(
      'translate_text',
      {
        include: ['external', 'beta', 'beta'],
      },
    );
    expect(languages).toEqual([FUTURE_LANGUAGE]);
    expect(server.requests[0]?.query.toString()).toBe(
      'resource=translate_text&include=beta&include=external',
    );
  });

  it('caches for the TTL (1 hour by default) and asks again after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    server.routes({
      'GET /v3/languages/resources': (_request, res) => sendJson(res, 200, [{ name: 'voice', features: [] }]),
    });
    const client = new GlossaClient({ authKey: 'k', serverUrl: server.url });
    await client.getResources();
    vi.setSystemTime(new Date('2026-01-01T00:59:59Z'));
    await client.getResources();
    expect(server.requests).toHaveLength(1);
    vi.setSystemTime(new Date('2026-01-01T01:00:00Z'));
    expect(await client.getResources()).toEqual([{ name: 'voice', features: [] }]);
    expect(server.requests).toHaveLength(2);
  });

  it('does not cache a failed lookup', async () => {
    let calls = 0;
    server.routes({
      'GET /v3/languages/resources': (_request, res) =>
        calls++ === 0 ? sendJson(res, 400, { message: 'no' }) : sendJson(res, 200, []),
    });
    const client = new GlossaClient({ authKey: 'k', serverUrl: server.url });
    await expect(client.getResources()).rejects.toThrow('GET /v3/languages/resources failed with 400: no');
    await expect(client.getResources()).resolves.toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('refuses a TTL over one hour', () => {
    expect(() => new GlossaClient({ authKey: 'k', languagesCacheTtl: 3_600_001 })).toThrow(RangeError);
  });
});

describe('key checks', () => {
  it('refuses a key that cannot be a header, without echoing it', () => {
    expect(() => new GlossaClient({ authKey: 'abc\ndef-secret' })).toThrow(
      new TypeError(
        'Expected `authKey` to hold printable ASCII without whitespace (it would not fit a header)',
      ),
    );
  });
});
