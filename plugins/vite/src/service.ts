/**
 * The translator and cache a build uses. The service is `service.url` (or `GLOSSA_SERVER_URL`) when set,
 * else the embedded `@glossa/server` on loopback, started only when a translation is actually missing:
 * a build whose translations are all cached never starts it.
 */
import { dirname, join } from 'node:path';
import {
  connectService,
  createTranslationCache,
  openConfiguredCache,
  openFileStore,
  type ResolvedConfig,
  type ServiceConnection,
  type TranslationCache,
  type Translator,
} from '@glossa/core';
import { MissingTranslationsError } from './errors.js';
import { createResultStore, type ResultStore } from './results.js';

export interface Session {
  readonly translator: Translator;
  readonly cache: TranslationCache;
  /** Outputs of earlier builds, next to the cache file (`<cache dir>/vite/`); none with another store. */
  readonly results?: ResultStore;
  close(): Promise<void>;
}

export async function openSession(
  config: Pick<ResolvedConfig, 'service' | 'cache'>,
  cacheOnly: boolean,
): Promise<Session> {
  // A build reads each key once: the file store (a Map in memory) needs no LRU tier in front of it.
  const cache =
    config.cache.store === 'file'
      ? createTranslationCache([await openFileStore({ path: config.cache.path })])
      : await openConfiguredCache(config);
  const results =
    config.cache.store === 'file'
      ? { results: createResultStore(join(dirname(config.cache.path), 'vite'), cache) }
      : {};
  if (cacheOnly) {
    return { translator: refusingTranslator, cache, ...results, close: () => cache.close() };
  }
  let opened: Promise<ServiceConnection> | undefined;
  const translator: Translator = {
    translateText: async (texts, options) => {
      opened ??= openService(config.service);
      return (await opened).client.translateText(texts, options);
    },
  };
  return {
    translator,
    cache,
    ...results,
    close: async () => {
      await cache.close();
      if (opened) await (await opened).close();
    },
  };
}

/** `cacheOnly`: no request ever leaves; every miss fails its segment, and the build lists them. */
const refusingTranslator: Translator = {
  translateText: async () => {
    throw new MissingTranslationsError([], 'not in the cache (cacheOnly: no service calls)');
  },
};

async function openService(service: ResolvedConfig['service']) {
  if (service.url !== undefined && service.apiKey === undefined) {
    throw new TypeError(
      `glossaVite: GLOSSA_API_KEY is not set: a key is needed for the service at ${service.url}`,
    );
  }
  return connectService(service);
}
