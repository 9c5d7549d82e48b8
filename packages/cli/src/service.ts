/**
 * The service the CLI talks to: `GLOSSA_SERVER_URL` (or the config's `service.url`) when set, else the
 * embedded `@glossa/server` started in-process on loopback ports with its data in `service.dataDir`.
 */
import { connectService, type ResolvedConfig, type ServiceConnection } from '@glossa/core';
import { UsageError } from './errors.js';

export type Service = ServiceConnection;

export async function openService(config: Pick<ResolvedConfig, 'service'>): Promise<Service> {
  const { url, apiKey } = config.service;
  if (url !== undefined && apiKey === undefined) {
    throw new UsageError(`GLOSSA_API_KEY is not set: a key is needed for the service at ${url}`);
  }
  return connectService(config.service);
}
