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
 * A job is a record (records.ts; any instance of a fleet takes the upload, the polls and the downloads)
 * and, once uploaded, a job of kind `voice/translate` on the server's job runner under the same id
 * (job-support.ts; its work: translate-audio.ts). URLs are signed (signatures.ts).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { Transform, Writable } from 'node:stream';
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
import { fleetVoice } from './fleet-store.js';
import { submitVoiceJob, voiceQueues } from './job-support.js';
import { declaredMediaType, JOB_SOURCE_CONTENT_TYPES, JOB_TARGET_TYPES } from './media.js';
import { downloadResult, findTranslate, insertTranslate, sourceFile, updateTranslate } from './records.js';
import { checkVoiceLanguages } from './resources.js';
import { customTagOf } from './routes.js';
import { jobDir, type TranslateRow as Row, type TargetSpec } from './rows.js';
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
  const specs = body.targets.map((target, index): TargetSpec => {
    // Checked one by one: a job may ask for one language in several types.
    const [language = target.language] = checkVoiceLanguages(context, requested, [target.language]).targets;
    const type = types[index]!;
    if (typeof JOB_TARGET_TYPES[type] !== 'string' && !speechVoice(language))
      throw unsupportedLanguage(`Speech synthesis is not installed for ${target.language}.`);
    return { language, type };
  });
  return { source, contentType, specs };
}

/**
 * A translation job's status and results: its record's until the audio is uploaded, then its runner job's
 * (a result downloaded is marked on the record); 404 once expired.
 */
async function translateState(
  context: ServiceContext,
  row: Row,
): Promise<{ status: Row['status']; results: StoredResult[]; updatedAt: string }> {
  const stored = JSON.parse(row.results) as StoredResult[];
  if (row.status === 'pending') return { status: 'pending', results: stored, updatedAt: row.updated_at };
  const targets = JSON.parse(row.targets) as TargetSpec[];
  const job = await voiceQueues(context).translate.status(row.id);
  if (job?.status === 'expired') throw notFound(`Voice translation job ${row.id} has expired.`);
  const all = (status: VoiceTranslateResultStatus, error?: string) =>
    targets.map((): StoredResult => (error === undefined ? { status } : { status, error }));
  if (job === undefined && row.status === 'done')
    // Finished by the queue of a version before the runner: its results are the record's.
    return { status: 'done', results: stored, updatedAt: row.updated_at };
  if (job === undefined || job.status === 'queued')
    return { status: 'uploaded', results: all('uploaded'), updatedAt: row.updated_at };
  if (job.status === 'running')
    return { status: 'processing', results: all('processing'), updatedAt: job.updatedAt };
  if (job.status !== 'completed' || !job.result)
    return {
      status: 'done',
      results: all('failed', job.error ?? 'Processing failed.'),
      updatedAt: job.updatedAt,
    };
  const results = job.result.map((result, index) =>
    result.status === 'complete' && stored[index]?.status === 'downloaded'
      ? { ...result, status: 'downloaded' as const }
      : result,
  );
  return { status: 'done', results, updatedAt: job.updatedAt };
}

function statusOf(
  row: Row,
  state: { status: Row['status']; results: StoredResult[]; updatedAt: string },
  include: boolean,
  base: string,
  signatures: string[],
) {
  const { results } = state;
  return {
    job_id: row.id,
    product: 'voice' as const,
    operation: 'translate' as const,
    created_at: row.created_at,
    updated_at: state.updatedAt,
    usage: {
      storage_used:
        (state.status === 'done' ? 0 : state.status === 'pending' ? 0 : row.content_length) +
        results.reduce((sum, result) => sum + (result.bytes ?? 0), 0),
    },
    source_file: { name: row.file_name, content_type: row.content_type, content_length: row.content_length },
    parameters: row.source_given ? { source_language: row.source_language } : {},
    targets: JSON.parse(row.targets) as TargetSpec[],
    results: results.map((result, index) => {
      if (result.status === 'failed')
        return { status: result.status, error: { message: result.error ?? 'Processing failed.' } };
      if (result.status !== 'complete' && result.status !== 'downloaded') return { status: result.status };
      const url = `${base}${JOB_PATH}/${row.id}/results/${index}`;
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

async function ownJob(context: ServiceContext, caller: Caller, id: string): Promise<Row> {
  const row = await findTranslate(context, id);
  if (!row || row.account_id !== caller.account.id) throw notFound(`Voice translation job ${id} not found.`);
  return row;
}

export const VOICE_TRANSLATE_JOB_ROUTES: readonly Route[] = [
  defineRoute(ENDPOINTS.createVoiceTranslateJob, async ({ body, query, caller, request, context, reply }) => {
    const { source, contentType, specs } = checkCreate(context, body);
    const id = randomUUID();
    const now = new Date().toISOString();
    await insertTranslate(context, {
      id,
      account_id: caller.account.id,
      key_id: caller.key.id,
      custom_tag: customTagOf(request),
      status: 'pending',
      file_name: body.source_file.name,
      content_type: contentType,
      content_length: body.source_file.content_length,
      source_language: source,
      source_given: body.parameters?.source_language === undefined ? 0 : 1,
      targets: JSON.stringify(specs),
      results: JSON.stringify(specs.map(() => ({ status: 'pending' }))),
      created_at: now,
      updated_at: now,
    });
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
        let row: Row | undefined;
        try {
          row = await findTranslate(context, params.job_id);
          await verify(context, params.job_id, `${request.plan}:upload`, signatureOf(request, query));
          if (!row) throw notFound(`Voice translation job ${params.job_id} not found.`);
          if (row.status !== 'pending')
            throw new ServiceError(
              409,
              `The audio of job ${row.id} was already uploaded.`,
              'invalid_request',
            );
          const declared = Number(request.headers['content-length']);
          if (Number.isFinite(declared) && declared > row.content_length) {
            throw new ServiceError(
              413,
              `Upload of ${declared} bytes is larger than the ${row.content_length} bytes announced as content_length.`,
              'request_too_large',
            );
          }
        } catch (error) {
          request.raw.resume();
          throw error;
        }
        const pending = row;
        let received = 0;
        const limit = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            received += chunk.length;
            if (received > pending.content_length)
              done(
                new ServiceError(
                  413,
                  `The upload is larger than the ${pending.content_length} bytes announced.`,
                  'request_too_large',
                ),
              );
            else done(null, chunk);
          },
        });
        const targets = JSON.parse(row.targets) as TargetSpec[];
        const fleet = fleetVoice(context);
        if (fleet) {
          // On a fleet the audio goes to PostgreSQL, for whichever instance runs the job.
          const chunks: Buffer[] = [];
          const keep = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
          });
          try {
            await pipeline(request.raw, limit, keep);
          } catch (error) {
            request.raw.resume();
            throw error instanceof ServiceError ? error : badRequest('The upload was interrupted.');
          }
          if (received === 0) throw badRequest('The upload is empty: send the audio file as the body.');
          const stored = await (await fleet.store()).upload(
            row.id,
            Buffer.concat(chunks),
            JSON.stringify(targets.map(() => ({ status: 'uploaded' }))),
            (transaction) => submitVoiceJob(context, { kind: 'translate', row: pending }, transaction),
          );
          if (!stored)
            throw new ServiceError(
              409,
              `The audio of job ${row.id} was already uploaded.`,
              'invalid_request',
            );
          voiceQueues(context).translate.wake();
          return reply.code(204).send();
        }
        mkdirSync(jobDir(context), { recursive: true, mode: 0o700 });
        const file = sourceFile(context, row.id);
        try {
          await pipeline(request.raw, limit, createWriteStream(file, { mode: 0o600 }));
        } catch (error) {
          rmSync(file, { force: true });
          request.raw.resume();
          throw error instanceof ServiceError ? error : badRequest('The upload was interrupted.');
        }
        if (received === 0) {
          rmSync(file, { force: true });
          throw badRequest('The upload is empty: send the audio file as the body.');
        }
        updateTranslate(
          context,
          row.id,
          'uploaded',
          targets.map(() => ({ status: 'uploaded' })),
        );
        try {
          await submitVoiceJob(context, { kind: 'translate', row });
        } catch (error) {
          // Refused (429): the job waits for its upload again, as on a fleet where the transaction rolls back.
          updateTranslate(context, row.id, 'pending', JSON.parse(row.results));
          rmSync(file, { force: true });
          throw error;
        }
        return reply.code(204).send();
      },
    ),
    bodyLimit: MAX_VOICE_JOB_SOURCE_BYTES + 1024 * 1024,
  },
  defineRoute(ENDPOINTS.getVoiceTranslateJobStatus, async ({ params, query, caller, context }) => {
    const row = await ownJob(context, caller, params.job_id);
    const state = await translateState(context, row);
    const signatures = await Promise.all(
      state.results.map((_, index) => sign(context, row.id, `${caller.account.plan}:result-${index}`)),
    );
    return statusOf(row, state, wantsSignedUrl(query), baseUrl(context, caller), signatures);
  }),
  defineRoute(ENDPOINTS.downloadVoiceTranslateResult, async ({ params, query, request, reply, context }) => {
    await verify(
      context,
      params.job_id,
      `${request.plan}:result-${params.index}`,
      signatureOf(request, query),
    );
    const row = await findTranslate(context, params.job_id);
    const index = Number(params.index);
    const results = row ? (await translateState(context, row)).results : [];
    const result = results[index];
    if (!row || !result || (result.status !== 'complete' && result.status !== 'downloaded'))
      throw notFound(`Result ${params.index} of voice translation job ${params.job_id} not found.`);
    results[index] = { ...result, status: 'downloaded' };
    const bytes = await downloadResult(context, row, index, results);
    if (!bytes) throw notFound(`Result ${params.index} of voice translation job ${params.job_id} is gone.`);
    const type = (JSON.parse(row.targets) as TargetSpec[])[index]!.type;
    const contentType =
      type === 'text/plain'
        ? 'text/plain; charset=utf-8'
        : type === 'application/x-subrip'
          ? 'application/x-subrip; charset=utf-8'
          : type;
    return reply.code(200).header('content-type', contentType).send(bytes);
  }),
];
