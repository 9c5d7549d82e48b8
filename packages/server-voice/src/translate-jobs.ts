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
 * Transcripts are punctuated (`punctuate.ts`) before translation. A job is a record (embedded, no
 * `databaseUrl`: `voice_translate_jobs` in `voice.sqlite`, files under `<dataDir>/voice-jobs/`; on a fleet:
 * the record, the uploaded audio and the results in PostgreSQL, fleet-store.ts, so any instance takes the
 * upload, the polls and the downloads) and, once uploaded, a job of kind `voice/translate` on the server's
 * job runner under the same id (its state, result, takeover, expiry, minutes once: job-support.ts).
 * Signatures are HMAC-SHA256 over the job, the purpose and an expiry, with a secret kept in the server's
 * settings (shared by a fleet on one database: a URL signed by one instance is valid on every other).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ENDPOINTS,
  ERROR_CODES,
  MAX_VOICE_JOB_SOURCE_BYTES,
  VOICE_JOB_SIGNATURE_SCHEME,
  type VoiceTranslateCreateJobRequest,
  type VoiceTranslateResultStatus,
} from '@glossa/protocol';
import type { Caller, JobKind, JobQueue, ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  defineRoute,
  JobFailed,
  JobSuperseded,
  notFound,
  type Route,
  RunnerClosing,
  ServiceError,
  unsupportedLanguage,
} from '@glossa/server/feature';
import { type JobUtterance, secondsOfPcm, type VoiceCheckpoint } from './chunks.js';
import { fleetVoice } from './fleet-store.js';
import {
  crashPoints,
  forgetJob,
  handOverLeft,
  type JobLog,
  minutesOf,
  recognizeJob,
  submitJob,
  VOICE_RESULT_TTL_MS,
  withAudio,
} from './job-support.js';
import {
  declaredMediaType,
  decodeFile,
  encodeSpeech,
  JOB_SOURCE_CONTENT_TYPES,
  JOB_TARGET_TYPES,
} from './media.js';
import { punctuate } from './punctuate.js';
import type { UtteranceSpan } from './recognizer.js';
import { checkVoiceLanguages, glossarySourceTerms, translateTranscripts } from './resources.js';
import { customTagOf } from './routes.js';
import { jobDir, type TranslateRow as Row } from './rows.js';
import { speechVoice, synthesize } from './speech.js';
import { voiceDatabase } from './spoken-terms.js';

/** How long an upload or download signature is valid. */
export const SIGNATURE_TTL_MS = 60 * 60_000;

type CreateRequest = VoiceTranslateCreateJobRequest;
const JOB_PATH = ENDPOINTS.createVoiceTranslateJob.path;

interface TargetSpec {
  language: string;
  type: string;
}
interface StoredResult {
  status: VoiceTranslateResultStatus;
  error?: string;
  bytes?: number;
}

const dir = jobDir;
const sourceFile = (context: ServiceContext, id: string) => join(dir(context), `${id}.source`);
const resultFile = (context: ServiceContext, id: string, index: number) =>
  join(dir(context), `${id}.result-${index}`);

// --- signatures ---------------------------------------------------------------------------------------

const SECRET_SETTING = 'voice_job_url_secret';
const secrets = new WeakMap<ServiceContext, Promise<Buffer>>();

function secretOf(context: ServiceContext): Promise<Buffer> {
  let secret = secrets.get(context);
  if (!secret) {
    secret = (async () => {
      const value =
        (await context.storage.getSetting(SECRET_SETTING)) ??
        (await context.storage.claimSetting(SECRET_SETTING, randomBytes(32).toString('hex')));
      return Buffer.from(value, 'hex');
    })();
    secrets.set(context, secret);
  }
  return secret;
}

/**
 * `<expires>.<hmac>`: what the signature covers is the job, the plan and purpose (`paid:upload`,
 * `free:result-0`: a URL works only on its plan's base URL) and the expiry.
 */
async function sign(context: ServiceContext, jobId: string, purpose: string): Promise<string> {
  const expires = Math.floor((Date.now() + SIGNATURE_TTL_MS) / 1000);
  const mac = createHmac('sha256', await secretOf(context))
    .update(`voice-translate:${purpose}:${jobId}:${expires}`)
    .digest('base64url');
  return `${expires}.${mac}`;
}

async function verify(
  context: ServiceContext,
  jobId: string,
  purpose: string,
  signature: string | undefined,
): Promise<void> {
  const denied = (message: string) => new ServiceError(403, message, ERROR_CODES.authorizationFailed);
  if (!signature) {
    throw denied(
      `This URL needs its signature: send 'Authorization: ${VOICE_JOB_SIGNATURE_SCHEME} <signature>' or use the signed URL.`,
    );
  }
  const [expiresText = '', given = ''] = signature.split('.');
  const expires = Number(expiresText);
  const expected = createHmac('sha256', await secretOf(context))
    .update(`voice-translate:${purpose}:${jobId}:${expires}`)
    .digest();
  const actual = Buffer.from(given, 'base64url');
  if (!Number.isInteger(expires) || actual.length !== expected.length || !timingSafeEqual(actual, expected))
    throw denied('The signature is not valid for this URL.');
  if (expires * 1000 <= Date.now()) throw denied('The signature has expired; get a new one from the job.');
}

function signatureOf(
  request: { headers: Record<string, string | string[] | undefined> },
  query: { signature?: string | undefined },
) {
  const header = request.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  const match = value === undefined ? null : /^(\S+)\s+(\S+)$/.exec(value.trim());
  if (match && match[1]!.toLowerCase() === VOICE_JOB_SIGNATURE_SCHEME.toLowerCase()) return match[2];
  return query.signature;
}

// --- storage ------------------------------------------------------------------------------------------

const baseUrl = (context: ServiceContext, caller: Caller) =>
  caller.account.plan === 'free' ? context.urls.free : context.urls.paid;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findRow(context: ServiceContext, id: string): Promise<Row | undefined> {
  if (!UUID.test(id)) return undefined;
  const fleet = fleetVoice(context);
  if (fleet) return (await fleet.store()).findTranslate(id.toLowerCase());
  return voiceDatabase(context).prepare('SELECT * FROM voice_translate_jobs WHERE id = ?').get(id) as
    | Row
    | undefined;
}

/** Embedded: writes a record's status and results (an upload; a result marked downloaded). */
function update(context: ServiceContext, id: string, status: Row['status'], results: StoredResult[]) {
  const db = voiceDatabase(context);
  if (!db.open) return;
  db.prepare('UPDATE voice_translate_jobs SET status = ?, results = ?, updated_at = ? WHERE id = ?').run(
    status,
    JSON.stringify(results),
    new Date().toISOString(),
    id,
  );
}

const wantsSignedUrl = (query: { include?: string[] | undefined }) =>
  query.include?.some((value) => value.split(',').includes('signed_url')) ?? false;

// --- processing ---------------------------------------------------------------------------------------

type TranslateQueue = JobQueue<{ id: string }, VoiceCheckpoint, StoredResult[]>;
const queues = new WeakMap<ServiceContext, TranslateQueue>();

function queueOf(context: ServiceContext): TranslateQueue {
  const queue = queues.get(context);
  if (!queue) throw new ServiceError(503, 'Voice jobs are not started on this server.');
  return queue;
}

/**
 * Registers the kind `voice/translate` on the server's job runner: an attempt decodes the job's audio,
 * transcribes it in chunks of `chunkSeconds` (a checkpoint after each: a job taken over resumes at its last
 * chunk, chunks.ts), translates and renders each target (its bytes kept: embedded in
 * `<dataDir>/voice-jobs/<id>.result-<n>`, on a fleet in `voice_translate_results`; a later attempt writes
 * the same bytes again) and charges its minutes, applied with the completion (job-support.ts). A job whose
 * audio or account is unusable completes with every target failed, and no minutes. A deleted job (a while
 * after it expired) takes its record and files with it.
 */
export function registerVoiceTranslateJobs(context: ServiceContext, log: JobLog, chunkSeconds: number): void {
  const kind: JobKind<{ id: string }, VoiceCheckpoint, StoredResult[]> = {
    name: 'voice/translate',
    resultTtlMs: VOICE_RESULT_TTL_MS,
    async run(job) {
      const row = await findRow(context, job.id);
      if (!row) throw new JobFailed('The job is gone.');
      const targets = JSON.parse(row.targets) as TargetSpec[];
      const fleet = fleetVoice(context);
      try {
        const translated = await withAudio(context, 'voice_translate_jobs', job, `${job.id}.source`, (file) =>
          translateAudio(context, row, file, log, {
            async save(index, bytes) {
              if (fleet) await (await fleet.store()).saveResult(job.id, index, bytes);
              else writeFileSync(resultFile(context, job.id, index), bytes);
            },
            recognize: (pcm) => recognizeJob(job, pcm, chunkSeconds),
          }),
        );
        job.charge('minutes', minutesOf(row, translated.product, translated.seconds));
        crashPoints.beforeFinish?.(job.id);
        return translated.results;
      } catch (error) {
        if (job.signal.aborted) throw job.signal.reason ?? error;
        if (error instanceof JobSuperseded || error instanceof RunnerClosing) throw error;
        const known = error instanceof Error && /^The (audio|account)/.test(error.message);
        if (!known) log.error({ err: error, job: job.id }, 'voice translation job failed');
        const message = known ? (error as Error).message : 'Transcription failed.';
        return targets.map(() => ({ status: 'failed' as const, error: message }));
      }
    },
    forget: (job) => forgetJob(context, 'voice_translate_jobs', job.id),
  };
  const queue = context.jobs.register(kind);
  queues.set(context, queue);
  handOverLeft(context, 'voice_translate_jobs', 'uploaded', queue).catch((error: unknown) =>
    log.error({ err: error }, 'voice translation jobs left by a stopped server could not be queued'),
  );
}

/**
 * A job's status and results: its record's until the audio is uploaded, then its runner job's (a result
 * downloaded is marked on the record).
 */
async function stateOf(
  context: ServiceContext,
  row: Row,
): Promise<{ status: Row['status']; results: StoredResult[]; updatedAt: string }> {
  const stored = JSON.parse(row.results) as StoredResult[];
  if (row.status === 'pending') return { status: 'pending', results: stored, updatedAt: row.updated_at };
  const targets = JSON.parse(row.targets) as TargetSpec[];
  const job = await queueOf(context).status(row.id);
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

interface Utterance {
  text: string;
  span: UtteranceSpan;
}

const srtTime = (seconds: number) => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
};

/** SubRip subtitles: one cue per utterance, timed on the speech. */
export function subrip(cues: readonly { text: string; span: UtteranceSpan }[]): string {
  return cues
    .filter((cue) => cue.text.trim())
    .map(
      (cue, index) => `${index + 1}\n${srtTime(cue.span.start)} --> ${srtTime(cue.span.end)}\n${cue.text}\n`,
    )
    .join('\n');
}

interface Translated {
  results: StoredResult[];
  product: 'speech_to_text' | 'speech_to_speech';
  seconds: number;
}

interface TranslateHooks {
  /** Keeps the bytes of target `index` (a failure here fails that target). */
  save(index: number, bytes: Buffer): Promise<void>;
  /** The utterances of the job's audio (`recognizeJob`: in chunks, from the job's checkpoint). */
  recognize(pcm: Buffer): Promise<JobUtterance[]>;
}

/**
 * Transcribes the audio in `file`, translates it into each target and renders each result (given to
 * `hooks.save`); one result per target, complete or failed. Throws when the whole job fails (the audio, the
 * account). Nothing is recorded here.
 */
async function translateAudio(
  context: ServiceContext,
  job: Row,
  file: string,
  log: JobLog,
  hooks: TranslateHooks,
): Promise<Translated> {
  const targets = JSON.parse(job.targets) as TargetSpec[];
  const account = await context.storage.getAccount(job.account_id);
  if (!account) throw new Error('The account of this job no longer exists.');
  const caller: Caller = { account, key: { id: job.key_id, accountId: job.account_id } };
  const pcm = await decodeFile(file);
  const terms = await glossarySourceTerms(context, caller, job.source_language, undefined);
  const utterances: Utterance[] = (await hooks.recognize(pcm)).map(({ text, span }) => ({
    text: punctuate(text, { language: job.source_language, terms }),
    span,
  }));
  let spoken = false;
  const results: StoredResult[] = [];
  for (const [index, target] of targets.entries()) {
    try {
      const texts = await translateTranscripts(
        context,
        caller,
        {
          source: job.source_language,
          target: target.language,
          formality: 'default',
          glossaryId: undefined,
        },
        utterances.map((utterance) => utterance.text),
      );
      const kind = JOB_TARGET_TYPES[target.type]!;
      let bytes: Buffer;
      if (kind === 'text') bytes = Buffer.from(texts.length ? `${texts.join(' ')}\n` : '');
      else if (kind === 'subrip')
        bytes = Buffer.from(
          subrip(utterances.map((utterance, i) => ({ text: texts[i] ?? '', span: utterance.span }))),
        );
      else {
        spoken = true;
        const text = texts.join(' ').trim();
        bytes = await encodeSpeech(await synthesize(text || ' ', target.language), kind);
      }
      await hooks.save(index, bytes);
      results[index] = { status: 'complete', bytes: bytes.length };
    } catch (error) {
      log.warn({ err: error, job: job.id, target: index }, 'voice translation target failed');
      results[index] = { status: 'failed', error: `Processing failed: ${(error as Error).message}` };
    }
  }
  return { results, product: spoken ? 'speech_to_speech' : 'speech_to_text', seconds: secondsOfPcm(pcm) };
}

// --- routes -------------------------------------------------------------------------------------------

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
  const row = await findRow(context, id);
  if (!row || row.account_id !== caller.account.id) throw notFound(`Voice translation job ${id} not found.`);
  return row;
}

export const VOICE_TRANSLATE_JOB_ROUTES: readonly Route[] = [
  defineRoute(ENDPOINTS.createVoiceTranslateJob, async ({ body, query, caller, request, context, reply }) => {
    const { source, contentType, specs } = checkCreate(context, body);
    const id = randomUUID();
    const now = new Date().toISOString();
    const fleet = fleetVoice(context);
    if (fleet) {
      await (await fleet.store()).insertTranslate({
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
    } else
      voiceDatabase(context)
        .prepare(
          `INSERT INTO voice_translate_jobs (id, account_id, key_id, custom_tag, status, file_name, content_type,
           content_length, source_language, source_given, targets, results, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          caller.account.id,
          caller.key.id,
          customTagOf(request),
          body.source_file.name,
          contentType,
          body.source_file.content_length,
          source,
          body.parameters?.source_language === undefined ? 0 : 1,
          JSON.stringify(specs),
          JSON.stringify(specs.map(() => ({ status: 'pending' }))),
          now,
          now,
        );
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
          row = await findRow(context, params.job_id);
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
          );
          if (!stored)
            throw new ServiceError(
              409,
              `The audio of job ${row.id} was already uploaded.`,
              'invalid_request',
            );
          await submitJob(context, 'voice_translate_jobs', queueOf(context), row.account_id, row.id);
          return reply.code(204).send();
        }
        mkdirSync(dir(context), { recursive: true, mode: 0o700 });
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
        update(
          context,
          row.id,
          'uploaded',
          targets.map(() => ({ status: 'uploaded' })),
        );
        await submitJob(context, 'voice_translate_jobs', queueOf(context), row.account_id, row.id);
        return reply.code(204).send();
      },
    ),
    bodyLimit: MAX_VOICE_JOB_SOURCE_BYTES + 1024 * 1024,
  },
  defineRoute(ENDPOINTS.getVoiceTranslateJobStatus, async ({ params, query, caller, context }) => {
    const row = await ownJob(context, caller, params.job_id);
    const state = await stateOf(context, row);
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
    const row = await findRow(context, params.job_id);
    const index = Number(params.index);
    const results = row ? (await stateOf(context, row)).results : [];
    const result = results[index];
    if (!row || !result || (result.status !== 'complete' && result.status !== 'downloaded'))
      throw notFound(`Result ${params.index} of voice translation job ${params.job_id} not found.`);
    const gone = () => notFound(`Result ${params.index} of voice translation job ${params.job_id} is gone.`);
    let bytes: Buffer;
    const fleet = fleetVoice(context);
    if (fleet) {
      const store = await fleet.store();
      const found = await store.result(row.id, index);
      if (!found) throw gone();
      bytes = found;
      await store.setDownloaded(row.id, index);
    } else {
      const file = resultFile(context, row.id, index);
      try {
        statSync(file);
        bytes = readFileSync(file);
      } catch {
        throw gone();
      }
      results[index] = { ...result, status: 'downloaded' };
      update(context, row.id, row.status, results);
    }
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
