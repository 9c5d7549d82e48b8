/**
 * The engines' fingerprints on the wire (ENGINE_FINGERPRINTS_HEADER on the target-language lists): a
 * client keys its cache with them, so a model change on the server re-translates and nothing else does.
 */
import { ENGINE_FINGERPRINTS_HEADER, engineFingerprintOf, parseEngineFingerprints } from '@glossa/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreateServerOptions } from '../src/server.js';
import { startTestServer, type TestServer } from './helpers.js';

const started: TestServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

/** The header of `GET /v2/languages?type=target` and of `GET /v3/languages` (they agree). */
async function fingerprints(options: CreateServerOptions) {
  const server = await startTestServer(options);
  started.push(server);
  const v2 = await server.call('/v2/languages?type=target', { method: 'GET' });
  const v3 = await server.call('/v3/languages?resource=translate_text', { method: 'GET' });
  expect(v2.status).toBe(200);
  expect(v3.status).toBe(200);
  expect(v3.headers.get(ENGINE_FINGERPRINTS_HEADER)).toBe(v2.headers.get(ENGINE_FINGERPRINTS_HEADER));
  // Source languages: no header (only the targets' engines key a client's cache).
  const sources = await server.call('/v2/languages?type=source', { method: 'GET' });
  expect(sources.headers.get(ENGINE_FINGERPRINTS_HEADER)).toBeNull();
  return parseEngineFingerprints(v2.headers.get(ENGINE_FINGERPRINTS_HEADER));
}

const openai = (model: string) => ({
  engineOrder: { default: ['pseudo', 'apertium'], de: ['openai'] },
  providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-a', model } },
});

describe('engine fingerprints header', () => {
  it('changes for the target whose model changed, and only for it; keys do not change it', async () => {
    const a = await fingerprints(openai('model-a') as CreateServerOptions);
    const b = await fingerprints(openai('model-b') as CreateServerOptions);
    const otherKey = await fingerprints({
      ...openai('model-a'),
      providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-other', model: 'model-a' } },
    } as CreateServerOptions);
    expect(engineFingerprintOf(a, 'de')).toMatch(/^[0-9a-f]{16}$/);
    expect(engineFingerprintOf(b, 'de')).not.toBe(engineFingerprintOf(a, 'de'));
    expect(engineFingerprintOf(otherKey, 'de')).toBe(engineFingerprintOf(a, 'de'));
    // `de-AT` falls back to its base language's entry; pseudo's target is unaffected by openai's model.
    expect(engineFingerprintOf(a, 'de-AT')).toBe(engineFingerprintOf(a, 'de'));
    expect(engineFingerprintOf(a, 'en-XA')).toBeDefined();
    expect(engineFingerprintOf(b, 'en-XA')).toBe(engineFingerprintOf(a, 'en-XA'));
    expect(a.get('de')).not.toBe(a.get('en-xa'));
  });
});
