/**
 * The translator and cache a build uses. The service is `service.url` (or `GLOSSA_SERVER_URL`) when set,
 * else the embedded `@glossa/server` on loopback, started only when a translation is actually missing:
 * a build whose translations are all cached never starts it. The translation cache too is opened on
 * first use: a build served whole by the result cache never reads it.
 */
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
  /** Outputs of earlier builds, next to the cache file; none with another store or `results: false`. */
  readonly results?: ResultStore;
  close(): Promise<void>;
}

export interface SessionOptions {
  readonly cacheOnly: boolean;
  /** Keep and reuse whole outputs (builds). Default true. */
  readonly results?: boolean;
}

export function openSession(
  config: Pick<ResolvedConfig, 'service' | 'cache'>,
  options: SessionOptions,
): Session {
  let opened: Promise<TranslationCache> | undefined;
  // A build reads each key once: the file store (a Map in memory) needs no LRU tier in front of it.
  const open = () => {
    opened ??=
      config.cache.store === 'file'
        ? openFileStore({ path: config.cache.path }).then((store) => createTranslationCache([store]))
        : openConfiguredCache(config);
    return opened;
  };
  const cache: TranslationCache = {
    getMany: async (keys) => (await open()).getMany(keys),
    setMany: async (entries) => (await open()).setMany(entries),
    close: async () => {
      // A cache that could not be opened has nothing to close (its error went to the run that opened it).
      await (await opened?.catch(() => undefined))?.close();
    },
  };
  const results =
    config.cache.store === 'file' && options.results !== false
      ? createResultStore({ cachePath: config.cache.path, cache, cacheOpened: () => opened !== undefined })
      : undefined;
  // The result file records the cache file as the closed cache leaves it.
  const closeCache = async () => {
    await cache.close();
    await results?.flush();
  };
  if (options.cacheOnly) {
    return { translator: refusingTranslator, cache, ...(results && { results }), close: closeCache };
  }
  let service: Promise<ServiceConnection> | undefined;
  const translator: Translator = {
    translateText: async (texts, requestOptions) => {
      service ??= openService(config.service);
      return (await service).client.translateText(texts, requestOptions);
    },
  };
  return {
    translator,
    cache,
    ...(results && { results }),
    close: async () => {
      await closeCache();
      if (service) await (await service).close();
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
