/** The scheme word of `Authorization: Service-Auth-Key <key>`. */
export const AUTH_SCHEME = 'Service-Auth-Key';
/** A key ending in `:fx` belongs to the free plan, which has its own base URL. */
export const FREE_PLAN_KEY_SUFFIX = ':fx';
/** Every response, errors included, carries this header: 32 lower-case hex characters. */
export const TRACE_ID_HEADER = 'x-trace-id';
export const TRACE_ID_PATTERN = /^[0-9a-f]{32}$/;
/** Sent with 429: seconds to wait before retrying. */
export const RETRY_AFTER_HEADER = 'retry-after';

/** The `Authorization` header value for a key. */
export function authorizationHeader(key: string): string {
  return `${AUTH_SCHEME} ${key}`;
}

/**
 * The key of an `Authorization` header, or `undefined` unless it is exactly the scheme word, one space
 * and a key without whitespace (a missing or malformed header is a 403, never a 401).
 */
export function parseAuthorizationHeader(header: string | undefined): string | undefined {
  if (header === undefined || !header.startsWith(`${AUTH_SCHEME} `)) return undefined;
  const key = header.slice(AUTH_SCHEME.length + 1);
  return key.length > 0 && !/\s/.test(key) ? key : undefined;
}

export function isFreePlanKey(key: string): boolean {
  return key.endsWith(FREE_PLAN_KEY_SUFFIX);
}
