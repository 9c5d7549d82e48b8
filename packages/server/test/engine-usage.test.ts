/**
 * Per-engine usage through a real server over HTTP: the characters each engine was sent for the account,
 * stored per day (SQLite here; PostgreSQL in `pnpm test:postgres`) and reported in the analytics response's
 * additive `engine_usage`. `de` is on the openai engine (a local chat-completions server that validates each
 * request against OpenAI's OpenAPI description), `en-XA` on pseudo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { type LlmMock, startLlmMock } from './llm-mock.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
/** Today is inside the range whenever the test runs (also across midnight UTC). */
const RANGE = `start_date=${day(-1)}&end_date=${day(1)}`;

describe('per-engine usage in the analytics', () => {
  let mock: LlmMock;
  let server: TestServer;
  beforeAll(async () => {
    mock = await startLlmMock();
    server = await startTestServer({
      engineOrder: { default: ['pseudo'], de: ['openai'] },
      providers: { openai: { baseUrl: mock.url, apiKey: 'sk-usage', model: 'gpt-4o-mini', retryDelayMs: 5 } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  const engines = async (query: string) => {
    const reply = await server.call(`/v2/admin/analytics/custom-tags?${RANGE}${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.data.custom_tag_usage_report.engine_usage as
      | { engine: string; usage_date?: string; characters: number; tokens_in?: number; tokens_out?: number }[]
      | undefined;
  };
  /** Per engine, the characters of every day of the `day` aggregation added up. */
  const byEngine = (rows: { engine: string; characters: number }[]) => {
    const sums: Record<string, number> = {};
    for (const row of rows) sums[row.engine] = (sums[row.engine] ?? 0) + row.characters;
    return sums;
  };

  it('counts what each engine was sent, once: not cache hits, not inline codes; a rejected answer too', async () => {
    expect(await engines('')).toEqual([]);
    const de = await server.translate({
      text: ['Open the settings.', 'Deploy the site'],
      source_lang: 'EN',
      target_lang: 'DE',
    });
    expect(de.status, de.text).toBe(200);
    expect(await engines('')).toEqual([
      {
        engine: 'openai',
        characters: 18 + 15,
        tokens_in: mock.tokens.promptTokens,
        tokens_out: mock.tokens.completionTokens,
      },
    ]);

    // The same texts again: the server's output cache answers, no engine is called.
    const calls = mock.calls.length;
    expect(
      (await server.translate({ text: ['Open the settings.'], source_lang: 'EN', target_lang: 'DE' })).status,
    ).toBe(200);
    expect(mock.calls.length).toBe(calls);

    // Tags become inline codes (`<g id="1">`), which are not counted: "Open the settings page." is 23.
    const markup = await server.translate({
      text: ['Open the <b>settings</b> page.'],
      source_lang: 'EN',
      target_lang: 'DE',
      tag_handling: 'html',
    });
    expect(markup.status, markup.text).toBe(200);
    expect(markup.data.translations[0].text).toBe('Öffne die <b>Einstellungsseite</b>.');

    // An answer echoing the source is rejected and asked again: the provider was sent the text twice.
    mock.always = { kind: 'echo' };
    try {
      const echoed = await server.translate({
        text: ['The cache is cleared when the model changes.'],
        source_lang: 'EN',
        target_lang: 'DE',
      });
      expect(echoed.data.translations[0].text).toBe('Der Cache wird geleert, wenn sich das Modell ändert.');
    } finally {
      mock.always = undefined;
    }

    const xa = await server.translate({
      text: ['Open the settings.'],
      source_lang: 'EN',
      target_lang: 'EN-XA',
    });
    expect(xa.status).toBe(200);
    expect(mock.invalidRequests()).toBe(0);

    const openai = 18 + 15 + 23 + 2 * 44;
    // The tokens every answer of the service said it used (the rejected echo too: the provider billed it).
    const { promptTokens, completionTokens } = mock.tokens;
    expect(promptTokens).toBeGreaterThan(0);
    expect(await engines('')).toEqual([
      { engine: 'openai', characters: openai, tokens_in: promptTokens, tokens_out: completionTokens },
      { engine: 'pseudo', characters: 18 },
    ]);
    const daily = (await engines('&aggregate_by=day'))!;
    expect(byEngine(daily)).toEqual({ openai, pseudo: 18 });
    for (const row of daily) expect(row.usage_date).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
    // Only on the first page: a client adding up the pages counts it once.
    expect(await engines('&page=1')).toBeUndefined();
    // The account's own usage, unchanged by the engines' counts: every text billed once per request.
    const usage = await server.call('/v2/usage');
    expect(usage.data.character_count).toBe(18 + 15 + 18 + 23 + 44 + 18);
  });

  it('a request whose engine fails counts nothing for it', async () => {
    const before = await engines('');
    mock.always = { kind: 'status', status: 500 };
    try {
      const failed = await server.translate({
        text: ['You have {count} new messages in your inbox.'],
        source_lang: 'EN',
        target_lang: 'DE',
      });
      expect(failed.status).toBe(503);
    } finally {
      mock.always = undefined;
    }
    expect(await engines('')).toEqual(before);
  });
});
