/** Document translation endpoints: upload, status, and the result (downloaded once, then deleted). */
import { type DocumentStatusResponse, ENDPOINTS, ERROR_CODES } from '@glossa/protocol';
import { defineRoute, notFound, type Route, type ServiceContext, ServiceError } from '@glossa/server/feature';
import { DOCUMENT_JOB_KIND, type DocumentService, RESULT_FILE, secondsRemaining } from './document-job.js';
import { formatOf } from './formats/index.js';
import { billedOf, errorOf, isKeyOf, statusOf } from './records.js';
import { uploadDocument } from './upload.js';

const missing = (id: string) =>
  notFound(`Document '${id}' not found (wrong id or key, downloaded, or expired).`);

/**
 * The account's document: its job, when `key` is its key; 404 for another account's id exactly as for an
 * unknown one. An expired one is deleted then. A translated document whose result was downloaded is gone
 * (`withResult`: its result must still be there).
 */
async function findDocument(
  service: DocumentService,
  context: ServiceContext,
  accountId: string,
  id: string,
  key: string,
  withResult: boolean,
) {
  const job = await service.jobs.status(id.toLowerCase(), { accountId });
  if (!job || !isKeyOf(job, key)) throw missing(id);
  if (job.status === 'expired') {
    await service.jobs.remove(job.id);
    throw missing(id);
  }
  const status = statusOf(job);
  if (withResult && status === 'done' && !(await service.jobs.files(job.id)).includes(RESULT_FILE))
    throw missing(id);
  const remaining = () =>
    secondsRemaining(job, () => context.jobs.count([DOCUMENT_JOB_KIND], ['queued']), service.concurrency);
  return { service, job, status, remaining };
}

/** The routes, finding the documents' service of the server they answer for with `serviceOf`. */
export function documentRoutes(serviceOf: (context: ServiceContext) => DocumentService): Route[] {
  const uploadRoute = defineRoute(ENDPOINTS.uploadDocument, async ({ request, caller, context }) =>
    uploadDocument(request, caller, context, serviceOf(context)),
  );

  const statusRoute = defineRoute(ENDPOINTS.getDocumentStatus, async ({ params, body, caller, context }) => {
    const { job, status, remaining } = await findDocument(
      serviceOf(context),
      context,
      caller.account.id,
      params.document_id,
      body.document_key,
      true,
    );
    const response: DocumentStatusResponse = { document_id: job.id, status };
    if (status === 'queued' || status === 'translating') response.seconds_remaining = await remaining();
    if (status === 'done') {
      response.billed_characters = billedOf(job);
      // Glossa's own, when some segment every engine failed was kept in the source language (as the job saved
      // it; a job of an older version saved none). Absent when none, as `X-Glossa-Kept-Source` on translate.
      const kept = job.checkpoint?.kept;
      if (kept && kept.count > 0) response.glossa_kept_source = kept;
    }
    if (status === 'error') response.error_message = errorOf(job);
    return response;
  });

  const resultRoute = defineRoute(
    ENDPOINTS.downloadDocument,
    async ({ params, body, caller, context, reply }) => {
      const { service, job, status, remaining } = await findDocument(
        serviceOf(context),
        context,
        caller.account.id,
        params.document_id,
        body.document_key,
        false,
      );
      if (status === 'error')
        throw notFound(`Document '${job.id}' has no result: its translation failed (${errorOf(job)}).`);
      if (status !== 'done')
        throw new ServiceError(
          503,
          `Document '${job.id}' is not translated yet (${status}).`,
          ERROR_CODES.documentNotReady,
          undefined,
          {
            headers: { 'retry-after': String(Math.max(1, await remaining())) },
          },
        );
      // Downloaded once: of concurrent downloads (through any instance), one gets the result.
      const bytes = await service.jobs.takeFile(job.id, RESULT_FILE);
      if (!bytes) throw missing(params.document_id);
      const { parameters, outputExtension } = job.input;
      const fileName = `${parameters.file_name.replace(/\.[^.]*$/, '') || 'document'}.${outputExtension}`;
      reply
        .code(200)
        .header('content-type', formatOf(outputExtension)?.contentType ?? 'application/octet-stream')
        .header(
          'content-disposition',
          `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
        )
        .send(bytes);
      return undefined;
    },
  );

  return [uploadRoute, statusRoute, resultRoute];
}
