/**
 * The upstream engine against a real second Glossa server (loopback HTTP, real SQLite, real Apertium), and
 * a gateway server whose only engine is upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamEngine } from '../src/engines/upstream.js';
import { EngineError, type EngineInput, type TranslationEngine } from '../src/index.js';
import { startTestServer, type TestServer } from './helpers.js';

const input = (texts: string[], target: string, extra: Partial<EngineInput> = {}): EngineInput => ({
  texts,
  source: 'en',
  target,
  markup: true,
  formality: 'default',
  ...extra,
});

describe('upstream engine against a real Glossa server', () => {
  let remote: TestServer;
  let engine: TranslationEngine;
  beforeAll(async () => {
    remote = await startTestServer();
    engine = await createUpstreamEngine({ baseUrl: remote.server.url, authKey: remote.server.devKey });
  });
  afterAll(async () => {
    await engine?.close();
    await remote?.close();
  });

  it('offers the remote pairs', () => {
    const pairs = engine.pairs().map((p) => `${p.source}>${p.target}`);
    expect(pairs).toContain('en>es');
    expect(pairs).toContain('en>en-XA');
  });

  it('translates en→es with Apertium on the remote, codes kept on their words', async () => {
    const out = await engine.translate(input(['Hello world', 'Click the <g id="1">red car</g> now.'], 'es'));
    expect(out[0]).toContain('Hola');
    expect(out[1]).toBe('Clic el <g id="1">coche rojo</g> ahora.');
  });

  it('translates into a pseudo-locale on the remote', async () => {
    expect(await engine.translate(input(['Save <x id="1"/> now'], 'en-XA'))).toEqual([
      '[Šåṽéé <x id="1"/> ñööŵ]',
    ]);
  });

  it('reports a key the remote refuses as an EngineError without the key', async () => {
    const { key } = await remote.server.createAccount({ plan: 'free' });
    const error = await createUpstreamEngine({ baseUrl: remote.server.url, authKey: key }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as Error).message).toMatch(/^upstream: GET \/v3\/languages answered 403/);
    expect((error as Error).message).not.toContain(key);
  });
});

describe('a gateway server whose only engine is upstream', () => {
  let remote: TestServer;
  let gateway: TestServer;
  beforeAll(async () => {
    remote = await startTestServer();
    const upstream = await createUpstreamEngine({
      baseUrl: remote.server.url,
      authKey: remote.server.devKey,
    });
    gateway = await startTestServer({ engines: [upstream] });
  });
  afterAll(async () => {
    await gateway?.close();
    await remote?.close();
  });

  it('serves en→es over HTTP through the remote', async () => {
    const reply = await gateway.translate({
      text: ['The red car is fast.'],
      source_lang: 'EN',
      target_lang: 'ES',
    });
    expect(reply.status).toBe(200);
    expect(reply.data.translations[0].text).toBe('El coche rojo es rápidamente.');
  });
});
