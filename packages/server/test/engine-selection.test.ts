/**
 * Choosing engines: the order per target language and pair from flags, environment and config, and a
 * server that sends `de` to the `openai` engine (a local OpenAPI-validating server) and `en-XA` to pseudo in
 * one request stream.
 */
import { KEPT_SOURCE_HEADER, parseKeptSource } from '@glossa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../src/cli-config.js';
import type { KeptSource } from '../src/engines/chain.js';
import type { TranslationEngine } from '../src/engines/engine.js';
import { createEngineRegistry } from '../src/engines/registry.js';
import { resolveOptions } from '../src/options.js';
import { startTestServer, type TestServer } from './helpers.js';
import { type LlmMock, startLlmMock } from './llm-mock.js';

const fake = (name: string, targets: string[], verification?: 'full'): TranslationEngine => ({
  name,
  pairs: () => targets.map((target) => ({ source: 'en', target })),
  fingerprint: (pair) => `${name}/${pair.target}`,
  supportsFormality: () => false,
  ...(verification ? { verification } : {}),
  translate: async (input) => input.texts.map((text) => `${name}:${text}`),
  close: async () => {},
});

describe('engine order', () => {
  it('GLOSSA_ENGINES=pseudo,openai keeps meaning these, in this order, for every pair', () => {
    const settings = resolveSettings({}, { GLOSSA_ENGINES: 'pseudo,openai' });
    expect(settings.server.engineOrder).toEqual(['pseudo', 'openai']);
    const resolved = resolveOptions(settings.server);
    expect(resolved.enginesByTarget).toEqual({ default: ['pseudo', 'openai'] });
  });

  it('--engines takes per-target and per-pair lists; the flag wins over the environment', () => {
    const settings = resolveSettings(
      {
        engines: 'pseudo,apertium;de=openai,deepl;en:ja=deepl',
        'openai-model': 'llama3.1',
        'deepl-server-url': 'http://127.0.0.1:3000',
      },
      { GLOSSA_ENGINES: 'pseudo', GLOSSA_OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
    );
    expect(settings.server.engineOrder).toEqual({
      default: ['pseudo', 'apertium'],
      de: ['openai', 'deepl'],
      'en:ja': ['deepl'],
    });
    expect(settings.server.providers).toEqual({
      openai: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
      deepl: { serverUrl: 'http://127.0.0.1:3000' },
    });
    const resolved = resolveOptions(settings.server);
    expect(resolved.engineOrder).toEqual(['pseudo', 'apertium', 'openai', 'deepl']);
    expect(() => resolveOptions({ engineOrder: { de: ['bing' as never] } })).toThrow(/distinct names/);
    expect(() => resolveOptions({ engineOrder: { 'not a language': ['pseudo'] } })).toThrow(
      /target language/,
    );
  });

  it('the registry picks the pair, then the target, then its base language, then the default', () => {
    const a = fake('a', ['de', 'ja', 'fr', 'pt-BR']);
    const b = fake('b', ['de', 'ja', 'fr', 'pt'], 'full');
    const registry = createEngineRegistry([a, b], {
      default: ['a'],
      de: ['b', 'a'],
      'en:ja': ['b'],
      pt: ['b'],
    });
    expect(registry.select('en', 'fr')!.engine.name).toBe('a');
    expect(registry.select('en', 'de')!.engine.name).toBe('b>a');
    expect(registry.select('en', 'ja')!.engine.name).toBe('b');
    // `pt-BR` has no entry of its own: `pt`'s list, whose engine serves pt.
    expect(registry.select('en', 'pt-BR')!.engine.name).toBe('b');
    // The choice object is stable (the pipeline groups units by it).
    expect(registry.select('en', 'de')).toBe(registry.select('en-US', 'de'));
  });
});

describe('a server with de on openai and en-XA on pseudo', () => {
  let mock: LlmMock;
  let server: TestServer;
  const kept: KeptSource[] = [];
  beforeAll(async () => {
    mock = await startLlmMock();
    server = await startTestServer({
      onKeptSource: (event) => kept.push(event),
      engineOrder: { default: ['pseudo', 'apertium'], de: ['openai'] },
      providers: { openai: { baseUrl: mock.url, apiKey: 'sk-e2e', model: 'gpt-4o-mini', retryDelayMs: 5 } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('translates through the engine of each target, with codes, context and a glossary', async () => {
    const glossary = await server.glossary('en', 'de', 'glossary term\tGlossarbegriff');
    const reply = await server.translate({
      text: ['Open the <b>settings</b> page.', 'The glossary term must be used in every translation.'],
      source_lang: 'EN',
      target_lang: 'DE',
      tag_handling: 'html',
      glossary_id: glossary,
      context: 'A help page.',
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.data.translations.map((t: { text: string }) => t.text)).toEqual([
      'Öffne die <b>Einstellungsseite</b>.',
      'Der Glossarbegriff muss in jeder Übersetzung verwendet werden.',
    ]);
    expect(mock.invalidRequests()).toBe(0);
    const system = mock.calls.at(-1)!.system;
    expect(system).toContain('glossary term → Glossarbegriff');
    expect(system).toContain('A help page.');
    const pseudo = await server.translate({
      text: ['Open the settings.'],
      source_lang: 'EN',
      target_lang: 'EN-XA',
    });
    expect(pseudo.status).toBe(200);
    expect(pseudo.data.translations[0].text).not.toBe('Open the settings.');
  });

  it('an answer echoing the source is retried with a note, through the whole server', async () => {
    mock.always = { kind: 'echo' };
    try {
      const reply = await server.translate({
        text: ['The cache is cleared when the model changes.'],
        source_lang: 'EN',
        target_lang: 'DE',
      });
      expect(reply.status).toBe(200);
      // The mock echoes first attempts; the retry carries a note and is answered properly.
      expect(reply.data.translations[0].text).toBe('Der Cache wird geleert, wenn sich das Modell ändert.');
    } finally {
      mock.always = undefined;
    }
    expect(kept).toEqual([]);
  });

  it('a segment the engine keeps failing is answered in the source language and reported', async () => {
    mock.always = { kind: 'status', status: 400 };
    try {
      const glossary = await server.glossary('en', 'de', 'settings\tKonfiguration');
      const reply = await server.translate({
        text: ['Open the settings.'],
        source_lang: 'EN',
        target_lang: 'DE',
        glossary_id: glossary,
      });
      // The engine refuses (a 400 is not retried): nothing answered, so the request fails as before.
      expect(reply.status).toBe(503);
    } finally {
      mock.always = undefined;
    }
    const glossary = await server.glossary('en', 'de', 'settings\tKonfiguration');
    const reply = await server.translate({
      text: ['Open the settings.'],
      source_lang: 'EN',
      target_lang: 'DE',
      glossary_id: glossary,
    });
    // The mock never uses the glossary's term: retried with a note, then kept in English and reported.
    expect(reply.status).toBe(200);
    expect(reply.data.translations[0].text).toBe('Open the settings.');
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ source: 'en', target: 'de', text: 'Open the settings.' });
    expect(kept[0]!.attempts.map((attempt) => attempt.engine)).toEqual(['openai', 'openai']);
  });

  it('names the texts kept in the source language in X-Glossa-Kept-Source (indexes into text)', async () => {
    const glossary = await server.glossary('en', 'de', 'settings\tKonfiguration');
    const reply = await server.translate({
      text: ['The cache is cleared when the model changes.', 'Open the settings.'],
      source_lang: 'EN',
      target_lang: 'DE',
      glossary_id: glossary,
    });
    expect(reply.status).toBe(200);
    expect(reply.data.translations.map((t: { text: string }) => t.text)).toEqual([
      'Der Cache wird geleert, wenn sich das Modell ändert.',
      'Open the settings.',
    ]);
    expect(parseKeptSource(reply.headers.get(KEPT_SOURCE_HEADER))).toEqual([1]);
    const fine = await server.translate({
      text: ['The cache is cleared when the model changes.'],
      source_lang: 'EN',
      target_lang: 'DE',
    });
    expect(fine.status).toBe(200);
    expect(fine.headers.get(KEPT_SOURCE_HEADER)).toBeNull();
  });

  it('/metrics reports what the provider engine used: its calls, characters and tokens', async () => {
    await server.translate({ text: ['Open the settings.'], source_lang: 'EN', target_lang: 'DE' });
    const metrics = (await server.call('/metrics', { key: null })).text;
    const value = (name: string) =>
      Number(new RegExp(`^${name}\\{engine="openai"\\} (\\d+)$`, 'm').exec(metrics)?.[1]);
    // Every HTTP call the mock received, the failed and retried ones included.
    expect(value('glossa_engine_requests_total')).toBe(mock.calls.length);
    expect(value('glossa_engine_characters_total')).toBeGreaterThan(0);
    expect(value('glossa_engine_input_tokens_total')).toBeGreaterThan(0);
    expect(value('glossa_engine_output_tokens_total')).toBeGreaterThan(0);
    // Local engines bill nothing: no series of their own.
    expect(metrics).not.toMatch(/glossa_engine_requests_total\{engine="(pseudo|apertium)"\}/);
  });
});
