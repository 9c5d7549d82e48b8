import { FEATURES, type FeatureName, type Language } from '@glossa/protocol';
import { type LanguageInput, refuseEarlierJobStores, type ServerFeature } from '@glossa/server/feature';
import { documentServiceOf, registerDocumentJobs } from './document-job.js';
import { createDocumentFormats } from './formats/index.js';
import { type DocumentOptions, resolveDocumentOptions } from './options.js';
import { documentRoutes } from './routes.js';

export type { DocumentOptions } from './options.js';

/** Documents are translated by the text pipeline: its languages, with the features documents have. */
function documentLanguages({ translateText }: LanguageInput): Language[] {
  return translateText().map((language) => {
    for (const name of Object.keys(language.features) as FeatureName[]) {
      if (!(FEATURES[name].resources as readonly string[]).includes('translate_document'))
        delete language.features[name];
    }
    return language;
  });
}

/**
 * Document translation for `@glossa/server`: `POST /v2/document` and its status and result endpoints, each
 * document a job on the server's job runner (`context.jobs`), its upload and result the job's files: in the
 * data directory, or, when the server has `databaseUrl`, in PostgreSQL shared by every instance. Options are
 * checked here, once (a `TypeError` or `RangeError` names the wrong one).
 */
export function documentsFeature(options: DocumentOptions = {}): ServerFeature {
  const settings = resolveDocumentOptions(options);
  const formats = createDocumentFormats(settings);
  return {
    name: '@glossa/server-documents',
    routes: documentRoutes(documentServiceOf(formats, settings)),
    resources: { translate_document: documentLanguages },
    async start(context, log) {
      // The documents of a version before the runner held them (`documents.sqlite`, or PostgreSQL's table).
      await refuseEarlierJobStores(context, { tables: { file: 'documents.sqlite', names: ['documents'] } });
      registerDocumentJobs(context, formats, settings, (error, documentId) =>
        log.error({ err: error, documentId }, 'document job failed'),
      );
      return { close: async () => {} };
    },
  };
}
