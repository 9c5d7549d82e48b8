/**
 * The local chat-completions server of the engine tests (test/llm-mock.ts) against OpenAI's official SDK:
 * the SDK's own requests (the engine's prompt, the JSON schema output) pass the mock's validation against the
 * OpenAPI description, the SDK reads its answers, and its documented failures (429 with retry-after, 500)
 * are what the SDK retries. What the engine sends is checked against the same validator (engine-openai.test).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_SCHEMA, buildPrompt } from '../src/engines/llm.js';
import { type LlmMock, startLlmMock } from './llm-mock.js';

let mock: LlmMock;
beforeAll(async () => {
  mock = await startLlmMock();
});
afterAll(() => mock.close());

it('the official openai SDK talks to the mock: valid requests, parsed answers, 429 and 500 retried', async () => {
  const client = new OpenAI({ baseURL: mock.url, apiKey: 'sk-sdk', maxRetries: 2 });
  const prompt = buildPrompt(
    {
      texts: ['Open the settings.', 'Deploy the site'],
      source: 'en',
      target: 'de',
      markup: false,
      formality: 'default',
    },
    [0, 1],
  );
  mock.faults = [
    { kind: 'status', status: 429, retryAfter: '0' },
    { kind: 'status', status: 500 },
  ];
  const completion = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    temperature: 0,
    max_tokens: 4096,
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'translations',
        strict: true,
        schema: ANSWER_SCHEMA as unknown as Record<string, unknown>,
      },
    },
  });
  expect(mock.calls).toHaveLength(3);
  expect(mock.invalidRequests()).toBe(0);
  expect(mock.invalidResponses()).toBe(0);
  expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({
    translations: [
      { id: '1', text: 'Öffne die Einstellungen.' },
      { id: '2', text: 'Die Website bereitstellen' },
    ],
  });
  expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
  // A request the description forbids is refused by the mock, and the SDK surfaces the 400.
  await expect(
    client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'bogus' as 'user', content: 'x' }],
    }),
  ).rejects.toThrow(/400/);
  expect(mock.invalidRequests()).toBe(1);
});
