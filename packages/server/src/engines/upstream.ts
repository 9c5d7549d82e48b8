/**
 * The `upstream` engine: forwards translation to a remote service of the same interface (another Glossa
 * server, or any service speaking it). This is the gateway mode: the local server keeps its own cache,
 * quotas and memories and sends only what it must.
 *
 * It speaks the interface with a small `fetch` of its own: the server must not depend on `@glossa/client`,
 * whose tests start this server (a cyclic package graph). Requests carry `tag_handling=xml` when the
 * segments hold inline codes, so `<g>`/`<x/>` travel as XML and come back in place. 429 and 5xx answers
 * (and network failures) are retried a few times with backoff, honouring `Retry-After`.
 *
 * The key is sent only in the `Authorization` header and never appears in an error message.
 */
import { ERROR_CODES, isPseudoLocale, MAX_TRANSLATE_REQUEST_BYTES } from '@glossa/protocol';
import type { EngineInput, LanguagePair, TranslationEngine } from './engine.js';
import { EngineError, UnsupportedPairError } from './engine.js';

export interface UpstreamEngineOptions {
  /** Base URL of the remote service, e.g. `https://glossa.example.com` (paths like `/v2/translate` follow). */
  readonly baseUrl: string;
  /** The key for the remote service. */
  readonly authKey: string;
  /** Retries after a 429, a 5xx or a network failure. Default 2. */
  readonly maxRetries?: number;
  /** Time limit per request, in ms. Default 30 000. */
  readonly timeoutMs?: number;
  /** First backoff delay in ms (doubled each retry; `Retry-After` wins when sent). Default 250. */
  readonly retryDelayMs?: number;
  /** Transport; default the global `fetch`. */
  readonly fetch?: typeof fetch;
}

interface RemoteLanguage {
  readonly lang: string;
  readonly usable_as_source?: boolean;
  readonly usable_as_target?: boolean;
  readonly features?: Readonly<Record<string, unknown>>;
}

/** Leave room under the remote's body limit for the other fields. */
const MAX_BATCH_BYTES = MAX_TRANSLATE_REQUEST_BYTES - 4 * 1024;
const MAX_RETRY_AFTER_MS = 10_000;

const base = (code: string) => code.split('-')[0]!.toLowerCase();

/**
 * Connects to the remote service and reads its translation languages (`GET /v3/languages`).
 * @throws {EngineError} when the remote cannot be reached or refuses the key.
 * @throws {TypeError} when `baseUrl` is not an http(s) URL or `authKey` is empty.
 */
export async function createUpstreamEngine(options: UpstreamEngineOptions): Promise<TranslationEngine> {
  const resolved = resolveOptions(options);
  const answer = await request<unknown>(resolved, 'GET', '/v3/languages?resource=translate_text');
  if (!Array.isArray(answer))
    throw new EngineError('upstream: /v3/languages did not answer a list', 'upstream');
  const languages = answer.filter(
    (l): l is RemoteLanguage => typeof l === 'object' && l !== null && typeof l.lang === 'string',
  );
  const sources = languages.filter((l) => l.usable_as_source).map((l) => base(l.lang));
  const targets = languages.filter((l) => l.usable_as_target);
  const pairs: LanguagePair[] = [...new Set(sources)].flatMap((source) =>
    targets
      .filter((t) => base(t.lang) !== source || isPseudoLocale(t.lang))
      .map((t) => ({ source, target: t.lang })),
  );
  const formality = new Set(
    targets
      .filter((t) => typeof t.features === 'object' && t.features !== null && 'formality' in t.features)
      .map((t) => t.lang.toLowerCase()),
  );
  const origin = resolved.baseUrl.replace(/^https?:\/\//, '');

  return {
    name: 'upstream',
    pairs: () => pairs,
    fingerprint: (pair) => `upstream/${origin}/${pair.source}>${pair.target}`,
    supportsFormality: (target) => formality.has(target.toLowerCase()),
    async translate(input: EngineInput): Promise<string[]> {
      const out: string[] = [];
      for (const batch of batches(input.texts)) {
        const body: Record<string, unknown> = {
          text: batch,
          source_lang: input.source.toUpperCase(),
          target_lang: input.target.toUpperCase(),
        };
        if (input.markup) body['tag_handling'] = 'xml';
        if (input.formality !== 'default') body['formality'] = input.formality;
        if (input.instructions?.length) body['custom_instructions'] = input.instructions;
        const answer = await request<unknown>(resolved, 'POST', '/v2/translate', body, input.signal);
        const list = (answer as { translations?: unknown } | null)?.translations;
        const texts = Array.isArray(list)
          ? list.map((t: unknown) =>
              typeof t === 'object' && t !== null ? (t as { text?: unknown }).text : t,
            )
          : undefined;
        if (!texts || texts.length !== batch.length || texts.some((t) => typeof t !== 'string')) {
          throw new EngineError(
            `upstream: /v2/translate answered ${texts?.length ?? 'no'} translations for ${batch.length} texts`,
            'upstream',
          );
        }
        out.push(...(texts as string[]));
      }
      return out;
    },
    close: async () => {},
  };
}

type Resolved = Required<Omit<UpstreamEngineOptions, 'fetch'>> & { readonly fetch: typeof fetch };

function resolveOptions(options: UpstreamEngineOptions): Resolved {
  if (!/^https?:\/\/[^/]/.test(options.baseUrl ?? '')) {
    throw new TypeError(
      `createUpstreamEngine: expected baseUrl to be an http(s) URL, got ${JSON.stringify(options.baseUrl)}`,
    );
  }
  if (typeof options.authKey !== 'string' || options.authKey === '') {
    throw new TypeError('createUpstreamEngine: expected authKey to be a non-empty string');
  }
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    authKey: options.authKey,
    maxRetries: options.maxRetries ?? 2,
    timeoutMs: options.timeoutMs ?? 30_000,
    retryDelayMs: options.retryDelayMs ?? 250,
    fetch: options.fetch ?? fetch,
  };
}

/** Splits texts into requests whose JSON body stays under the remote's size limit, order kept. */
function batches(texts: readonly string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const text of texts) {
    const size = Buffer.byteLength(JSON.stringify(text)) + 1;
    if (current.length > 0 && bytes + size > MAX_BATCH_BYTES) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(text);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Retry delay: `Retry-After` (seconds or an HTTP date) when sent, else exponential backoff. */
function retryDelay(response: Response | undefined, attempt: number, options: Resolved): number {
  const header = response?.headers.get('retry-after');
  if (header) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
  }
  return options.retryDelayMs * 2 ** attempt;
}

async function request<T>(
  options: Resolved,
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(options.timeoutMs);
    let response: Response | undefined;
    try {
      response = await options.fetch(options.baseUrl + path, {
        method,
        headers: {
          authorization: `Service-Auth-Key ${options.authKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (attempt < options.maxRetries) {
        await sleep(retryDelay(undefined, attempt, options), signal);
        continue;
      }
      const reason = timeout.aborted ? `no answer within ${options.timeoutMs} ms` : 'could not connect';
      throw new EngineError(`upstream: ${method} ${path.split('?')[0]}: ${reason}`, 'upstream', {
        cause: error,
      });
    }
    if (response.ok) {
      try {
        return (await response.json()) as T;
      } catch (error) {
        throw new EngineError(`upstream: ${method} ${path.split('?')[0]} answered invalid JSON`, 'upstream', {
          cause: error,
        });
      }
    }
    const retryable = response.status === 429 || response.status >= 500;
    if (retryable && attempt < options.maxRetries) {
      await response.body?.cancel();
      await sleep(retryDelay(response, attempt, options), signal);
      continue;
    }
    const detail = await response.text().catch(() => '');
    let message = detail.slice(0, 200);
    let code: unknown;
    try {
      const parsed = JSON.parse(detail) as { message?: unknown; code?: unknown };
      message = String(parsed.message ?? message);
      code = parsed.code;
    } catch {
      // Not JSON: keep the text.
    }
    message = message.replaceAll(options.authKey, '[redacted]');
    if (response.status === 400 && code === ERROR_CODES.unsupportedLanguage) {
      throw new UnsupportedPairError(`upstream: ${message}`, 'upstream');
    }
    throw new EngineError(
      `upstream: ${method} ${path.split('?')[0]} answered ${response.status}${message ? `: ${message}` : ''}`,
      'upstream',
    );
  }
}
