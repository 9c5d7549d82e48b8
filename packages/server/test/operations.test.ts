import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../src/cli-config.js';
import { createPseudoEngine, type TranslationEngine } from '../src/index.js';
import { startTestServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'glossa-operations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('glossa-server settings', () => {
  it('a flag wins over the environment, which wins over the config file', () => {
    const file = join(dir, 'glossa-server.json');
    writeFileSync(
      file,
      JSON.stringify({
        port: 9000,
        freePort: 9001,
        host: '0.0.0.0',
        databaseUrl: 'postgres://file@db/glossa',
        upstream: { url: 'https://upstream.example', key: 'from-file' },
        rateLimit: { requestsPerSecond: 5, burst: 9 },
        engineOrder: ['apertium', 'pseudo'],
        documents: { concurrency: 3, xmlAttributes: ['alt'] },
        logLevel: 'warn',
      }),
    );
    const settings = resolveSettings(
      {
        config: file,
        port: '7000',
        'rate-limit-burst': '20',
        'document-xml-attributes': 'alt,title,label',
        'quality-thread-heap-mb': '512',
      },
      {
        GLOSSA_PORT: '8000',
        GLOSSA_FREE_PORT: '8001',
        GLOSSA_REDIS_URL: 'redis://cache:6379',
        GLOSSA_UPSTREAM_KEY: 'from-env',
        GLOSSA_ENGINES: 'pseudo, upstream',
        GLOSSA_DOCUMENT_EXPIRY_SECONDS: '60',
        GLOSSA_QUALITY_TIMEOUT_SECONDS: '120',
      },
    );
    expect(settings.server).toEqual({
      port: 7000,
      freePort: 8001,
      host: '0.0.0.0',
      databaseUrl: 'postgres://file@db/glossa',
      redisUrl: 'redis://cache:6379',
      upstream: { url: 'https://upstream.example', key: 'from-env' },
      rateLimit: { requestsPerSecond: 5, burst: 20 },
      engineOrder: ['pseudo', 'upstream'],
      logger: { level: 'warn' },
    });
    expect(settings.features).toEqual({
      documents: { concurrency: 3, expirySeconds: 60, xmlAttributes: ['alt', 'title', 'label'] },
      quality: { evaluationTimeoutSeconds: 120, threadHeapMb: 512 },
    });
  });

  it("'off' turns the rate limit off; a burst alone keeps the default rate; bad values are named", () => {
    expect(resolveSettings({ 'rate-limit': 'off' }, {}).server.rateLimit).toBe(false);
    expect(resolveSettings({ 'rate-limit-burst': '7' }, {}).server.rateLimit).toEqual({
      requestsPerSecond: 100,
      burst: 7,
    });
    expect(resolveSettings({}, { GLOSSA_LOG_LEVEL: 'silent' }).server.logger).toBe(false);
    expect(() => resolveSettings({ port: 'eighty' }, {})).toThrow(
      "--port: expected a whole number, got 'eighty'",
    );
    expect(() => resolveSettings({}, { GLOSSA_METRICS: 'maybe' })).toThrow(
      "GLOSSA_METRICS: expected true or false, got 'maybe'",
    );
    const file = join(dir, 'unknown.json');
    writeFileSync(file, '{"prot": 1}');
    expect(() => resolveSettings({ config: file }, {})).toThrow('unknown settings: prot');
  });
});

describe('operations endpoints', () => {
  it('/health and /ready answer without a key; /metrics counts requests by route pattern and billed characters', async () => {
    const t = await startTestServer();
    try {
      expect(await t.call('/health', { key: null })).toMatchObject({ status: 200, data: { status: 'ok' } });
      expect(await t.call('/ready', { key: null })).toMatchObject({ status: 200, data: { status: 'ready' } });
      const { key } = await t.server.createAccount({ plan: 'paid' });
      expect(
        (await t.translate({ text: ['abc', 'de'], target_lang: 'en-XA', source_lang: 'en' }, { key })).status,
      ).toBe(200);
      expect((await t.call('/v2/glossaries/0000', { key })).status).toBe(400);
      const metrics = await t.call('/metrics', { key: null });
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      expect(metrics.text).toContain(
        'glossa_http_requests_total{method="POST",route="/v2/translate",status="200"} 1',
      );
      expect(metrics.text).toContain(
        'glossa_http_requests_total{method="GET",route="/v2/glossaries/:glossary_id",status="400"} 1',
      );
      expect(metrics.text).toMatch(
        /glossa_http_request_duration_seconds_count\{method="POST",route="\/v2\/translate"\} 1/,
      );
      expect(metrics.text).toContain('glossa_characters_billed_total{product="translate"} 5');
      expect(metrics.text).not.toContain(key);
    } finally {
      await t.close();
    }
  });

  it('engine errors are counted by engine', async () => {
    const pseudo = createPseudoEngine();
    const failing: TranslationEngine = {
      ...pseudo,
      name: 'failing',
      async translate() {
        throw new Error('engine down');
      },
    };
    const t = await startTestServer({ engines: [failing] });
    try {
      const reply = await t.translate({ text: ['abc'], target_lang: 'en-XA', source_lang: 'en' });
      expect(reply.status).toBeGreaterThanOrEqual(500);
      expect((await t.call('/metrics', { key: null })).text).toContain(
        'glossa_engine_errors_total{engine="failing"} 1',
      );
    } finally {
      await t.close();
    }
  });

  it('close() answers the requests in flight before it stops', async () => {
    const pseudo = createPseudoEngine();
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const slow: TranslationEngine = {
      ...pseudo,
      async translate(input) {
        started();
        await new Promise((resolve) => setTimeout(resolve, 500));
        return pseudo.translate(input);
      },
    };
    const t = await startTestServer({ engines: [slow], engineCacheEntries: 0 });
    const reply = t.translate({ text: ['slow one'], target_lang: 'en-XA', source_lang: 'en' });
    await inFlight;
    const closing = t.server.close();
    const answered = await reply;
    expect(answered.status).toBe(200);
    expect(answered.data.translations[0].text).not.toBe('');
    await closing;
    await expect(fetch(`${t.server.url}/health`)).rejects.toThrow();
    await t.close();
  });
});
