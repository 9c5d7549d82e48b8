/**
 * The documents part of a running server: its job kind on the server's job runner (document-job.ts),
 * registered by the feature once the service context exists, and its gauges. Routes find it through the
 * context.
 */
import type { ServiceContext } from '@glossa/server/feature';
import { DOCUMENT_JOB_KIND, type DocumentJobs, registerDocumentJobs } from './document-job.js';
import { createDocumentFormats, type DocumentFormats } from './formats/index.js';
import type { ResolvedDocumentOptions } from './options.js';

export interface DocumentService {
  /** The formats, with the server's `xml`/`dita` attribute lists. */
  readonly formats: DocumentFormats;
  /** The documents' jobs on the server's runner. */
  readonly jobs: DocumentJobs;
  /** Documents one instance translates at a time. */
  readonly concurrency: number;
}

const services = new WeakMap<ServiceContext, DocumentService>();

/** Registers the documents' job kind on the server's runner and adds the gauges to the server's metrics. */
export function startDocumentService(
  context: ServiceContext,
  settings: ResolvedDocumentOptions,
  logError: (error: unknown, documentId: string) => void,
): { close(): Promise<void> } {
  const formats = createDocumentFormats(settings);
  const jobs = registerDocumentJobs(context, formats, settings, logError);
  for (const [name, help, state] of [
    ['glossa_document_queue_depth', 'Documents waiting for translation (queued)', 'queued'],
    ['glossa_documents_translating', 'Documents being translated', 'running'],
  ] as const)
    context.metrics.gauge(name, `${help}, on every instance that shares the storage.`, () =>
      context.jobs.count([DOCUMENT_JOB_KIND], [state]),
    );
  services.set(context, { formats, jobs, concurrency: settings.concurrency });
  return { close: async () => void services.delete(context) };
}

export function documentServiceOf(context: ServiceContext): DocumentService {
  const service = services.get(context);
  if (!service) throw new Error('The document service was not started for this server.');
  return service;
}
