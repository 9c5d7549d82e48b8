/**
 * The documents part of a running server: its job kind on the server's job runner (`context.jobs`,
 * document-job.ts), registered by the feature once the service context exists. A document is its job and
 * nothing else: its facts the job's input, its upload and result the job's files, whichever backend the
 * runner has (SQLite in the data directory, or PostgreSQL shared by a fleet: polls and downloads work through
 * any instance). Routes find the service through the context.
 */
import { forgetUsageOperations, type ServiceContext } from '@glossa/server/feature';
import {
  DOCUMENT_JOB_KIND,
  type DocumentJobs,
  registerDocumentJobs,
  secondsRemaining,
} from './document-job.js';
import { createDocumentFormats, type DocumentFormats } from './formats/index.js';
import { retireDocumentStores } from './legacy.js';
import type { ResolvedDocumentOptions } from './options.js';
import type { DocumentRecord } from './records.js';

export interface DocumentService {
  /** The formats, with the server's `xml`/`dita` attribute lists. */
  readonly formats: DocumentFormats;
  /** How long a translated document is kept for its download, in ms (`documents.expirySeconds`). */
  readonly expiryMs: number;
  /** The documents' jobs on the server's runner. */
  readonly jobs: DocumentJobs;
  /** Seconds until the document is probably done (document-job.ts `secondsRemaining`). */
  secondsRemaining(document: DocumentRecord): Promise<number>;
  close(): Promise<void>;
}

export interface DocumentServiceOptions {
  /** How often the operation ids of a version before are pruned, in ms (default 60 s). */
  readonly sweepIntervalMs?: number;
  /** Where unexpected job failures are reported (never with document content or keys). */
  readonly logError?: (error: unknown, documentId: string) => void;
  readonly logWarning?: (message: string, detail?: Record<string, unknown>) => void;
}

const services = new WeakMap<ServiceContext, DocumentService>();

/**
 * Registers the documents' job kind on the server's runner, retires the stores of a version before the
 * runner held documents (legacy.ts), prunes that version's usage operation ids, and adds the gauges to the
 * server's metrics.
 */
export function startDocumentService(
  context: ServiceContext,
  settings: ResolvedDocumentOptions,
  options: DocumentServiceOptions = {},
): DocumentService {
  const formats = createDocumentFormats(settings);
  const jobs = registerDocumentJobs(context.jobs, context, {
    formats,
    concurrency: settings.concurrency,
    resultTtlMs: settings.expirySeconds * 1000,
    logError: options.logError,
  });
  const warn = (error: unknown) => options.logWarning?.('document sweep failed', { err: error });
  // The operation ids of a version before the runner held documents (`documents/<id>/reservation`,
  // `documents/<id>/refund`): no job of this version makes or applies one (its own are `jobs/<id>/…`), so
  // they go a day (`USAGE_OPERATION_MARGIN_MS`, for the clocks) after they were recorded.
  const sweep = async () => {
    await forgetUsageOperations(context.storage, 'documents/', undefined);
  };
  let sweeping: Promise<void> = retireDocumentStores(context).then(sweep).catch(warn);
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
    jobs,
    secondsRemaining: (document) =>
      secondsRemaining(
        document,
        jobs,
        // The documents queued besides it, each at its own estimate: the runner keeps no sum of theirs.
        async () =>
          Math.max(0, (await context.jobs.count([DOCUMENT_JOB_KIND], ['queued'])) - 1) * document.estimateMs,
        settings.concurrency,
      ),
    async close() {
      closed = true;
      clearInterval(sweeper);
      services.delete(context);
      await sweeping;
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
