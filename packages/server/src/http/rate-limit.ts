/**
 * Per-key token buckets: each key may make `burst` requests at once and `requestsPerSecond` sustained.
 * `createRateLimiter` keeps them in memory, per server instance; `createRedisRateLimiter` (shared-state.ts)
 * keeps them in Redis, one bucket per key for a whole fleet.
 */
export interface RateLimiter {
  /**
   * Takes one token for `id`; 0 when allowed, else the seconds to wait (for `Retry-After`). The in-memory
   * limiter answers at once; a shared one answers with a promise.
   */
  take(id: string): number | Promise<number>;
  close?(): Promise<void>;
}

const MAX_TRACKED_KEYS = 10_000;

export function createRateLimiter(
  limit: { requestsPerSecond: number; burst: number },
  now: () => number = () => performance.now(),
): RateLimiter & { take(id: string): number } {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refill = (bucket: { tokens: number; at: number }, time: number) => {
    bucket.tokens = Math.min(
      limit.burst,
      bucket.tokens + ((time - bucket.at) / 1000) * limit.requestsPerSecond,
    );
    bucket.at = time;
  };
  return {
    take(id) {
      const time = now();
      let bucket = buckets.get(id);
      if (!bucket) {
        if (buckets.size >= MAX_TRACKED_KEYS) {
          for (const [other, entry] of buckets) {
            refill(entry, time);
            if (entry.tokens >= limit.burst) buckets.delete(other);
          }
        }
        bucket = { tokens: limit.burst, at: time };
        buckets.set(id, bucket);
      }
      refill(bucket, time);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / limit.requestsPerSecond));
    },
  };
}
