import { type Static, Type } from '@sinclair/typebox';

/** Application error body: `{message, code?, detail?}`. */
export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    code: Type.Optional(Type.String()),
    detail: Type.Optional(Type.String()),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** Edge failure body, raised before the request reaches the service: `{error: {message}}`. */
export const EdgeErrorBody = Type.Object(
  { error: Type.Object({ message: Type.String() }) },
  { $id: 'EdgeErrorBody' },
);
export type EdgeErrorBody = Static<typeof EdgeErrorBody>;

/** Machine-readable `code` values the Glossa server sends. Clients branch on these, never on `message`. */
export const ERROR_CODES = {
  invalidContentType: 'invalid_content_type',
  invalidRequest: 'invalid_request',
  invalidJson: 'invalid_json',
  authorizationFailed: 'authorization_failed',
  wrongPlanBaseUrl: 'wrong_plan_base_url',
  featureNotEnabled: 'feature_not_enabled',
  featureNotInstalled: 'feature_not_installed',
  notFound: 'not_found',
  requestTooLarge: 'request_too_large',
  tooManyRequests: 'too_many_requests',
  quotaExceeded: 'quota_exceeded',
  unsupportedLanguage: 'unsupported_language',
  engineError: 'engine_error',
  documentNotReady: 'document_not_ready',
  serviceUnavailable: 'service_unavailable',
  internalError: 'internal_error',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export interface StatusMeaning {
  readonly meaning: string;
  /** Whether a client should retry the request (with exponential backoff). */
  readonly retryable: boolean;
}

/** What each status of the interface means and whether a client retries it. Other 5xx: see `isRetryableStatus`. */
export const STATUS_MEANINGS: Readonly<Record<number, StatusMeaning>> = {
  400: { meaning: 'invalid request (bad or missing parameter)', retryable: false },
  403: { meaning: 'authorization failed or access to the feature not granted', retryable: false },
  404: { meaning: 'resource not found', retryable: false },
  413: { meaning: 'request too large', retryable: false },
  415: { meaning: 'unsupported media type', retryable: false },
  429: { meaning: 'too many requests', retryable: true },
  456: { meaning: 'account quota exhausted', retryable: false },
  500: { meaning: 'internal server error', retryable: true },
  501: { meaning: 'feature not installed on this server', retryable: false },
  502: { meaning: 'bad gateway', retryable: true },
  503: { meaning: 'service unavailable (or document not ready)', retryable: true },
  504: { meaning: 'gateway timeout', retryable: true },
};

/** 429 and every 5xx but 501 (a feature this server does not have) are retryable; everything else is not. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501);
}
