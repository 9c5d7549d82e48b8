/**
 * The documents part of a running server: its database, store and queue, started by the feature once the
 * service context exists and closed with the server. Routes find it through the context.
 */
import type { ServiceContext } from '@glossa/server/feature';
import { openDocumentDatabase } from './db.js';
import { createDocumentFormats, type DocumentFormats } from './formats/index.js';
import type { ResolvedDocumentOptions } from './options.js';
import { createDocumentQueue, type DocumentQueue, type DocumentQueueOptions } from './queue.js';
import { createDocumentStore, type DocumentStore } from './store.js';

export interface DocumentService {
  /** The formats, with the server's `xml`/`dita` attribute lists. */
  readonly formats: DocumentFormats;
  /** How long a document is kept after its upload, in ms (`documents.expirySeconds`). */
  readonly expiryMs: number;
  readonly store: DocumentStore;
  readonly queue: DocumentQueue;
  close(): Promise<void>;
}

const services = new WeakMap<ServiceContext, DocumentService>();

/** Opens `documents.sqlite` in the data directory, resumes queued documents and sweeps expired ones. */
export function startDocumentService(
  context: ServiceContext,
  settings: ResolvedDocumentOptions,
  options: Omit<DocumentQueueOptions, 'formats'> = {},
): DocumentService {
  const formats = createDocumentFormats(settings);
  const { db, folder } = openDocumentDatabase(context.options.dataDir);
  const store = createDocumentStore(db, folder);
  const queue = createDocumentQueue(store, db, context, {
    concurrency: settings.concurrency,
    ...options,
    formats,
  });
  const service: DocumentService = {
    formats,
    expiryMs: settings.expirySeconds * 1000,
    store,
    queue,
    async close() {
      services.delete(context);
      await queue.close();
    },
  };
  services.set(context, service);
  return service;
}

export function documentServiceOf(context: ServiceContext): DocumentService {
  const service = services.get(context);
  if (!service) throw new Error('The document service was not started for this server.');
  return service;
}
