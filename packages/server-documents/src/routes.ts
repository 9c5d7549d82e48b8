/** Document translation endpoints: upload, status, and the result (downloaded once, then deleted). */
import { type DocumentStatusResponse, ENDPOINTS, ERROR_CODES } from '@glossa/protocol';
import { defineRoute, notFound, type Route, type ServiceContext, ServiceError } from '@glossa/server/feature';
import { formatOf } from './formats/index.js';
import { documentServiceOf } from './service.js';
import { uploadDocument } from './upload.js';

const missing = (id: string) =>
  notFound(`Document '${id}' not found (wrong id or key, downloaded, or expired).`);

const uploadRoute = defineRoute(ENDPOINTS.uploadDocument, async ({ request, caller, context }) =>
  uploadDocument(request, caller, context, documentServiceOf(context)),
);

/**
 * The account's document, its status as its job has it: a job that failed before its row did (its store not
 * answering, retries spent) makes the document failed.
 */
async function findDocument(context: ServiceContext, accountId: string, id: string, key: string) {
  const service = documentServiceOf(context);
  const { store } = await service.started();
  const document = await store.find(accountId, id, key);
  if (!document) throw missing(id);
  if (document.status === 'queued' || document.status === 'translating') {
    const job = await service.jobs.status(document.id);
    if (job?.status === 'failed' || job?.status === 'cancelled')
      return {
        service,
        store,
        document: { ...document, status: 'error' as const, errorMessage: job.error ?? 'Translation failed.' },
      };
  }
  return { service, store, document };
}

const statusRoute = defineRoute(ENDPOINTS.getDocumentStatus, async ({ params, body, caller, context }) => {
  const { service, document } = await findDocument(
    context,
    caller.account.id,
    params.document_id,
    body.document_key,
  );
  const response: DocumentStatusResponse = { document_id: document.id, status: document.status };
  if (document.status === 'queued' || document.status === 'translating')
    response.seconds_remaining = await service.secondsRemaining(document);
  if (document.status === 'done') {
    response.billed_characters = document.billedCharacters;
    // Glossa's own, when some segment every engine failed was kept in the source language (as the job saved
    // it; a job of an older version saved none). Absent when none, as `X-Glossa-Kept-Source` on translate.
    const kept = (await service.jobs.status(document.id))?.checkpoint?.kept;
    if (kept && kept.count > 0) response.glossa_kept_source = kept;
  }
  if (document.status === 'error') response.error_message = document.errorMessage ?? 'Translation failed.';
  return response;
});

const resultRoute = defineRoute(
  ENDPOINTS.downloadDocument,
  async ({ params, body, caller, context, reply }) => {
    const { service, store, document } = await findDocument(
      context,
      caller.account.id,
      params.document_id,
      body.document_key,
    );
    if (document.status === 'error')
      throw notFound(
        `Document '${document.id}' has no result: its translation failed (${document.errorMessage}).`,
      );
    if (document.status !== 'done')
      throw new ServiceError(
        503,
        `Document '${document.id}' is not translated yet (${document.status}).`,
        ERROR_CODES.documentNotReady,
        undefined,
        {
          headers: { 'retry-after': String(Math.max(1, await service.secondsRemaining(document))) },
        },
      );
    // Downloaded once: of concurrent downloads (through any instance), one gets the result.
    const bytes = await store.takeResult(caller.account.id, document.id);
    if (!bytes) throw missing(params.document_id);
    const name = document.parameters.file_name.replace(/\.[^.]*$/, '') || 'document';
    const fileName = `${name}.${document.outputExtension}`;
    reply
      .code(200)
      .header('content-type', formatOf(document.outputExtension)?.contentType ?? 'application/octet-stream')
      .header(
        'content-disposition',
        `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      )
      .send(bytes);
    return undefined;
  },
);

export const DOCUMENT_ROUTES: readonly Route[] = [uploadRoute, statusRoute, resultRoute];
