/**
 * Typed errors. One base class, `GlossaError`; one factory, `errorFromResponse`, maps an HTTP response to
 * its subclass. Every message goes through `redactSecrets` before it reaches `Error`, so the key never
 * shows up in a message, a stack or a log line.
 */

export interface GlossaErrorOptions {
  /** HTTP status, when the service answered. */
  readonly status?: number | undefined;
  /** Machine-readable code from the body (`invalid_content_type`, `quota_exceeded`, ...). */
  readonly code?: string | undefined;
  /** Extra detail from the body (a glossary error names the line here). */
  readonly detail?: string | undefined;
  /** `X-Trace-ID` of the response: quote it when asking for support. */
  readonly traceId?: string | undefined;
  readonly cause?: unknown;
}

/** Base class of every error the client throws for a failed call. */
export class GlossaError extends Error {
  override name = 'GlossaError';
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly detail: string | undefined;
  readonly traceId: string | undefined;

  constructor(message: string, options: GlossaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.detail = options.detail;
    this.traceId = options.traceId;
  }

  /** Whether the client retries a call that failed with this error (429, 5xx, connection failures). */
  get retryable(): boolean {
    return false;
  }
}

/** 400: a bad or missing parameter. Not retried. */
export class BadRequestError extends GlossaError {
  override name = 'BadRequestError';
}

/** 401/403: the key is missing or invalid, or the account lacks access to the feature. Not retried. */
export class AuthorizationError extends GlossaError {
  override name = 'AuthorizationError';
}

/** 404: the resource does not exist (or belongs to another account). Not retried. */
export class NotFoundError extends GlossaError {
  override name = 'NotFoundError';
}

/** 413: the request body is over the endpoint's limit (128 KiB translate, 10 KiB write). Not retried. */
export class RequestTooLargeError extends GlossaError {
  override name = 'RequestTooLargeError';
}

/** 415: the body's media type is not accepted. Not retried. */
export class UnsupportedMediaTypeError extends GlossaError {
  override name = 'UnsupportedMediaTypeError';
}

/** 456: the account's character quota is exhausted. Not retried. */
export class QuotaExceededError extends GlossaError {
  override name = 'QuotaExceededError';
}

/** A failure the service says to retry later (429, 5xx), with the `Retry-After` it sent. Retried. */
export abstract class RetryLaterError extends GlossaError {
  /** The `Retry-After` the service sent, in milliseconds, if any. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: GlossaErrorOptions & { retryAfterMs?: number | undefined } = {}) {
    super(message, options);
    this.retryAfterMs = options.retryAfterMs;
  }

  override get retryable(): boolean {
    return true;
  }
}

/** 429: too many requests. Retried, honouring `Retry-After`. */
export class TooManyRequestsError extends RetryLaterError {
  override name = 'TooManyRequestsError';
}

/** 5xx: a server or infrastructure failure (503 may carry a `Retry-After`). Retried. */
export class ServerError extends RetryLaterError {
  override name = 'ServerError';
}

/** The connection failed (refused, reset, closed mid-response) before a complete answer. Retried. */
export class ConnectionError extends GlossaError {
  override name = 'ConnectionError';

  override get retryable(): boolean {
    return true;
  }
}

/** An attempt took longer than the `timeout` option. Retried (it is a connection failure). */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
}

/** The caller aborted the call through its `signal`. Never retried. */
export class RequestAbortedError extends GlossaError {
  override name = 'RequestAbortedError';
}

/** A background job (document translation, memory import or export) ended in failure. */
export class JobFailedError extends GlossaError {
  override name = 'JobFailedError';
  readonly jobId: string;

  constructor(message: string, jobId: string, options: GlossaErrorOptions = {}) {
    super(message, options);
    this.jobId = jobId;
  }
}

/** A background job did not finish within the `maxWait` of the call. Not retried. */
export class JobTimeoutError extends GlossaError {
  override name = 'JobTimeoutError';
}

const REDACTED = '[redacted]';

/** Replace every occurrence of each secret (and of a free key without its `:fx`) in `text`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    result = result.split(secret).join(REDACTED);
    if (secret.endsWith(':fx') && secret.length > 7)
      result = result.split(secret.slice(0, -3)).join(REDACTED);
  }
  return result;
}

interface ParsedErrorBody {
  message?: string;
  code?: string;
  detail?: string;
}

/** Read both error body shapes: `{message, code?, detail?}` and the edge's `{error: {message}}`. */
export function parseErrorBody(text: string): ParsedErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const trimmed = text.trim();
    return trimmed ? { message: trimmed.slice(0, 500) } : {};
  }
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  const parsed: ParsedErrorBody = {};
  const edge = record['error'];
  if (typeof record['message'] === 'string') parsed.message = record['message'];
  else if (
    typeof edge === 'object' &&
    edge !== null &&
    typeof (edge as { message?: unknown }).message === 'string'
  ) {
    parsed.message = (edge as { message: string }).message;
  } else if (typeof edge === 'string') parsed.message = edge;
  if (typeof record['code'] === 'string') parsed.code = record['code'];
  if (typeof record['detail'] === 'string') parsed.detail = record['detail'];
  return parsed;
}

export interface ResponseErrorInput {
  readonly status: number;
  readonly bodyText: string;
  readonly traceId: string | undefined;
  readonly retryAfterMs: number | undefined;
  /** Prefix naming the call, e.g. `POST /v2/translate`. */
  readonly operation: string;
  readonly secrets: readonly string[];
}

/** The one factory that maps a failed response to its error class. */
export function errorFromResponse(input: ResponseErrorInput): GlossaError {
  const { status, traceId, retryAfterMs } = input;
  const body = parseErrorBody(input.bodyText);
  const reason = body.message ?? `HTTP ${status}`;
  const detail = body.detail ? ` (${body.detail})` : '';
  const message = redactSecrets(
    `${input.operation} failed with ${status}: ${reason}${detail}`,
    input.secrets,
  );
  const options: GlossaErrorOptions = {
    status,
    code: body.code,
    detail: body.detail === undefined ? undefined : redactSecrets(body.detail, input.secrets),
    traceId,
  };
  switch (status) {
    case 400:
      return new BadRequestError(message, options);
    case 401:
    case 403:
      return new AuthorizationError(message, options);
    case 404:
      return new NotFoundError(message, options);
    case 413:
      return new RequestTooLargeError(message, options);
    case 415:
      return new UnsupportedMediaTypeError(message, options);
    case 429:
      return new TooManyRequestsError(message, { ...options, retryAfterMs });
    case 456:
      return new QuotaExceededError(message, options);
    default:
      if (status >= 500 && status <= 599) return new ServerError(message, { ...options, retryAfterMs });
      return new GlossaError(message, options);
  }
}
