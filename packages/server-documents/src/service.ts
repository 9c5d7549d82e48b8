/**
 * The documents part of a running server: its store, and its job kind on the server's job runner
 * (`context.jobs`, document-job.ts), started by the feature once the service context exists and closed
 * with the server. Routes find it through the context.
 *
 * Two stores. Without `databaseUrl` (the embedded default): `documents.sqlite` and files in the data
 * directory. With `databaseUrl` (a fleet): rows and bytes in PostgreSQL (postgres.ts), so polls and
 * downloads work through any instance. The jobs are the runner's either way (SQLite or PostgreSQL +
 * pg-boss): queue, claim, takeover, checkpoints, refunds.
 */
import type { JobTransaction, ServiceContext } from '@glossa/server/feature';
import { ServiceError } from '@glossa/server/feature';
import pg from 'pg';
import { openDocumentDatabase } from './db.js';
import {
  DOCUMENT_JOB_KIND,
  type DocumentJobs,
  registerDocumentJobs,
  secondsRemaining,
} from './document-job.js';
import { createDocumentFormats, type DocumentFormats } from './formats/index.js';
import { pruneOperations } from './job.js';
import type { ResolvedDocumentOptions } from './options.js';
import { createPostgresDocuments } from './postgres.js';
import { migrateDocuments } from './postgres-schema.js';
import type { DocumentRecord, DocumentStore } from './records.js';
import { createDocumentStore, type DocumentJobStore } from './store.js';

/** A store on either backend (store.ts, postgres.ts), once started. */
export interface StartedDocuments {
  readonly store: DocumentStore;
  readonly jobs: DocumentJobStore;
  /** The upload time of the oldest document queued or translating. */
  oldestActive(): Promise<Date | undefined>;
  /** Removes expired documents. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

export interface DocumentService {
  /** The formats, with the server's `xml`/`dita` attribute lists. */
  readonly formats: DocumentFormats;
  /** How long a document is kept after its upload, in ms (`documents.expirySeconds`). */
  readonly expiryMs: number;
  /** Which backend holds the documents. */
  readonly backend: 'sqlite' | 'postgres';
  /** The documents' jobs on the server's runner. */
  readonly jobs: DocumentJobs;
  /** The store, once started (PostgreSQL: after its migrations). */
  started(): Promise<StartedDocuments>;
  /** Queues the job of a stored document, in `transaction` when given (PostgreSQL: the row's; then `jobs.wake()`). */
  submit(
    document: Pick<DocumentRecord, 'id' | 'accountId' | 'keyId' | 'billedCharacters' | 'usageDay'>,
    transaction?: JobTransaction,
  ): Promise<void>;
  /** Seconds until the document is probably done (document-job.ts `secondsRemaining`). */
  secondsRemaining(document: DocumentRecord): Promise<number>;
  close(): Promise<void>;
}

export interface DocumentServiceOptions {
  /** How often expired documents are swept, in ms (default 60 s). */
  readonly sweepIntervalMs?: number;
  /** Where unexpected job failures are reported (never with document content or keys). */
  readonly logError?: (error: unknown, documentId: string) => void;
  readonly logWarning?: (message: string, detail?: Record<string, unknown>) => void;
  /** Where a failed start on PostgreSQL is reported (the routes then answer 503). */
  readonly logStartError?: (error: unknown) => void;
}

const services = new WeakMap<ServiceContext, DocumentService>();

async function startPostgres(url: string): Promise<StartedDocuments> {
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'glossa-documents' });
  // An idle client losing its connection (a database restart) must not crash the process.
  pool.on('error', () => {});
  try {
    await migrateDocuments(pool);
    return { ...createPostgresDocuments(pool), close: () => pool.end() };
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

function startSqlite(dataDir: string): StartedDocuments {
  const { db, folder } = openDocumentDatabase(dataDir);
  return {
    ...createDocumentStore(db, folder),
    async close() {
      if (db.open) db.close();
    },
  };
}

/**
 * Opens the documents' storage (SQLite in the data directory, or PostgreSQL at `databaseUrl`), registers the
 * documents' job kind on the server's runner, submits at start the jobs a crash lost between a document's
 * row and its submit (SQLite), sweeps expired documents, and adds the gauges to the server's metrics.
 */
export function startDocumentService(
  context: ServiceContext,
  settings: ResolvedDocumentOptions,
  options: DocumentServiceOptions = {},
): DocumentService {
  const formats = createDocumentFormats(settings);
  const url = context.options.databaseUrl;
  const starting: Promise<StartedDocuments> =
    url === undefined ? Promise.resolve(startSqlite(context.options.dataDir)) : startPostgres(url);
  starting.catch((error) => options.logStartError?.(error));
  const started = async () => {
    try {
      return await starting;
    } catch {
      throw new ServiceError(503, 'Document translation is not available: its database does not answer.');
    }
  };
  const jobs = registerDocumentJobs(context.jobs, context, async () => (await started()).jobs, {
    formats,
    concurrency: settings.concurrency,
    resultTtlMs: settings.expirySeconds * 1000,
    logError: options.logError,
  });
  const submit: DocumentService['submit'] = async (document, transaction) => {
    await jobs.submit(
      document.accountId,
      {
        documentId: document.id,
        keyId: document.keyId,
        billed: document.billedCharacters,
        day: document.usageDay,
      },
      { id: document.id, transaction },
    );
  };

  /**
   * At start, documents without a job get theirs: on SQLite a crash between the row (documents.sqlite) and
   * its submit (glossa.sqlite); on PostgreSQL, rows of a version that submitted after the row's transaction
   * (row and job commit together now). Refunds a version before the runner left owed are applied.
   */
  const resubmit = async () => {
    const documents = await started();
    const rows = await documents.jobs.unfinished();
    await jobs.resubmit(
      rows.map(({ id, accountId, keyId, billed, day }) => ({
        id,
        accountId,
        input: { documentId: id, keyId, billed, day },
      })),
    );
    await settleOwedRefunds(context, documents.jobs);
  };
  /** Expired documents go, then the reservation ids nothing can apply again (job.ts `pruneOperations`). */
  const sweep = async () => {
    const documents = await started();
    await documents.sweep();
    await pruneOperations(context, await documents.oldestActive());
  };
  const warn = (error: unknown) => options.logWarning?.('document sweep failed', { err: error });
  let sweeping: Promise<void> = resubmit().then(sweep).catch(warn);
  let closed = false;
  const sweeper = setInterval(() => {
    if (closed) return;
    sweeping = sweeping.then(sweep).catch(warn);
  }, options.sweepIntervalMs ?? 60_000);
  sweeper.unref();

  context.metrics.gauge(
    'glossa_document_queue_depth',
    'Documents waiting for translation (queued), on every instance that shares the storage.',
    () => context.jobs.count([DOCUMENT_JOB_KIND], ['queued']),
  );
  context.metrics.gauge(
    'glossa_documents_translating',
    'Documents being translated, on every instance that shares the storage.',
    () => context.jobs.count([DOCUMENT_JOB_KIND], ['running']),
  );
  const service: DocumentService = {
    formats,
    expiryMs: settings.expirySeconds * 1000,
    backend: url === undefined ? 'sqlite' : 'postgres',
    jobs,
    started,
    submit,
    async secondsRemaining(document) {
      const { store } = await started();
      return secondsRemaining(
        document,
        jobs,
        async () => (await store.queuedAhead(document.id)).ms,
        settings.concurrency,
      );
    },
    async close() {
      closed = true;
      clearInterval(sweeper);
      services.delete(context);
      await sweeping;
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

/**
 * Refunds owed by a version before the job runner: it marked a failed document `refund_pending`, applied the
 * refund as the operation `documents/<id>/refund`, then cleared the mark; a stop between the mark and the
 * clearing left the mark, which the runner's code never reads. Each is applied now with the same operation
 * (so one the old version had applied is not applied again), then the mark is cleared; how many.
 */
export async function settleOwedRefunds(context: ServiceContext, store: DocumentJobStore): Promise<number> {
  const owed = await store.owedRefunds();
  for (const row of owed) {
    if (row.billed > 0)
      await context.storage.applyUsageOnce(`documents/${row.id}/refund`, {
        accountId: row.accountId,
        keyId: row.keyId,
        product: 'translate',
        customTag: '',
        units: -row.billed,
        day: row.day,
      });
    await store.refunded(row.id);
  }
  return owed.length;
}
