/**
 * The documents part of a running server: its job kind on the server's job runner (document-job.ts),
 * registered by the feature once the service context exists, and its gauges. Routes find its queue on the
 * context's runner by its name, with the feature's formats and settings (`documentServiceOf`).
 */
import type { ServiceContext } from '@glossa/server/feature';
import { DOCUMENT_JOB_KIND, type DocumentJobs, registerDocumentJobs } from './document-job.js';
import type { DocumentFormats } from './formats/index.js';
import type { ResolvedDocumentOptions } from './options.js';

export interface DocumentService {
  /** The formats, with the server's `xml`/`dita` attribute lists. */
  readonly formats: DocumentFormats;
  /** The documents' jobs on the server's runner. */
  readonly jobs: DocumentJobs;
  /** Documents one instance translates at a time. */
  readonly concurrency: number;
}

/** Registers the documents' job kind on the server's runner and adds the gauges to the server's metrics. */
export function startDocumentService(
  context: ServiceContext,
  formats: DocumentFormats,
  settings: ResolvedDocumentOptions,
  logError: (error: unknown, documentId: string) => void,
): void {
  registerDocumentJobs(context, formats, settings, logError);
  for (const [name, help, state] of [
    ['glossa_document_queue_depth', 'Documents waiting for translation (queued)', 'queued'],
    ['glossa_documents_translating', 'Documents being translated', 'running'],
  ] as const)
    context.metrics.gauge(name, `${help}, on every instance that shares the storage.`, () =>
      context.jobs.count([DOCUMENT_JOB_KIND], [state]),
    );
}

/** The documents' service of a started server, for the feature's `formats` and `settings`. */
export const documentServiceOf =
  (formats: DocumentFormats, settings: Pick<ResolvedDocumentOptions, 'concurrency'>) =>
  (context: ServiceContext): DocumentService => ({
    formats,
    jobs: context.jobs.queue(DOCUMENT_JOB_KIND),
    concurrency: settings.concurrency,
  });
