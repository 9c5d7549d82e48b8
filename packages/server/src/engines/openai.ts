/**
 * The `openai` engine: any OpenAI-compatible chat-completions service (OpenAI, Azure OpenAI, Ollama, vLLM,
 * llama.cpp's server, LM Studio, OpenRouter, Groq, Mistral, DeepSeek, Gemini's compatible endpoint).
 *
 * `POST {baseUrl}/chat/completions` with plain `fetch` (no SDK to install): many segments per call as JSON
 * with an id each (`llm.ts`), `temperature: 0`, the answer constrained by `response_format: json_schema`
 * where the service takes it; a service that refuses it is asked for `json_object`, then for nothing (the
 * tolerant parser reads what comes). Batches stay within a token budget from the model's context size.
 * Settings: `baseUrl` (`OPENAI_BASE_URL`, default https://api.openai.com/v1), `apiKey` (`OPENAI_API_KEY`;
 * local services need none), `model` (`GLOSSA_OPENAI_MODEL`, default gpt-4o-mini).
 */
import { billTokens } from './billing.js';
import type { EngineInput, TranslationEngine } from './engine.js';
import { EngineError } from './engine.js';
import { createHttpClient, HttpStatusError } from './http.js';
import {
  ANSWER_SCHEMA,
  type BatchBudget,
  batchTokens,
  buildPrompt,
  createLlmEngine,
  knownBudget,
  type LlmUsage,
  parseAnswer,
} from './llm.js';

export interface OpenAiOptions {
  /** Default `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
  readonly baseUrl?: string;
  /** Default `OPENAI_API_KEY`; none for a local service. */
  readonly apiKey?: string;
  /** Default `GLOSSA_OPENAI_MODEL`, else `gpt-4o-mini`. */
  readonly model?: string;
  /** How the answer is constrained: `json_schema` (default), `json_object`, or `none`. */
  readonly responseFormat?: 'json_schema' | 'json_object' | 'none';
  /** The model's context window, in tokens (`GLOSSA_OPENAI_CONTEXT_TOKENS`); default from the model's name, else 8192. */
  readonly contextTokens?: number;
  /** The most one answer may hold, in tokens; default from the model's name, else 4096. */
  readonly maxOutputTokens?: number;
  /** Calls in flight at once (`GLOSSA_OPENAI_CONCURRENCY`). Default 4. */
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  readonly retryDelayMs?: number;
  /**
   * Azure OpenAI's `api-version` query parameter (`OPENAI_API_VERSION`, e.g. `2024-10-21`), sent on every
   * call; with `baseUrl` `https://{resource}.openai.azure.com/openai/deployments/{deployment}` and the key in
   * `headers: {"api-key": …}`. Default: none.
   */
  readonly apiVersion?: string;
  /** Extra headers (Azure's `api-key`, OpenRouter's `HTTP-Referer`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
}

interface ChatAnswer {
  readonly choices?: readonly {
    readonly message?: { readonly content?: string | null };
    readonly finish_reason?: string;
  }[];
  readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number };
}

const positive = (name: string, value: unknown): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1)
    throw new RangeError(`${name}: expected a positive integer, got ${JSON.stringify(value)}`);
  return number;
};

export function createOpenAiEngine(
  options: OpenAiOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): TranslationEngine & { readonly batchBudget: number } {
  const baseUrl = (options.baseUrl ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new TypeError(
      `openai: expected baseUrl (OPENAI_BASE_URL) to be an http(s) URL, got ${JSON.stringify(baseUrl)}`,
    );
  }
  const apiKey = options.apiKey ?? (env.OPENAI_API_KEY || undefined);
  const model = options.model ?? (env.GLOSSA_OPENAI_MODEL || 'gpt-4o-mini');
  if (apiKey === undefined && new URL(baseUrl).hostname === 'api.openai.com') {
    throw new TypeError(
      'openai: OPENAI_API_KEY is not set (api.openai.com needs a key; a local service such as Ollama does not)',
    );
  }
  const known = knownBudget(model);
  const budget: BatchBudget = {
    contextTokens:
      options.contextTokens ??
      positive('GLOSSA_OPENAI_CONTEXT_TOKENS', env.GLOSSA_OPENAI_CONTEXT_TOKENS) ??
      known?.contextTokens ??
      8_192,
    maxOutputTokens: options.maxOutputTokens ?? known?.maxOutputTokens ?? 4_096,
  };
  const limit = batchTokens(budget);
  let format = options.responseFormat ?? 'json_schema';
  let tokensField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';
  let sendTemperature = true;
  const http = createHttpClient({
    engine: 'openai',
    concurrency:
      options.concurrency ?? positive('GLOSSA_OPENAI_CONCURRENCY', env.GLOSSA_OPENAI_CONCURRENCY) ?? 4,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    secrets: apiKey ? [apiKey] : [],
  });
  const usage: LlmUsage = { requests: 0, characters: 0, tokensIn: 0, tokensOut: 0 };
  const host = new URL(baseUrl).host;
  const apiVersion = options.apiVersion ?? (env.OPENAI_API_VERSION || undefined);
  const versionQuery = apiVersion ? `?api-version=${encodeURIComponent(apiVersion)}` : '';

  const call = async (input: EngineInput, indexes: number[], notes?: (string | undefined)[]) => {
    const prompt = buildPrompt(input, indexes, notes);
    for (;;) {
      const body: Record<string, unknown> = {
        model,
        messages: [
          { role: 'system', content: prompt.system },
          { role: 'user', content: prompt.user },
        ],
        ...(sendTemperature ? { temperature: 0 } : {}),
        [tokensField]: budget.maxOutputTokens,
      };
      if (format === 'json_schema') {
        body.response_format = {
          type: 'json_schema',
          json_schema: { name: 'translations', strict: true, schema: ANSWER_SCHEMA },
        };
      } else if (format === 'json_object') body.response_format = { type: 'json_object' };
      let answer: ChatAnswer;
      try {
        usage.requests++;
        const response = await http.request('POST', `${baseUrl}/chat/completions${versionQuery}`, {
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
            ...options.headers,
          },
          body: JSON.stringify(body),
          signal: input.signal,
        });
        answer = (response.body ?? {}) as ChatAnswer;
      } catch (error) {
        // Reasoning models (o-series, gpt-5) take `max_completion_tokens` and only their default temperature.
        if (
          error instanceof HttpStatusError &&
          error.status === 400 &&
          /'?max_tokens'?/.test(error.body) &&
          tokensField === 'max_tokens'
        ) {
          tokensField = 'max_completion_tokens';
          continue;
        }
        if (
          error instanceof HttpStatusError &&
          error.status === 400 &&
          /temperature/.test(error.body) &&
          sendTemperature
        ) {
          sendTemperature = false;
          continue;
        }
        // A service without structured outputs: ask for less, once per level.
        if (
          error instanceof HttpStatusError &&
          error.status === 400 &&
          format !== 'none' &&
          /response_format|json_schema|json_object/i.test(error.body)
        ) {
          format = format === 'json_schema' ? 'json_object' : 'none';
          continue;
        }
        throw error;
      }
      const tokens = {
        tokensIn: answer.usage?.prompt_tokens ?? 0,
        tokensOut: answer.usage?.completion_tokens ?? 0,
      };
      usage.tokensIn += tokens.tokensIn;
      usage.tokensOut += tokens.tokensOut;
      billTokens(input, 'openai', tokens);
      const content = answer.choices?.[0]?.message?.content;
      if (typeof content !== 'string') {
        throw new EngineError('openai: the answer holds no message content', 'openai');
      }
      return parseAnswer(content);
    }
  };

  return createLlmEngine({ name: 'openai', host, model, limit, usage, call });
}
