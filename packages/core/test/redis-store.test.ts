import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CacheStoreError,
  createMemoryStore,
  createPseudoTranslator,
  createTranslationCache,
  createTranslationRun,
  openRedisStore,
  type Translator,
} from '../src/index.js';
import { catalog } from './helpers/catalog.js';
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

  it('a second build machine sharing the Redis cache sends no requests', async () => {
    const segments = catalog(500);
    const machine = async () => {
      let texts = 0;
      const pseudo = createPseudoTranslator();
      const counting: Translator = {
        translateText: (batch, options) => {
          texts += batch.length;
          return pseudo.translateText(batch, options);
        },
      };
      const cache = createTranslationCache([
        createMemoryStore(),
        await openRedisStore({ url: redis.url, prefix: 'fleet:' }),
      ]);
      const run = createTranslationRun({
        translator: counting,
        sourceLang: 'en',
        targetLangs: ['en-XA'],
        cache,
      });
      const { report } = await run.translate({ segments });
      await cache.close();
      return { texts, report };
    };
    const a = await machine();
    const b = await machine();
    expect(a.texts).toBe(500);
    expect(b.texts).toBe(0);
    expect(b.report).toMatchObject({ requests: 0, cacheHits: 500 });
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
