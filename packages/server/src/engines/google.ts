/**
 * The `google` engine: Cloud Translation Basic (v2) with an API key: `POST
 * {baseUrl}/language/translate/v2?key=…` with `q` (128 texts, about 30k characters a request at most),
 * `format=html` when the texts hold inline codes (the `<g>`/`<x/>` codes come back as tags; the HTML
 * entities Google adds are turned back into characters), `text` otherwise. No formality, glossaries
 * (the pipeline locks terms in codes), context or instructions: v2 has none of them. Settings: `apiKey`
 * (`GOOGLE_API_KEY`), `baseUrl` (`GLOSSA_GOOGLE_BASE_URL`, default https://translation.googleapis.com).
 */
import { LANGUAGES } from '@glossa/protocol';
import type { EngineInput, EngineUsage, LanguagePair, TranslationEngine } from './engine.js';
import { EngineError } from './engine.js';
import { createHttpClient } from './http.js';

export interface GoogleOptions {
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  readonly retryDelayMs?: number;
  readonly fetch?: typeof fetch;
}

const MAX_TEXTS = 128;
const MAX_CHARACTERS = 25_000;

/** Google's entities back to characters, except the three the markup contract keeps escaped. */
export function decodeGoogleEntities(text: string, markup: boolean): string {
  const decoded = text
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&nbsp;|&#160;/g, '\u00a0');
  return markup ? decoded : decoded.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

export function createGoogleEngine(
  options: GoogleOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): TranslationEngine {
  const apiKey = options.apiKey ?? (env.GOOGLE_API_KEY || undefined);
  if (!apiKey) throw new TypeError('google: GOOGLE_API_KEY is not set');
  const baseUrl = (
    options.baseUrl ??
    (env.GLOSSA_GOOGLE_BASE_URL || 'https://translation.googleapis.com')
  ).replace(/\/+$/, '');
  const http = createHttpClient({
    engine: 'google',
    concurrency: options.concurrency ?? 4,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    secrets: [apiKey],
  });
  const usage = { requests: 0, characters: 0, tokensIn: 0, tokensOut: 0 };
  const codes = LANGUAGES.filter((language) => !language.pseudo).map((language) => language.code);
  const pairs: LanguagePair[] = codes
    .filter((code) => !code.includes('-'))
    .flatMap((source) =>
      codes.filter((target) => target.split('-')[0] !== source).map((target) => ({ source, target })),
    );
  return {
    name: 'google',
    pairs: () => pairs,
    fingerprint: (pair) => `google/v2/${pair.source}>${pair.target}`,
    supportsFormality: () => false,
    verification: 'full',
    usage: (): EngineUsage => ({ ...usage }),
    async translate(input: EngineInput): Promise<string[]> {
      const batches: number[][] = [];
      let current: number[] = [];
      let size = 0;
      input.texts.forEach((text, index) => {
        if (current.length > 0 && (current.length >= MAX_TEXTS || size + text.length > MAX_CHARACTERS)) {
          batches.push(current);
          current = [];
          size = 0;
        }
        current.push(index);
        size += text.length;
      });
      if (current.length > 0) batches.push(current);
      const outputs = new Array<string>(input.texts.length);
      await Promise.all(
        batches.map(async (indexes) => {
          const q = indexes.map((index) => input.texts[index]!);
          usage.requests++;
          usage.characters += q.reduce((sum, text) => sum + text.length, 0);
          const answer = await http.request(
            'POST',
            `${baseUrl}/language/translate/v2?key=${encodeURIComponent(apiKey)}`,
            {
              headers: { 'content-type': 'application/json', accept: 'application/json' },
              body: JSON.stringify({
                q,
                source: input.source,
                target: input.target,
                format: input.markup ? 'html' : 'text',
              }),
              signal: input.signal,
            },
          );
          const list = (
            answer.body as { data?: { translations?: { translatedText?: unknown }[] } } | undefined
          )?.data?.translations;
          if (!Array.isArray(list) || list.length !== q.length) {
            throw new EngineError(
              `google: answered ${Array.isArray(list) ? list.length : 'no'} translations for ${q.length} texts`,
              'google',
            );
          }
          indexes.forEach((textIndex, position) => {
            const text = list[position]?.translatedText;
            if (typeof text === 'string') outputs[textIndex] = decodeGoogleEntities(text, input.markup);
          });
        }),
      );
      return outputs;
    },
    close: async () => {},
  };
}
