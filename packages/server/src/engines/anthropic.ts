/**
 * The `anthropic` engine: Anthropic's Messages API (`POST {baseUrl}/v1/messages`, `x-api-key`,
 * `anthropic-version: 2023-06-01`) with plain `fetch`. Same prompt, batching and reading as `openai`
 * (`llm.ts`); the answer is steered to JSON by starting the assistant's turn with `{` (the Messages API
 * has no JSON mode). Settings: `apiKey` (`ANTHROPIC_API_KEY`), `baseUrl` (`ANTHROPIC_BASE_URL`, default
 * https://api.anthropic.com), `model` (`GLOSSA_ANTHROPIC_MODEL`, default claude-3-5-haiku-latest).
 */
import { billTokens } from './billing.js';
import type { EngineInput, TranslationEngine } from './engine.js';
import { EngineError } from './engine.js';
import { createHttpClient } from './http.js';
import {
  type BatchBudget,
  batchTokens,
  buildPrompt,
  createLlmEngine,
  knownBudget,
  type LlmUsage,
  parseAnswer,
} from './llm.js';

export interface AnthropicOptions {
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly model?: string;
  readonly contextTokens?: number;
  readonly maxOutputTokens?: number;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  readonly retryDelayMs?: number;
  readonly fetch?: typeof fetch;
}

interface MessagesAnswer {
  readonly content?: readonly { readonly type?: string; readonly text?: string }[];
  readonly usage?: { readonly input_tokens?: number; readonly output_tokens?: number };
}

export function createAnthropicEngine(
  options: AnthropicOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): TranslationEngine & { readonly batchBudget: number } {
  const baseUrl = (options.baseUrl ?? env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').replace(
    /\/+$/,
    '',
  );
  if (!/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new TypeError(
      `anthropic: expected baseUrl (ANTHROPIC_BASE_URL) to be an http(s) URL, got ${JSON.stringify(baseUrl)}`,
    );
  }
  const apiKey = options.apiKey ?? (env.ANTHROPIC_API_KEY || undefined);
  if (!apiKey) throw new TypeError('anthropic: ANTHROPIC_API_KEY is not set');
  const model = options.model ?? (env.GLOSSA_ANTHROPIC_MODEL || 'claude-3-5-haiku-latest');
  const known = knownBudget(model);
  const budget: BatchBudget = {
    contextTokens: options.contextTokens ?? known?.contextTokens ?? 200_000,
    maxOutputTokens: options.maxOutputTokens ?? known?.maxOutputTokens ?? 8_192,
  };
  const limit = batchTokens(budget);
  const http = createHttpClient({
    engine: 'anthropic',
    concurrency: options.concurrency ?? 4,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    secrets: [apiKey],
  });
  const usage: LlmUsage = { requests: 0, characters: 0, tokensIn: 0, tokensOut: 0 };
  const host = new URL(baseUrl).host;
  const call = async (input: EngineInput, indexes: number[], notes?: (string | undefined)[]) => {
    const prompt = buildPrompt(input, indexes, notes);
    usage.requests++;
    const response = await http.request('POST', `${baseUrl}/v1/messages`, {
      headers: {
        'content-type': 'application/json',
        'x-api-key': apiKey,
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({
        model,
        max_tokens: budget.maxOutputTokens,
        temperature: 0,
        system: prompt.system,
        messages: [
          { role: 'user', content: prompt.user },
          { role: 'assistant', content: '{' },
        ],
      }),
      signal: input.signal,
    });
    const answer = (response.body ?? {}) as MessagesAnswer;
    const tokens = { tokensIn: answer.usage?.input_tokens ?? 0, tokensOut: answer.usage?.output_tokens ?? 0 };
    usage.tokensIn += tokens.tokensIn;
    usage.tokensOut += tokens.tokensOut;
    billTokens(input, 'anthropic', tokens);
    const text = answer.content?.find((block) => block.type === 'text')?.text;
    if (typeof text !== 'string') throw new EngineError('anthropic: the answer holds no text', 'anthropic');
    return parseAnswer(text.trimStart().startsWith('{') ? text : `{${text}`);
  };
  return createLlmEngine({ name: 'anthropic', host, model, limit, usage, call });
}
