/**
 * State that the instances of a fleet share through Redis (`redisUrl`): per-key rate limits (one token
 * bucket per key, taken atomically by a Lua script on Redis's clock) and the invalidation of the key
 * caches (a revoked key is dropped by every instance at once, through a pub/sub channel). Quotas and usage
 * are PostgreSQL's (storage/postgres.ts): one atomic statement per reservation.
 */
import { Redis } from 'ioredis';
import type { RateLimiter } from './http/rate-limit.js';

/** Pub/sub channel on which a revoked key's hash is announced. */
export const KEY_REVOKED_CHANNEL = 'glossa:key-revoked';

// KEYS[1]: the bucket. ARGV: rate (tokens/s), burst. Returns 0 when a token was taken, else whole seconds
// to wait. The bucket expires once it would be full again, so idle keys cost nothing.
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1])
local at = tonumber(bucket[2])
if tokens == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.max(1, math.ceil((1 - tokens) / rate))
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return wait
`;

interface RedisWithTake extends Redis {
  glossaTake(bucket: string, rate: number, burst: number): Promise<number>;
}

/**
 * Opens a connection that fails fast rather than holding requests while Redis is away: a command sent
 * while it connects waits for the connection, but one whose connection fails is given up after one retry.
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
}

/** Token buckets in Redis: the limit holds per key across every instance that shares `redis`. */
export function createRedisRateLimiter(
  redis: Redis,
  limit: { requestsPerSecond: number; burst: number },
): RateLimiter {
  const client = redis as RedisWithTake;
  if (typeof client.glossaTake !== 'function') {
    redis.defineCommand('glossaTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }
  return {
    take: (id) => client.glossaTake(`glossa:rate:${id}`, limit.requestsPerSecond, limit.burst),
  };
}

/**
 * Listens for revoked keys on its own connection (a subscribed connection serves nothing else) and calls
 * `onRevoked` with each key hash announced; returns a function that stops listening.
 */
export async function subscribeKeyRevocations(
  url: string,
  onRevoked: (keyHash: string) => void,
): Promise<() => Promise<void>> {
  const subscriber = connectRedis(url);
  subscriber.on('error', () => {});
  await subscriber.subscribe(KEY_REVOKED_CHANNEL);
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === KEY_REVOKED_CHANNEL) onRevoked(message);
  });
  return async () => {
    subscriber.disconnect();
  };
}

/** Tells every instance listening on `url` that the key with this hash was revoked. */
export async function announceKeyRevoked(url: string, keyHash: string): Promise<void> {
  const publisher = connectRedis(url);
  try {
    await publisher.publish(KEY_REVOKED_CHANNEL, keyHash);
  } finally {
    publisher.disconnect();
  }
}
