/**
 * Retry timing: exponential backoff with full jitter, or the service's `Retry-After`, capped.
 *
 * Retry n (1-based) waits a uniformly random time in [0, min(retryMaxDelay, retryBaseDelay × 2^(n−1))).
 * When the failed response carried `Retry-After`, the wait is exactly that, capped at `maxRetryAfter`.
 */

export interface RetryPolicy {
  /** Ceiling of the first retry's random wait, in ms. */
  readonly baseDelay: number;
  /** Largest ceiling any backoff wait can have, in ms. */
  readonly maxDelay: number;
  /** Largest `Retry-After` honoured, in ms; a longer one is cut to this. */
  readonly maxRetryAfter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelay: 500,
  maxDelay: 8_000,
  maxRetryAfter: 60_000,
};

/** The wait before retry number `retry` (1-based). `random` returns a number in [0, 1). */
export function computeRetryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfter);
  return Math.floor(random() * backoffCeiling(retry, policy));
}

/** The exclusive upper bound of the random wait before retry number `retry` (1-based). */
export function backoffCeiling(retry: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelay, policy.baseDelay * 2 ** Math.max(0, retry - 1));
}

/**
 * Parse a `Retry-After` header: delay seconds (`"2"`, `"0.5"`) or an HTTP date. Returns milliseconds, or
 * `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Wait `ms`, or reject with `signal.reason` as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
