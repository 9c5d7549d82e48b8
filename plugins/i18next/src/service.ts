/**
 * A translator for the backend: a given `Translator` (e.g. `GlossaClient`), the service at `service.url`,
 * or the embedded `@glossa/server` on loopback, started on the first translation actually needed.
 */
import { GlossaClient } from '@glossa/client';
import { defaultDataDir, type Translator } from '@glossa/core';

export interface ServiceOptions {
  readonly url?: string;
  readonly apiKey?: string;
  /** The embedded server's data folder. Default `GLOSSA_DATA_DIR` or the user's cache folder. */
  readonly dataDir?: string;
}

export function lazyTranslator(service: ServiceOptions = {}): Translator & { close(): Promise<void> } {
  let opened: Promise<{ client: GlossaClient; close: () => Promise<void> }> | undefined;
  return {
    translateText: async (texts, options) => {
      opened ??= open(service);
      return (await opened).client.translateText(texts, options);
    },
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}

async function open(service: ServiceOptions) {
  const url = service.url ?? process.env.GLOSSA_SERVER_URL;
  const apiKey = service.apiKey ?? process.env.GLOSSA_API_KEY;
  if (url) {
    if (!apiKey)
      throw new TypeError(`@glossa/i18next: GLOSSA_API_KEY is not set: a key is needed for ${url}`);
    return { client: new GlossaClient({ authKey: apiKey, serverUrl: url }), close: async () => {} };
  }
  const { startServer } = await import('@glossa/server');
  const server = await startServer({
    dataDir: service.dataDir ?? process.env.GLOSSA_DATA_DIR ?? defaultDataDir(),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  return {
    client: new GlossaClient({ authKey: server.devKey, serverUrl: server.url }),
    close: () => server.close(),
  };
}
