/**
 * The documents part of a running server: its store and queue, started by the feature once the service
 * context exists and closed with the server. Routes find it through the context.
 *
 * Two backends. Without `databaseUrl` (the embedded default): `documents.sqlite` and files in the data
 * directory, a queue in that process. With `databaseUrl` (a fleet): rows and bytes in PostgreSQL
 * (postgres.ts), jobs on pg-boss in the same database (pg-queue.ts), so any instance takes any job, and
 * polls and downloads work through any instance.
 */
import type { ServiceContext } from '@glossa/server/feature';
import { ServiceError } from '@glossa/server/feature';
import pg from 'pg';
import { openDocumentDatabase } from './db.js';
import { createDocumentFormats, type DocumentFormats } from './formats/index.js';
import type { ResolvedDocumentOptions } from './options.js';
import { createPgDocumentQueue, startBoss } from './pg-queue.js';
import { createPostgresDocuments, migrateDocuments } from './postgres.js';
import { createDocumentQueue, type DocumentQueue, type DocumentQueueOptions } from './queue.js';
import { createDocumentStore, type DocumentStore } from './store.js';

export interface StartedDocuments {
  readonly store: DocumentStore;
  readonly queue: DocumentQueue;
}

export interface DocumentService {
  /** The formats, with the server's `xml`/`dita` attribute lists. */
  readonly formats: DocumentFormats;
  /** How long a document is kept after its upload, in ms (`documents.expirySeconds`). */
  readonly expiryMs: number;
  /** Which backend holds the documents. */
  readonly backend: 'sqlite' | 'postgres';
  /** The store and queue, once started (PostgreSQL: after its migrations and pg-boss's start). */
  started(): Promise<StartedDocuments>;
  close(): Promise<void>;
}

export interface DocumentServiceOptions extends Omit<DocumentQueueOptions, 'formats'> {
  readonly logWarning?: (message: string, detail?: Record<string, unknown>) => void;
  /** Where a failed start on PostgreSQL is reported (the routes then answer 503). */
  readonly logStartError?: (error: unknown) => void;
}

const services = new WeakMap<ServiceContext, DocumentService>();

async function startPostgres(
  url: string,
  context: ServiceContext,
  settings: ResolvedDocumentOptions,
  formats: DocumentFormats,
  options: DocumentServiceOptions,
): Promise<StartedDocuments & { close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'glossa-documents' });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => {});
  try {
    await migrateDocuments(pool);
    const { boss, enqueue } = await startBoss(url, {
      jobTimeoutSeconds: settings.jobTimeoutSeconds,
      onError: (error) => options.logWarning?.('document queue (pg-boss) error', { err: error }),
    });
    const documents = createPostgresDocuments(pool, enqueue);
    const queue = await createPgDocumentQueue(url, boss, documents, context, {
      formats,
      concurrency: settings.concurrency,
      jobTimeoutSeconds: settings.jobTimeoutSeconds,
      leaseCheckMs: settings.leaseCheckSeconds * 1000,
      ...(options.sweepIntervalMs !== undefined ? { sweepIntervalMs: options.sweepIntervalMs } : {}),
      ...(options.logError ? { logError: options.logError } : {}),
      ...(options.logWarning ? { logWarning: options.logWarning } : {}),
    });
    return {
      store: documents.store,
      queue,
      async close() {
        await queue.close();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

/**
 * Opens the documents' storage (SQLite in the data directory, or PostgreSQL at `databaseUrl`), resumes
 * queued documents, sweeps expired ones, and adds the queue gauges to the server's metrics.
 */
export function startDocumentService(
  context: ServiceContext,
  settings: ResolvedDocumentOptions,
  options: DocumentServiceOptions = {},
): DocumentService {
  const formats = createDocumentFormats(settings);
  const url = context.options.databaseUrl;
  let starting: Promise<StartedDocuments & { close(): Promise<void> }>;
  if (url === undefined) {
    const { db, folder } = openDocumentDatabase(context.options.dataDir);
    const store = createDocumentStore(db, folder);
    const queue = createDocumentQueue(store, db, context, {
      concurrency: settings.concurrency,
      ...options,
      formats,
    });
    starting = Promise.resolve({ store, queue, close: () => queue.close() });
  } else {
    starting = startPostgres(url, context, settings, formats, options);
    starting.catch((error) => options.logStartError?.(error));
  }
  const started = async () => {
    try {
      return await starting;
    } catch {
      throw new ServiceError(503, 'Document translation is not available: its database does not answer.');
    }
  };
  context.metrics.gauge(
    'glossa_document_queue_depth',
    'Documents waiting for translation (queued), on every instance that shares the storage.',
    async () => (await (await started()).store.counts()).queued,
  );
  context.metrics.gauge(
    'glossa_documents_translating',
    'Documents being translated, on every instance that shares the storage.',
    async () => (await (await started()).store.counts()).translating,
  );
  const service: DocumentService = {
    formats,
    expiryMs: settings.expirySeconds * 1000,
    backend: url === undefined ? 'sqlite' : 'postgres',
    started,
    async close() {
      services.delete(context);
      const running = await starting.catch(() => undefined);
      await running?.close();
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
