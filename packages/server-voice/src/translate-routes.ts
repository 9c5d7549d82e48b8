/**
 * Asynchronous voice translation jobs at the public description's paths (alpha: accounts flagged for voice
 * jobs, else 403):
 * - `POST /v1/jobs/voice/translate` `{source_file: {name, content_type, content_length}, parameters?:
 *   {source_language?}, targets: [{language, type}]}` → 201 `{job_id, upload_url, signature,
 *   signed_upload_url?}` (`?include=signed_url`);
 * - `PUT <upload_url>` with `Authorization: Service-Signature <signature>` (or the signed URL, no header)
 *   and the audio as the body → 204; the job is then processed (the file is probed and decoded by ffmpeg);
 * - `GET /v1/jobs/voice/translate/{job_id}` → the job with one result per target, in order: `pending`
 *   (no file yet), `uploaded`, `processing`, `complete` (with `download_url` and `signature`, and
 *   `signed_download_url` with `?include=signed_url`), `downloaded`, or `failed` with `error.message`;
 * - `GET <download_url>` with the signature → the result: the translation as text (`text/plain`), as
 *   subtitles timed on the speech (`application/x-subrip`), or spoken by espeak-ng in the audio type asked.
 * A job is a runner job of kind `voice/translate` (job-support.ts; its work: translate-audio.ts), deferred
 * until its audio is uploaded, with the audio and results as its job files, so any instance of a fleet takes
 * the upload, the polls and the downloads. URLs are signed (signatures.ts).
 */
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ENDPOINTS,
  MAX_VOICE_JOB_SOURCE_BYTES,
  type VoiceTranslateCreateJobRequest,
  type VoiceTranslateResultStatus,
} from '@glossa/protocol';
import type { Caller, ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  defineRoute,
  notFound,
  type Route,
  ServiceError,
  unsupportedLanguage,
} from '@glossa/server/feature';
import { voiceQueues } from './job-support.js';
import { declaredMediaType, JOB_SOURCE_CONTENT_TYPES, JOB_TARGET_TYPES } from './media.js';
import { checkVoiceLanguages } from './resources.js';
import { customTagOf } from './routes.js';
import type { TranslateInput } from './rows.js';
import { sign, signatureOf, verify } from './signatures.js';
import { speechVoice } from './speech.js';
import type { StoredResult } from './translate-audio.js';

type CreateRequest = VoiceTranslateCreateJobRequest;
const JOB_PATH = ENDPOINTS.createVoiceTranslateJob.path;

const baseUrl = (context: ServiceContext, caller: Caller) =>
  caller.account.plan === 'free' ? context.urls.free : context.urls.paid;

const wantsSignedUrl = (query: { include?: string[] | undefined }) =>
  query.include?.some((value) => value.split(',').includes('signed_url')) ?? false;

function checkCreate(context: ServiceContext, body: CreateRequest) {
  const contentType = declaredMediaType(body.source_file.content_type, JOB_SOURCE_CONTENT_TYPES);
  if (!contentType) {
    throw badRequest(
      `/source_file/content_type: Value is not valid; use one of ${JOB_SOURCE_CONTENT_TYPES.join(', ')}.`,
    );
  }
  if (body.source_file.content_length > MAX_VOICE_JOB_SOURCE_BYTES) {
    throw badRequest(
      `/source_file/content_length: this server takes files of at most ${MAX_VOICE_JOB_SOURCE_BYTES} bytes.`,
    );
  }
  const types = body.targets.map((target, index) => {
    const type = declaredMediaType(target.type, Object.keys(JOB_TARGET_TYPES));
    if (!type) throw badRequest(`/targets/${index}/type: Value is not valid`);
    return type;
  });
  const requested = body.parameters?.source_language ?? 'en';
  const { source } = checkVoiceLanguages(context, requested, []);
  const specs = body.targets.map((target, index) => {
    // Checked one by one: a job may ask for one language in several types.
    const [language = target.language] = checkVoiceLanguages(context, requested, [target.language]).targets;
    const type = types[index]!;
    if (typeof JOB_TARGET_TYPES[type] !== 'string' && !speechVoice(language))
      throw unsupportedLanguage(`Speech synthesis is not installed for ${target.language}.`);
    return { language, type };
  });
  return { source, contentType, specs };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface State {
  readonly accountId: string;
  readonly input: TranslateInput;
  readonly status: 'pending' | 'uploaded' | 'processing' | 'done';
  readonly results: StoredResult[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Translation job `id` (any account's: the signed upload and download find it by id) as the runner has it:
 * `pending` while deferred (no audio yet); a downloaded result is marked by its job file `downloaded-<i>`.
 * Undefined when unknown, 404 once expired.
 */
async function translateState(context: ServiceContext, id: string): Promise<State | undefined> {
  if (!UUID.test(id)) return undefined;
  const { translate } = voiceQueues(context);
  const job = await translate.status(id.toLowerCase());
  if (!job) return undefined;
  if (job.status === 'expired') throw notFound(`Voice translation job ${id} has expired.`);
  const { accountId, input, createdAt, updatedAt } = job;
  const state = { accountId, input, createdAt, updatedAt };
  const all = (status: VoiceTranslateResultStatus, error?: string) =>
    job.input.targets.map((): StoredResult => (error === undefined ? { status } : { status, error }));
  if (job.status === 'deferred') return { ...state, status: 'pending', results: all('pending') };
  if (job.status === 'queued') return { ...state, status: 'uploaded', results: all('uploaded') };
  if (job.status === 'running') return { ...state, status: 'processing', results: all('processing') };
  if (job.status !== 'completed' || !job.result)
    return { ...state, status: 'done', results: all('failed', job.error ?? 'Processing failed.') };
  const files = await translate.files(job.id);
  const results = job.result.map((result, index) =>
    result.status === 'complete' && files.includes(`downloaded-${index}`)
      ? { ...result, status: 'downloaded' as const }
      : result,
  );
  return { ...state, status: 'done', results };
}

function statusOf(id: string, state: State, include: boolean, base: string, signatures: string[]) {
  const { results, input } = state;
  return {
    job_id: id,
    product: 'voice' as const,
    operation: 'translate' as const,
    created_at: state.createdAt,
    updated_at: state.updatedAt,
    usage: {
      storage_used:
        (state.status === 'done' || state.status === 'pending' ? 0 : input.contentLength) +
        results.reduce((sum, result) => sum + (result.bytes ?? 0), 0),
    },
    source_file: {
      name: input.fileName,
      content_type: input.contentType,
      content_length: input.contentLength,
    },
    parameters: input.sourceGiven ? { source_language: input.source } : {},
    targets: input.targets,
    results: results.map((result, index) => {
      if (result.status === 'failed')
        return { status: result.status, error: { message: result.error ?? 'Processing failed.' } };
      if (result.status !== 'complete' && result.status !== 'downloaded') return { status: result.status };
      const url = `${base}${JOB_PATH}/${id}/results/${index}`;
      const signature = signatures[index]!;
      return {
        status: result.status,
        download_url: url,
        signature,
        ...(include ? { signed_download_url: `${url}?signature=${encodeURIComponent(signature)}` } : {}),
      };
    }),
  };
}

export const VOICE_TRANSLATE_JOB_ROUTES: readonly Route[] = [
  defineRoute(ENDPOINTS.createVoiceTranslateJob, async ({ body, query, caller, request, context, reply }) => {
    const { source, contentType, specs } = checkCreate(context, body);
    const input: TranslateInput = {
      keyId: caller.key.id,
      customTag: customTagOf(request),
      fileName: body.source_file.name,
      contentType,
      contentLength: body.source_file.content_length,
      source,
      sourceGiven: body.parameters?.source_language !== undefined,
      targets: specs,
    };
    const { id } = await voiceQueues(context).translate.submit(caller.account.id, input, { deferred: true });
    const uploadUrl = `${baseUrl(context, caller)}${JOB_PATH}/${id}/source`;
    const signature = await sign(context, id, `${caller.account.plan}:upload`);
    return reply.code(201).send({
      job_id: id,
      upload_url: uploadUrl,
      signature,
      ...(wantsSignedUrl(query)
        ? { signed_upload_url: `${uploadUrl}?signature=${encodeURIComponent(signature)}` }
        : {}),
    });
  }),
  {
    ...defineRoute(
      ENDPOINTS.uploadVoiceTranslateSource,
      async ({ params, query, request, reply, context }) => {
        const id = params.job_id.toLowerCase();
        const uploaded = () =>
          new ServiceError(409, `The audio of job ${id} was already uploaded.`, 'invalid_request');
        let state: State | undefined;
        try {
          state = await translateState(context, id);
          await verify(context, params.job_id, `${request.plan}:upload`, signatureOf(request, query));
          if (!state) throw notFound(`Voice translation job ${params.job_id} not found.`);
          if (state.status !== 'pending') throw uploaded();
          const declared = Number(request.headers['content-length']);
          if (Number.isFinite(declared) && declared > state.input.contentLength) {
            throw new ServiceError(
              413,
              `Upload of ${declared} bytes is larger than the ${state.input.contentLength} bytes announced as content_length.`,
              'request_too_large',
            );
          }
        } catch (error) {
          request.raw.resume();
          throw error;
        }
        const { input } = state;
        let received = 0;
        const limit = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            received += chunk.length;
            if (received > input.contentLength)
              done(
                new ServiceError(
                  413,
                  `The upload is larger than the ${input.contentLength} bytes announced.`,
                  'request_too_large',
                ),
              );
            else done(null, chunk);
          },
        });
        // The audio streams into its job file (embedded: straight to disk), not into memory.
        const body = new PassThrough();
        const reading = pipeline(request.raw, limit, body);
        reading.catch(() => request.raw.resume());
        async function* audio() {
          yield* body;
          if (received === 0) throw badRequest('The upload is empty: send the audio file as the body.');
        }
        let released: boolean;
        try {
          // Queued with its audio; of concurrent uploads (on any instance), one.
          released = await voiceQueues(context).translate.release(id, { audio: audio() });
        } catch (error) {
          throw error instanceof ServiceError ? error : badRequest('The upload was interrupted.');
        }
        if (!released) {
          body.resume();
          await reading.catch(() => {});
          throw uploaded();
        }
        return reply.code(204).send();
      },
    ),
    bodyLimit: MAX_VOICE_JOB_SOURCE_BYTES + 1024 * 1024,
  },
  defineRoute(ENDPOINTS.getVoiceTranslateJobStatus, async ({ params, query, caller, context }) => {
    const state = await translateState(context, params.job_id);
    if (!state || state.accountId !== caller.account.id)
      throw notFound(`Voice translation job ${params.job_id} not found.`);
    const signatures = await Promise.all(
      state.results.map((_, index) => sign(context, params.job_id, `${caller.account.plan}:result-${index}`)),
    );
    return statusOf(params.job_id, state, wantsSignedUrl(query), baseUrl(context, caller), signatures);
  }),
  defineRoute(ENDPOINTS.downloadVoiceTranslateResult, async ({ params, query, request, reply, context }) => {
    await verify(
      context,
      params.job_id,
      `${request.plan}:result-${params.index}`,
      signatureOf(request, query),
    );
    const id = params.job_id.toLowerCase();
    const state = await translateState(context, id);
    const index = Number(params.index);
    const result = state?.results[index];
    if (!state || !result || (result.status !== 'complete' && result.status !== 'downloaded'))
      throw notFound(`Result ${params.index} of voice translation job ${params.job_id} not found.`);
    const { translate } = voiceQueues(context);
    const bytes = await translate.file(id, `result-${index}`);
    if (!bytes) throw notFound(`Result ${params.index} of voice translation job ${params.job_id} is gone.`);
    if (result.status === 'complete') await translate.writeFile(id, `downloaded-${index}`, new Uint8Array());
    const type = state.input.targets[index]!.type;
    const contentType =
      type === 'text/plain'
        ? 'text/plain; charset=utf-8'
        : type === 'application/x-subrip'
          ? 'application/x-subrip; charset=utf-8'
          : type;
    return reply.code(200).header('content-type', contentType).send(Buffer.from(bytes));
  }),
];
