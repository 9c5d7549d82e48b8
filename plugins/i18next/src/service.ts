/**
 * A translator for the backend: a given `Translator` (e.g. `GlossaClient`), the service at `service.url`,
 * or the embedded `@glossa/server` on loopback, started on the first translation actually needed.
 */
import { connectService, defaultDataDir, type ServiceConnection, type Translator } from '@glossa/core';

export interface ServiceOptions {
  readonly url?: string;
  readonly apiKey?: string;
  /** The embedded server's data folder. Default `GLOSSA_DATA_DIR` or the user's cache folder. */
  readonly dataDir?: string;
}

export function lazyTranslator(service: ServiceOptions = {}): Translator & { close(): Promise<void> } {
  let opened: Promise<ServiceConnection> | undefined;
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

function open(service: ServiceOptions): Promise<ServiceConnection> {
  const url = service.url ?? process.env.GLOSSA_SERVER_URL;
  const apiKey = service.apiKey ?? process.env.GLOSSA_API_KEY;
  if (url && !apiKey) {
    throw new TypeError(`@glossa/i18next: GLOSSA_API_KEY is not set: a key is needed for ${url}`);
  }
  const dataDir = service.dataDir ?? process.env.GLOSSA_DATA_DIR ?? defaultDataDir();
  return connectService({ url: url || undefined, apiKey: apiKey || undefined, dataDir });
}
