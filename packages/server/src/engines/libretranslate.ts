/**
 * The `libretranslate` engine: a LibreTranslate server (self-hosted or libretranslate.com). `POST
 * {url}/translate` with `q` as a list, `format=html` when the texts hold inline codes, `api_key` when one is
 * set; its pairs come from `GET {url}/languages` at start. No formality, glossaries (the pipeline locks terms
 * in codes), context or instructions. Settings: `url` (`LIBRETRANSLATE_URL`, default http://127.0.0.1:5000),
 * `apiKey` (`LIBRETRANSLATE_API_KEY`).
 */
import type { EngineInput, EngineUsage, LanguagePair, TranslationEngine } from './engine.js';
import { EngineError } from './engine.js';
import { createHttpClient } from './http.js';

export interface LibreTranslateOptions {
  readonly url?: string;
  readonly apiKey?: string;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  readonly retryDelayMs?: number;
  readonly fetch?: typeof fetch;
}

/** Texts per request: LibreTranslate's default `--batch-limit` is unlimited; servers often set 16-100. */
const MAX_TEXTS = 16;

export async function createLibreTranslateEngine(
  options: LibreTranslateOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<TranslationEngine> {
  const url = (options.url ?? (env.LIBRETRANSLATE_URL || 'http://127.0.0.1:5000')).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(url)) {
    throw new TypeError(
      `libretranslate: expected url (LIBRETRANSLATE_URL) to be an http(s) URL, got ${JSON.stringify(url)}`,
    );
  }
  const apiKey = options.apiKey ?? (env.LIBRETRANSLATE_API_KEY || undefined);
  const http = createHttpClient({
    engine: 'libretranslate',
    concurrency: options.concurrency ?? 2,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    secrets: apiKey ? [apiKey] : [],
  });
  const languages = (
    await http.request('GET', `${url}/languages`, { headers: { accept: 'application/json' } })
  ).body;
  if (!Array.isArray(languages))
    throw new EngineError('libretranslate: /languages did not answer a list', 'libretranslate');
  const pairs: LanguagePair[] = languages.flatMap((language: { code?: unknown; targets?: unknown }) =>
    typeof language.code === 'string' && Array.isArray(language.targets)
      ? language.targets
          .filter((target): target is string => typeof target === 'string' && target !== language.code)
          .map((target) => ({ source: language.code as string, target }))
      : [],
  );
  const usage = { requests: 0, characters: 0, tokensIn: 0, tokensOut: 0 };
  return {
    name: 'libretranslate',
    pairs: () => pairs,
    fingerprint: (pair) => `libretranslate/${new URL(url).host}/${pair.source}>${pair.target}`,
    supportsFormality: () => false,
    verification: 'full',
    usage: (): EngineUsage => ({ ...usage }),
    async translate(input: EngineInput): Promise<string[]> {
      const outputs = new Array<string>(input.texts.length);
      const batches: number[][] = [];
      for (let start = 0; start < input.texts.length; start += MAX_TEXTS) {
        batches.push(input.texts.slice(start, start + MAX_TEXTS).map((_, offset) => start + offset));
      }
      await Promise.all(
        batches.map(async (indexes) => {
          const q = indexes.map((index) => input.texts[index]!);
          usage.requests++;
          usage.characters += q.reduce((sum, text) => sum + text.length, 0);
          const answer = await http.request('POST', `${url}/translate`, {
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({
              q,
              source: input.source,
              target: input.target,
              format: input.markup ? 'html' : 'text',
              ...(apiKey ? { api_key: apiKey } : {}),
            }),
            signal: input.signal,
          });
          const list = (answer.body as { translatedText?: unknown } | undefined)?.translatedText;
          if (!Array.isArray(list) || list.length !== q.length) {
            throw new EngineError(
              `libretranslate: answered ${Array.isArray(list) ? list.length : 'no'} translations for ${q.length} texts`,
              'libretranslate',
            );
          }
          indexes.forEach((textIndex, position) => {
            const text = list[position];
            if (typeof text === 'string') outputs[textIndex] = text;
          });
        }),
      );
      return outputs;
    },
    close: async () => {},
  };
}
