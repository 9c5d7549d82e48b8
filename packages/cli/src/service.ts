/**
 * The service the CLI talks to: `GLOSSA_SERVER_URL` (or the config's `service.url`) when set, else the
 * embedded `@glossa/server` started in-process on loopback ports with its data in `service.dataDir`.
 */
import { GlossaClient } from '@glossa/client';
import type { ResolvedConfig } from '@glossa/core';
import { UsageError } from './errors.js';

export interface Service {
  readonly client: GlossaClient;
  /** Paid-plan base URL requests go to. */
  readonly url: string;
  /** Whether this process started the server. */
  readonly embedded: boolean;
  close(): Promise<void>;
}

export async function openService(config: Pick<ResolvedConfig, 'service'>): Promise<Service> {
  const { url, apiKey, dataDir } = config.service;
  if (url !== undefined) {
    if (apiKey === undefined) {
      throw new UsageError(`GLOSSA_API_KEY is not set: a key is needed for the service at ${url}`);
    }
    return {
      client: new GlossaClient({ authKey: apiKey, serverUrl: url }),
      url,
      embedded: false,
      close: async () => {},
    };
  }
  const { startServer } = await import('@glossa/server'); // loaded only when needed: it is large
  const server = await startServer({
    dataDir,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    ...(apiKey !== undefined && { devKey: apiKey }),
  });
  const key = apiKey ?? server.devKey;
  return {
    client: new GlossaClient({ authKey: key, serverUrl: key.endsWith(':fx') ? server.freeUrl : server.url }),
    url: server.url,
    embedded: true,
    close: () => server.close(),
  };
}
