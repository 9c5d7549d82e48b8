/**
 * The HTTP side every remote engine shares: JSON over `fetch` with a time limit, retries of 429, 5xx and
 * network failures (backoff doubled each time, `Retry-After` honoured when the provider sends it), a
 * limit on requests in flight per engine, and secrets kept out of every error message.
 */
import { EngineError } from './engine.js';

export interface HttpOptions {
  /** Engine name for errors (`openai`, `deepl`). */
  readonly engine: string;
  /** Retries after a 429, a 5xx or a network failure. Default 3. */
  readonly maxRetries?: number;
  /** Time limit per request, in ms. Default 60 000. */
  readonly timeoutMs?: number;
  /** First backoff delay in ms (doubled each retry; `Retry-After` wins when sent). Default 500. */
  readonly retryDelayMs?: number;
  /** Longest wait a `Retry-After` may ask for, in ms. Default 30 000. */
  readonly maxRetryAfterMs?: number;
  /** Requests in flight at once. Default 4. */
  readonly concurrency?: number;
  /** Values never to show in an error message (keys). */
  readonly secrets?: readonly string[];
  /** Transport; default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Statuses not retried although 5xx or 429 (DeepL's 456 is a 4xx and final anyway). */
  readonly finalStatuses?: readonly number[];
}

/** An answer that is not 2xx after the retries: status and the provider's message (secrets removed). */
export class HttpStatusError extends EngineError {
  override readonly name = 'HttpStatusError';
  constructor(
    message: string,
    engine: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(message, engine);
  }
}

export interface HttpClient {
  /** Sends a request, retrying as configured; resolves with the parsed JSON (or text when not JSON). */
  request(
    method: string,
    url: string,
    init: { headers?: Record<string, string>; body?: string; signal?: AbortSignal | undefined },
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
  /** Requests sent, retries included. */
  readonly sent: () => number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
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

/** A counting semaphore: `run` waits for a free slot. */
export function limiter(slots: number): <T>(task: () => Promise<T>) => Promise<T> {
  let free = Math.max(1, slots);
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (free === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    else free--;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.replaceAll(secret, '[redacted]');
  return out;
}

export function createHttpClient(options: HttpOptions): HttpClient {
  const maxRetries = options.maxRetries ?? 3;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  const secrets = options.secrets ?? [];
  const transport = options.fetch ?? fetch;
  const slot = limiter(options.concurrency ?? 4);
  let sent = 0;
  const delay = (response: Response | undefined, attempt: number) => {
    const header = response?.headers.get('retry-after-ms') ?? undefined;
    if (header && Number.isFinite(Number(header))) return Math.min(Number(header), maxRetryAfterMs);
    const after = response?.headers.get('retry-after');
    if (after) {
      const seconds = Number(after);
      const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - Date.now();
      if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), maxRetryAfterMs);
    }
    return retryDelayMs * 2 ** attempt;
  };
  const where = (method: string, url: string) => `${method} ${new URL(url).pathname}`;
  return {
    sent: () => sent,
    request: (method, url, init) =>
      slot(async () => {
        for (let attempt = 0; ; attempt++) {
          init.signal?.throwIfAborted();
          const timeout = AbortSignal.timeout(timeoutMs);
          let response: Response;
          try {
            sent++;
            response = await transport(url, {
              method,
              headers: init.headers ?? {},
              ...(init.body === undefined ? {} : { body: init.body }),
              signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
            });
          } catch (error) {
            if (init.signal?.aborted) throw init.signal.reason;
            if (attempt < maxRetries) {
              await sleep(delay(undefined, attempt), init.signal);
              continue;
            }
            const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : 'could not connect';
            throw new EngineError(`${options.engine}: ${where(method, url)}: ${reason}`, options.engine, {
              cause: error,
            });
          }
          const retryable =
            (response.status === 429 || response.status >= 500) &&
            !options.finalStatuses?.includes(response.status);
          if (retryable && attempt < maxRetries) {
            await response.body?.cancel();
            await sleep(delay(response, attempt), init.signal);
            continue;
          }
          const text = await response.text();
          if (!response.ok) {
            let message = text.slice(0, 300);
            try {
              const parsed = JSON.parse(text) as { message?: unknown; error?: unknown };
              const detail =
                parsed.message ??
                (typeof parsed.error === 'object' && parsed.error !== null
                  ? (parsed.error as { message?: unknown }).message
                  : parsed.error);
              if (detail !== undefined) message = String(detail).slice(0, 300);
            } catch {
              // Not JSON: keep the text.
            }
            throw new HttpStatusError(
              redact(
                `${options.engine}: ${where(method, url)} answered ${response.status}${message ? `: ${message}` : ''}`,
                secrets,
              ),
              options.engine,
              response.status,
              redact(text.slice(0, 2000), secrets),
            );
          }
          let body: unknown = text;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            // Not JSON: the caller gets the text.
          }
          return { status: response.status, body, headers: response.headers };
        }
      }),
  };
}
