import { MAX_REPORTING_TAG_LENGTH } from '@glossa/protocol';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';

/**
 * Base URL of a local Glossa server's paid-plan port (`glossa-server` with its default ports).
 * Used when no `serverUrl` is given and the key is a paid-plan key.
 */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8080';
/** Base URL of a local Glossa server's free-plan port; used for `:fx` keys when no `serverUrl` is given. */
export const DEFAULT_FREE_SERVER_URL = 'http://127.0.0.1:8081';

/** Where log lines go. `console` fits. Lines never contain the key. */
export interface Logger {
  debug(message: string): void;
  warn(message: string): void;
}

export interface ClientOptions {
  /** The account's key, sent as `Authorization: Service-Auth-Key <key>`. Required. */
  authKey: string;
  /** Base URL of the service. Default: `DEFAULT_SERVER_URL`, or `DEFAULT_FREE_SERVER_URL` for a `:fx` key. */
  serverUrl?: string | URL | undefined;
  /** The `fetch` to use. Default: the global `fetch`. */
  fetch?: typeof fetch | undefined;
  /** Retries after the first attempt for retryable failures. Default 4. */
  maxRetries?: number | undefined;
  /** Time limit of one attempt in ms (headers and body); 0 = none. Default 60,000. */
  timeout?: number | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /** Custom reporting tag (`X-Service-Reporting-Tag`): ≤100 ASCII characters, no whitespace inside. */
  reportingTag?: string | undefined;
  /** Receives a debug line per response and a warn line per retry. Default: none. */
  logger?: Logger | undefined;
  /** Ceiling of the first retry's random wait in ms. Default 500. */
  retryBaseDelay?: number | undefined;
  /** Largest backoff ceiling in ms. Default 8,000. */
  retryMaxDelay?: number | undefined;
  /** Largest `Retry-After` honoured, in ms. Default 60,000. */
  maxRetryAfter?: number | undefined;
  /** How long language lookups are cached, in ms (0 = not cached). Default and maximum 1 hour. */
  languagesCacheTtl?: number | undefined;
}

/** Per-call options; each overrides the client's default for that call. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  timeout?: number | undefined;
  maxRetries?: number | undefined;
  headers?: Record<string, string> | undefined;
}

export interface ResolvedClientOptions {
  readonly authKey: string;
  readonly baseUrl: URL;
  readonly fetch: typeof fetch;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly reportingTag: string | undefined;
  readonly logger: Logger | undefined;
  readonly retry: RetryPolicy;
  readonly languagesCacheTtl: number;
}

const HOUR = 60 * 60 * 1000;

function nonNegativeInteger(name: string, value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`Expected \`${name}\` to be an integer from 0 to ${max}, got ${String(value)}`);
  }
  return value;
}

/** Validate a custom reporting tag as the server will (trimmed, ≤100 ASCII, no inner whitespace). */
export function checkReportingTag(tag: unknown): string {
  if (typeof tag !== 'string')
    throw new TypeError(`Expected \`reportingTag\` to be a string, got ${typeof tag}`);
  const trimmed = tag.trim();
  if (trimmed === '' || trimmed.length > MAX_REPORTING_TAG_LENGTH) {
    throw new RangeError(
      `Expected \`reportingTag\` to have 1 to ${MAX_REPORTING_TAG_LENGTH} characters, got ${trimmed.length}`,
    );
  }
  if (!/^[\x21-\x7e]+$/.test(trimmed)) {
    throw new RangeError('Expected `reportingTag` to hold printable ASCII without whitespace');
  }
  return trimmed;
}

export function isFreeKey(authKey: string): boolean {
  return authKey.endsWith(':fx');
}

/** Resolve the constructor options once. Unknown keys are ignored. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('Expected an options object with `authKey`');
  }
  const { authKey } = options;
  if (typeof authKey !== 'string' || authKey.trim() === '') {
    throw new TypeError('Expected `authKey` to be a non-empty string');
  }
  if (!/^[\x21-\x7e]+$/.test(authKey)) {
    // Never echo the key: say what is wrong with it, not what it is.
    throw new TypeError(
      'Expected `authKey` to hold printable ASCII without whitespace (it would not fit a header)',
    );
  }
  const defaultUrl = isFreeKey(authKey) ? DEFAULT_FREE_SERVER_URL : DEFAULT_SERVER_URL;
  let baseUrl: URL;
  try {
    baseUrl = new URL(String(options.serverUrl ?? defaultUrl));
  } catch {
    throw new TypeError(`Expected \`serverUrl\` to be an absolute URL, got ${String(options.serverUrl)}`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') {
    throw new TypeError(`Expected \`serverUrl\` to be http: or https:, got ${baseUrl.protocol}`);
  }
  if (!baseUrl.pathname.endsWith('/')) baseUrl.pathname += '/';
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('Expected `fetch` to be a function');
  return {
    authKey,
    baseUrl,
    fetch: fetchImpl,
    maxRetries: nonNegativeInteger('maxRetries', options.maxRetries, 4, 100),
    timeout: nonNegativeInteger('timeout', options.timeout, 60_000),
    headers: { ...options.headers },
    reportingTag: options.reportingTag === undefined ? undefined : checkReportingTag(options.reportingTag),
    logger: options.logger,
    retry: {
      baseDelay: nonNegativeInteger('retryBaseDelay', options.retryBaseDelay, DEFAULT_RETRY_POLICY.baseDelay),
      maxDelay: nonNegativeInteger('retryMaxDelay', options.retryMaxDelay, DEFAULT_RETRY_POLICY.maxDelay),
      maxRetryAfter: nonNegativeInteger(
        'maxRetryAfter',
        options.maxRetryAfter,
        DEFAULT_RETRY_POLICY.maxRetryAfter,
      ),
    },
    languagesCacheTtl: nonNegativeInteger('languagesCacheTtl', options.languagesCacheTtl, HOUR, HOUR),
  };
}
