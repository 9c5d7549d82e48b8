import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheStoreError, createMemoryStore, createTranslationCache, openRedisStore } from '../src/index.js';
import { hasRedisServer, startRedis } from './helpers/redis.js';

if (!hasRedisServer) {
  console.warn(
    'Skipping the Redis store tests: `redis-server` is not installed (apt-get install redis-server).',
  );
}

describe.skipIf(!hasRedisServer)('Redis store (real redis-server)', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('shares entries between two build machines (two clients)', async () => {
    const a = await openRedisStore({ url: redis.url, prefix: 'test1:' });
    const b = await openRedisStore({ url: redis.url, prefix: 'test1:' });
    const entries = new Map(Array.from({ length: 2500 }, (_, i) => [`k${i}`, `v${i} <x id="1"/>`]));
    await a.setMany(entries);
    const found = await b.getMany(['k0', 'k2499', 'missing']);
    expect(found).toEqual(
      new Map([
        ['k0', 'v0 <x id="1"/>'],
        ['k2499', 'v2499 <x id="1"/>'],
      ]),
    );
    expect((await b.getMany([...entries.keys()])).size).toBe(2500);
    await a.close();
    await b.close();
  });

  it('backs the memory tier: a Redis hit is copied into memory', async () => {
    const redisStore = await openRedisStore({ url: redis.url, prefix: 'test2:' });
    await redisStore.setMany(new Map([['k', 'v']]));
    const memory = createMemoryStore();
    const cache = createTranslationCache([memory, redisStore]);
    expect(await cache.getMany(['k'])).toEqual({
      found: new Map([['k', 'v']]),
      hitsByTier: { memory: 0, redis: 1 },
    });
    expect(await memory.getMany(['k'])).toEqual(new Map([['k', 'v']]));
    await cache.close();
  });

  it('expires entries with ttlSeconds', async () => {
    const store = await openRedisStore({ url: redis.url, prefix: 'test3:', ttlSeconds: 1 });
    await store.setMany(new Map([['k', 'v']]));
    expect((await store.getMany(['k'])).size).toBe(1);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await store.getMany(['k'])).size).toBe(0);
    await store.close();
  });

  it('an unreachable server is a CacheStoreError without the password', async () => {
    const error = await openRedisStore({ url: 'redis://user:secret@127.0.0.1:1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CacheStoreError);
    expect((error as Error).message).toContain('redis://user:***@127.0.0.1:1');
    expect((error as Error).message).not.toContain('secret');
  });
});
