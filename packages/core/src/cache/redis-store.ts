/**
 * The shared tier for fleets of build machines: a Redis server (node-redis client). Keys are
 * `<prefix><cache key>`; entries optionally expire.
 */
import { CacheStoreError } from '../errors.js';
import { importOptional } from '../optional-package.js';
import type { CacheStore } from './store.js';

export interface RedisStoreOptions {
  /** `redis://host:port/db`. */
  readonly url: string;
  /** Key prefix. Default `glossa:tm:`. */
  readonly prefix?: string;
  /** Expiry of each entry in seconds; default none. */
  readonly ttlSeconds?: number;
}

export async function openRedisStore(options: RedisStoreOptions): Promise<CacheStore> {
  const prefix = options.prefix ?? 'glossa:tm:';
  // Loaded on first use: most projects never use Redis and should not pay for loading its client.
  const { createClient } = await importOptional(
    'redis',
    () => import('redis'),
    "The Redis cache store needs node-redis: npm install redis (or use the file store: cache.store 'file').",
  );
  const client = createClient({
    url: options.url,
    socket: { reconnectStrategy: false, connectTimeout: 5000 },
  });
  client.on('error', () => undefined); // failures surface on the command that hit them
  try {
    await client.connect();
  } catch (error) {
    throw new CacheStoreError(
      `Cannot connect to Redis at ${redact(options.url)}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const wrap = async <T>(what: string, task: () => Promise<T>): Promise<T> => {
    try {
      return await task();
    } catch (error) {
      throw new CacheStoreError(`Redis ${what} failed: ${(error as Error).message}`, { cause: error });
    }
  };
  return {
    name: 'redis',
    getMany: (keys) =>
      wrap('read', async () => {
        const found = new Map<string, string>();
        for (let i = 0; i < keys.length; i += 1000) {
          const slice = keys.slice(i, i + 1000);
          const values = await client.mGet(slice.map((k) => prefix + k));
          values.forEach((value, j) => {
            if (typeof value === 'string') found.set(slice[j]!, value);
          });
        }
        return found;
      }),
    setMany: (entries) =>
      wrap('write', async () => {
        if (entries.size === 0) return;
        const multi = client.multi();
        for (const [key, value] of entries) {
          if (options.ttlSeconds)
            multi.set(prefix + key, value, { expiration: { type: 'EX', value: options.ttlSeconds } });
          else multi.set(prefix + key, value);
        }
        await multi.exec();
      }),
    close: async () => {
      await client.close();
    },
  };
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
