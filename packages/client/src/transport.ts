/**
 * The one place that talks HTTP: builds the request, runs attempts with a per-attempt timeout, maps
 * failures to typed errors and retries the retryable ones with backoff. Every resource goes through it.
 */
import { REPORTING_TAG_HEADER } from '@glossa/protocol';
import {
  ConnectionError,
  errorFromResponse,
  GlossaError,
  RequestAbortedError,
  redactSecrets,
  ServerError,
  TimeoutError,
  TooManyRequestsError,
} from './errors.js';
import type { RequestOptions, ResolvedClientOptions } from './options.js';
import { computeRetryDelay, parseRetryAfter, sleep } from './retry.js';

export type QueryValue = string | number | boolean | readonly string[] | undefined;
export type ResponseKind = 'json' | 'text' | 'bytes' | 'none';

export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path under the base URL (`/v2/translate`), sent with the Authorization header. */
  readonly path?: string;
  /**
   * An absolute, self-authorizing URL (a signed upload or download URL). No Authorization header, no
   * client-wide headers and no reporting tag are sent there.
   */
  readonly url?: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  /** A JSON body. */
  readonly json?: unknown;
  /** A multipart body (document upload). */
  readonly form?: FormData;
  /** A raw body (a TMX upload). */
  readonly raw?: { readonly body: Uint8Array; readonly contentType: string };
  readonly accept?: string;
  /** What to read from a successful response. Default `json`. */
  readonly expect?: ResponseKind;
  readonly options?: RequestOptions | undefined;
}

const USER_AGENT = 'glossa-client/0.1.0';

export class Transport {
  readonly #config: ResolvedClientOptions;
  readonly #secrets: readonly string[];

  constructor(config: ResolvedClientOptions) {
    this.#config = config;
    this.#secrets = [config.authKey];
  }

  get baseUrl(): URL {
    return new URL(this.#config.baseUrl);
  }

  /** Remove the key from a text (for messages built outside the transport). */
  redact(text: string): string {
    return redactSecrets(text, this.#secrets);
  }

  /** Run a request with retries; resolves to the parsed response. */
  async request<T>(request: HttpRequest): Promise<T> {
    const options = request.options ?? {};
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new RangeError(`Expected \`maxRetries\` to be an integer ≥ 0, got ${String(maxRetries)}`);
    }
    const timeout = options.timeout;
    if (timeout !== undefined && (!Number.isInteger(timeout) || timeout < 0)) {
      throw new RangeError(`Expected \`timeout\` to be an integer ≥ 0 (ms), got ${String(timeout)}`);
    }
    const operation = this.#describe(request);
    for (let retry = 0; ; retry++) {
      try {
        return (await this.#attempt(request, operation)) as T;
      } catch (error) {
        if (!(error instanceof GlossaError) || !error.retryable || retry >= maxRetries) throw error;
        const retryAfterMs =
          error instanceof TooManyRequestsError || error instanceof ServerError
            ? error.retryAfterMs
            : undefined;
        const delay = computeRetryDelay(retry + 1, retryAfterMs, this.#config.retry);
        const trace = error.traceId ? `, trace ${error.traceId}` : '';
        this.#log(
          'warn',
          `${operation}: ${error.name}${trace}; retry ${retry + 1}/${maxRetries} in ${delay} ms`,
        );
        try {
          await sleep(delay, options.signal);
        } catch (reason) {
          throw new RequestAbortedError(`${operation} was aborted while waiting to retry`, { cause: reason });
        }
      }
    }
  }

  async #attempt(request: HttpRequest, operation: string): Promise<unknown> {
    const options = request.options ?? {};
    const signal = options.signal;
    if (signal?.aborted) throw new RequestAbortedError(`${operation} was aborted`, { cause: signal.reason });
    const timeout = options.timeout ?? this.#config.timeout;
    const controller = new AbortController();
    let timedOut = false;
    const timer =
      timeout > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort(new Error('timeout'));
          }, timeout)
        : undefined;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const started = Date.now();
    const failure = (error: unknown): GlossaError => {
      if (error instanceof GlossaError) return error;
      if (signal?.aborted)
        return new RequestAbortedError(`${operation} was aborted`, { cause: signal.reason });
      if (timedOut) return new TimeoutError(`${operation} timed out after ${timeout} ms`, { cause: error });
      return new ConnectionError(this.redact(`${operation} failed: ${describeNetworkError(error)}`), {
        cause: error,
      });
    };
    try {
      // Misuse (a bad header value) throws a TypeError here, before the network, and is not retried.
      const url = this.#url(request);
      const init = this.#init(request, controller);
      let response: Response;
      try {
        response = await raceAbort(this.#config.fetch(url, init), controller.signal);
      } catch (error) {
        throw failure(error);
      }
      const traceId = response.headers.get('x-trace-id') ?? undefined;
      let payload: unknown;
      let bodyText = '';
      try {
        if (response.ok)
          payload = await raceAbort(readBody(response, request.expect ?? 'json'), controller.signal);
        else bodyText = await raceAbort(response.text(), controller.signal);
      } catch (error) {
        if (error instanceof SyntaxError) {
          throw new GlossaError(`${operation} returned a body that is not valid JSON`, {
            status: response.status,
            code: 'invalid_response',
            traceId,
            cause: error,
          });
        }
        throw failure(error);
      }
      const trace = traceId ? `, trace ${traceId}` : '';
      this.#log('debug', `${operation} -> ${response.status} (${Date.now() - started} ms${trace})`);
      if (!response.ok) {
        throw errorFromResponse({
          status: response.status,
          bodyText,
          traceId,
          retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
          operation,
          secrets: this.#secrets,
        });
      }
      return payload;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #url(request: HttpRequest): URL {
    let url: URL;
    if (request.url !== undefined) url = new URL(request.url);
    else if (request.path !== undefined)
      url = new URL(request.path.replace(/^\/+/, ''), this.#config.baseUrl);
    else throw new TypeError('A request needs a path or a url');
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, String(item));
      else url.searchParams.set(name, String(value));
    }
    return url;
  }

  #init(request: HttpRequest, controller: AbortController): RequestInit {
    const headers = new Headers({ 'user-agent': USER_AGENT, accept: request.accept ?? 'application/json' });
    const signed = request.url !== undefined;
    if (!signed) {
      for (const [name, value] of Object.entries(this.#config.headers)) headers.set(name, value);
    }
    for (const [name, value] of Object.entries(request.options?.headers ?? {})) headers.set(name, value);
    if (!signed) {
      if (this.#config.reportingTag !== undefined)
        headers.set(REPORTING_TAG_HEADER, this.#config.reportingTag);
      headers.set('authorization', `Service-Auth-Key ${this.#config.authKey}`);
    } else {
      headers.delete('authorization');
    }
    let body: NonNullable<RequestInit['body']> | null = null;
    if (request.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(request.json);
    } else if (request.form !== undefined) {
      body = request.form;
    } else if (request.raw !== undefined) {
      headers.set('content-type', request.raw.contentType);
      body = request.raw.body;
    }
    return { method: request.method, headers, body, signal: controller.signal };
  }

  #describe(request: HttpRequest): string {
    if (request.path !== undefined) return `${request.method} ${request.path}`;
    // A signed URL carries its credential in the query: never name it.
    const url = new URL(request.url ?? '');
    return `${request.method} ${url.origin}${url.pathname}`;
  }

  #log(level: 'debug' | 'warn', line: string): void {
    const logger = this.#config.logger;
    if (!logger) return;
    logger[level](this.redact(line));
  }
}

async function readBody(response: Response, kind: ResponseKind): Promise<unknown> {
  switch (kind) {
    case 'none':
      await response.arrayBuffer();
      return undefined;
    case 'text':
      return response.text();
    case 'bytes':
      return Buffer.from(await response.arrayBuffer());
    default: {
      const text = await response.text();
      return text === '' ? undefined : JSON.parse(text);
    }
  }
}

/** Settle with `promise`, or reject as soon as `signal` aborts (an injected fetch may ignore the signal). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (cause && typeof cause.code === 'string') return `connection error (${cause.code})`;
  if (cause && typeof cause.message === 'string') return `connection error (${cause.message})`;
  return `connection error (${error.message})`;
}
