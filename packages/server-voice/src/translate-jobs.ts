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
 * Transcripts are punctuated (`punctuate.ts`) before translation. Embedded (no `databaseUrl`): jobs live in
 * `voice.sqlite` (`voice_translate_jobs`), files under `<dataDir>/voice-jobs/`. On a fleet (`databaseUrl`):
 * rows, the uploaded audio and the results in PostgreSQL, jobs on pg-boss shared by every instance
 * (fleet-store.ts, fleet-queue.ts), so any instance takes the upload, the polls and the downloads.
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
import type { Caller, ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  defineRoute,
  notFound,
  type Route,
  ServiceError,
  unsupportedLanguage,
} from '@glossa/server/feature';
import type { FastifyBaseLogger } from 'fastify';
import type { JobControl } from './fleet-queue.js';
import type { Claimed, FleetVoiceStore } from './fleet-store.js';
import { fleetVoice } from './fleet-store.js';
import {
  declaredMediaType,
  decodeFile,
  encodeSpeech,
  JOB_SOURCE_CONTENT_TYPES,
  JOB_TARGET_TYPES,
} from './media.js';
import { punctuate } from './punctuate.js';
import { type Recognizer, startRecognizer, type UtteranceSpan } from './recognizer.js';
import { checkVoiceLanguages, glossarySourceTerms, translateTranscripts } from './resources.js';
import { customTagOf } from './routes.js';
import type { TranslateRow as Row } from './rows.js';
import { speechVoice, synthesize } from './speech.js';
import { voiceDatabase } from './spoken-terms.js';
import {
  crashPoints,
  minutesOwed,
  pruneSqliteOperations,
  settleSqliteOwed,
  settleUsage,
  sqliteSettled,
} from './usage.js';

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

const dir = (context: ServiceContext) => join(context.options.dataDir, 'voice-jobs');
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

/** Writes a job's status and results; a finish also writes the usage it owes (usage.ts), else it is kept. */
function update(
  context: ServiceContext,
  id: string,
  status: Row['status'],
  results: StoredResult[],
  usage: string | null = null,
) {
  const db = voiceDatabase(context);
  if (!db.open) return;
  db.prepare(
    'UPDATE voice_translate_jobs SET status = ?, results = ?, updated_at = ?, usage_pending = COALESCE(?, usage_pending) WHERE id = ?',
  ).run(status, JSON.stringify(results), new Date().toISOString(), usage, id);
}

const wantsSignedUrl = (query: { include?: string[] | undefined }) =>
  query.include?.some((value) => value.split(',').includes('signed_url')) ?? false;

// --- processing ---------------------------------------------------------------------------------------

const running = new WeakMap<ServiceContext, Promise<void>>();
type JobLog = Pick<FastifyBaseLogger, 'error' | 'warn'>;

/** Runs uploaded jobs one after the other until none is left (idempotent while running). */
export function runVoiceTranslateJobs(context: ServiceContext, log: JobLog): void {
  if (running.has(context)) return;
  const loop = (async () => {
    const db = voiceDatabase(context);
    db.prepare("UPDATE voice_translate_jobs SET status = 'uploaded' WHERE status = 'processing'").run();
    // Minutes a crash left owed by finished jobs (usage.ts).
    await settleSqliteOwed(context, db, 'voice_translate_jobs', (error) =>
      log.error({ err: error }, 'voice job usage failed'),
    );
    await pruneSqliteOperations(context, db, 'voice_translate_jobs', (error) =>
      log.warn({ err: error }, 'sweep of voice job usage operations failed'),
    );
    for (;;) {
      if (!db.open) return;
      const job = db
        .prepare(
          "SELECT * FROM voice_translate_jobs WHERE status = 'uploaded' ORDER BY created_at, id LIMIT 1",
        )
        .get() as Row | undefined;
      if (!job) return;
      await processJob(context, job, log);
    }
  })();
  running.set(context, loop);
  loop
    .catch((error: unknown) => log.error({ err: error }, 'voice translation job failed'))
    .finally(() => running.delete(context));
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
  save(index: number, bytes: Buffer): void;
  /** Is given the recognizer (to stop it). */
  track?(recognizer: Recognizer): void;
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
  const utterances: Utterance[] = [];
  const recognizer = startRecognizer({
    inputType: null,
    onUtterance: (text, span) =>
      utterances.push({ text: punctuate(text, { language: job.source_language, terms }), span }),
  });
  hooks.track?.(recognizer);
  recognizer.write(pcm);
  await recognizer.finish();
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
      hooks.save(index, bytes);
      results[index] = { status: 'complete', bytes: bytes.length };
    } catch (error) {
      log.warn({ err: error, job: job.id, target: index }, 'voice translation target failed');
      results[index] = { status: 'failed', error: `Processing failed: ${(error as Error).message}` };
    }
  }
  return { results, product: spoken ? 'speech_to_speech' : 'speech_to_text', seconds: recognizer.seconds };
}

/** The usage a translation job owes (as JSON, for `usage_pending`: usage.ts). */
const usageOf = (job: Row, translated: Translated) =>
  minutesOwed(job, translated.product, translated.seconds);

/** Why a whole job failed: the audio or the account; anything else is logged. */
function failureMessage(error: unknown, log: JobLog, id: string): string {
  const known = error instanceof Error && /^The (audio|account)/.test(error.message);
  if (!known) log.error({ err: error, job: id }, 'voice translation job failed');
  return known ? (error as Error).message : 'Transcription failed.';
}

async function processJob(context: ServiceContext, job: Row, log: JobLog): Promise<void> {
  const targets = JSON.parse(job.targets) as TargetSpec[];
  let results: StoredResult[] = targets.map(() => ({ status: 'processing' }));
  let usage: string | null = null;
  update(context, job.id, 'processing', results);
  try {
    const translated = await translateAudio(context, job, sourceFile(context, job.id), log, {
      save: (index, bytes) => writeFileSync(resultFile(context, job.id, index), bytes),
    });
    results = translated.results;
    usage = usageOf(job, translated);
  } catch (error) {
    const message = failureMessage(error, log, job.id);
    for (const result of results)
      if (result.status === 'processing') Object.assign(result, { status: 'failed', error: message });
  }
  const db = voiceDatabase(context);
  if (!db.open) return;
  // Done and its minutes owed in one statement, then the minutes applied once (usage.ts).
  update(context, job.id, 'done', results, usage);
  rmSync(sourceFile(context, job.id), { force: true });
  if (usage === null) return;
  crashPoints.afterFinish?.(job.id);
  await settleUsage(context, { table: 'voice_translate_jobs', id: job.id, usage }, (owed) =>
    sqliteSettled(db, owed),
  ).catch((error: unknown) => log.error({ err: error, job: job.id }, 'voice job usage failed'));
}

/**
 * Runs a job claimed on a fleet (fleet-queue.ts): the audio from the row (through a temporary file for
 * ffmpeg), the results and their bytes written only if this attempt still holds the job, and billed only
 * then: once.
 */
export function fleetTranslateJobHandler(context: ServiceContext, log: JobLog) {
  return async (job: Claimed<Row>, store: FleetVoiceStore, control: JobControl): Promise<void> => {
    const targets = JSON.parse(job.targets) as TargetSpec[];
    await store.setProcessing(job, JSON.stringify(targets.map(() => ({ status: 'processing' }))));
    const file = join(dir(context), `${job.id}.attempt-${job.attempt}`);
    const outputs: Buffer[] = [];
    let results: StoredResult[];
    let translated: Translated | undefined;
    try {
      mkdirSync(dir(context), { recursive: true, mode: 0o700 });
      writeFileSync(file, job.upload, { mode: 0o600 });
      crashPoints.afterAudio?.(job.id);
      translated = await translateAudio(context, job, file, log, {
        save: (index, bytes) => {
          outputs[index] = bytes;
        },
        track: (recognizer) => control.track(recognizer),
      });
      results = translated.results;
    } catch (error) {
      // A closing instance queues the job again (fleet-queue.ts) rather than failing it.
      if (control.closing) return;
      const message = failureMessage(error, log, job.id);
      results = targets.map(() => ({ status: 'failed', error: message }));
    } finally {
      rmSync(file, { force: true });
    }
    // Its minutes owed in the finish's transaction, then applied once (usage.ts).
    const usage = translated ? usageOf(job, translated) : null;
    const finished = await store.finishTranslate(job, JSON.stringify(results), outputs, usage);
    if (!finished || usage === null) return;
    crashPoints.afterFinish?.(job.id);
    await settleUsage(
      context,
      { table: 'voice_translate_jobs', id: job.id, usage },
      store.usageSettled,
    ).catch((error: unknown) => log.error({ err: error, job: job.id }, 'voice job usage failed'));
  };
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

function statusOf(row: Row, results: StoredResult[], include: boolean, base: string, signatures: string[]) {
  return {
    job_id: row.id,
    product: 'voice' as const,
    operation: 'translate' as const,
    created_at: row.created_at,
    updated_at: row.updated_at,
    usage: {
      storage_used:
        (row.status === 'done' ? 0 : row.status === 'pending' ? 0 : row.content_length) +
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
          fleet.notify();
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
        runVoiceTranslateJobs(context, request.log);
        return reply.code(204).send();
      },
    ),
    bodyLimit: MAX_VOICE_JOB_SOURCE_BYTES + 1024 * 1024,
  },
  defineRoute(ENDPOINTS.getVoiceTranslateJobStatus, async ({ params, query, caller, context }) => {
    const row = await ownJob(context, caller, params.job_id);
    const results = JSON.parse(row.results) as StoredResult[];
    const signatures = await Promise.all(
      results.map((_, index) => sign(context, row.id, `${caller.account.plan}:result-${index}`)),
    );
    return statusOf(row, results, wantsSignedUrl(query), baseUrl(context, caller), signatures);
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
    const results = row ? (JSON.parse(row.results) as StoredResult[]) : [];
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
