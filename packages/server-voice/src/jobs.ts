/**
 * Asynchronous voice jobs (alpha: accounts with the alpha flag, else 403): an uploaded audio file is
 * transcribed by the same recognizer as the real-time sessions and translated into each target. A job may
 * name a spoken-term collection and a glossary, checked and applied as on a real-time session
 * (`resources.ts`).
 *
 * A job is a record (its request; embedded: `voice_jobs` in `voice.sqlite` and the audio under
 * `<dataDir>/voice-jobs/`; on a fleet: PostgreSQL, audio included, fleet-store.ts) and a job of kind
 * `voice/transcribe` on the server's job runner, under the same id: the runner gives its status, result,
 * takeover, expiry and its minutes once (job-support.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateVoiceJobFields,
  createRequestValidator,
  decodeForm,
  ENDPOINTS,
  type VoiceJobStatus,
} from '@glossa/protocol';
import type { Caller, JobInfo, JobKind, JobQueue, ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  defineRoute,
  JobFailed,
  notFound,
  type Route,
  readUpload,
  ServiceError,
} from '@glossa/server/feature';
import { secondsOfPcm, type VoiceCheckpoint } from './chunks.js';
import { fleetVoice } from './fleet-store.js';
import {
  crashPoints,
  failureOf,
  forgetJob,
  handOverLeft,
  type JobLog,
  minutesOf,
  recognizeJob,
  submitJob,
  VOICE_RESULT_TTL_MS,
  withAudio,
} from './job-support.js';
import { decodeFile } from './media.js';
import { punctuate } from './punctuate.js';
import {
  checkVoiceGlossary,
  checkVoiceLanguages,
  checkVoiceResources,
  glossarySourceTerms,
  termPronunciations,
  translateTranscripts,
} from './resources.js';
import { customTagOf } from './routes.js';
import { type JobRow, jobDir } from './rows.js';
import { voiceDatabase } from './spoken-terms.js';

export const MAX_JOB_FILE_BYTES = 100 * 1024 * 1024;
/** File extensions a job (at the earlier path) accepts; the file is probed and decoded by ffmpeg. */
const JOB_TYPES: Record<string, string> = {
  wav: 'wav',
  flac: 'flac',
  ogg: 'ogg',
  oga: 'ogg',
  opus: 'ogg',
  mp3: 'mp3',
  m4a: 'mp4',
  mp4: 'mp4',
  webm: 'webm',
  mka: 'matroska',
};

const validator = createRequestValidator(CreateVoiceJobFields);

interface TranscribeInput {
  readonly id: string;
}
interface TranscribeResult {
  readonly transcript: string;
  readonly translations: { target_language: string; text: string }[];
}
type TranscribeQueue = JobQueue<TranscribeInput, VoiceCheckpoint, TranscribeResult>;
type TranscribeInfo = JobInfo<TranscribeInput, VoiceCheckpoint, TranscribeResult>;
const queues = new WeakMap<ServiceContext, TranscribeQueue>();

function queueOf(context: ServiceContext): TranscribeQueue {
  const queue = queues.get(context);
  if (!queue) throw new ServiceError(503, 'Voice jobs are not started on this server.');
  return queue;
}

/** The record of a job (any account's): embedded in `voice.sqlite`, on a fleet in PostgreSQL. */
async function findRecord(context: ServiceContext, id: string): Promise<JobRow | undefined> {
  const fleet = fleetVoice(context);
  if (fleet) return (await fleet.store()).findJob(id);
  return voiceDatabase(context).prepare('SELECT * FROM voice_jobs WHERE id = ?').get(id) as
    | JobRow
    | undefined;
}

/**
 * Registers the kind `voice/transcribe` on the server's job runner: an attempt decodes the job's audio,
 * transcribes it in chunks of `chunkSeconds` (a checkpoint after each: a job taken over resumes at its
 * last chunk, chunks.ts), translates it, and charges its minutes, applied with the completion
 * (job-support.ts). A deleted job (a while after it expired) takes its record and files with it.
 */
export function registerVoiceJobs(context: ServiceContext, log: JobLog, chunkSeconds: number): void {
  const kind: JobKind<TranscribeInput, VoiceCheckpoint, TranscribeResult> = {
    name: 'voice/transcribe',
    resultTtlMs: VOICE_RESULT_TTL_MS,
    async run(job) {
      try {
        const row = await findRecord(context, job.id);
        if (!row) throw new JobFailed('The job is gone.');
        const { result, seconds } = await withAudio(context, 'voice_jobs', job, job.id, async (file) =>
          transcribeJob(context, row, await decodeFile(file), log, (pcm, words) =>
            recognizeJob(job, pcm, chunkSeconds, words),
          ),
        );
        job.charge('minutes', minutesOf(row, 'speech_to_text', seconds));
        crashPoints.beforeFinish?.(job.id);
        return result;
      } catch (error) {
        throw failureOf(error, job.signal, log, job.id);
      }
    },
    forget: (job) => forgetJob(context, 'voice_jobs', job.id),
  };
  const queue = context.jobs.register(kind);
  queues.set(context, queue);
  handOverLeft(context, 'voice_jobs', 'queued', queue).catch((error: unknown) =>
    log.error({ err: error }, 'voice jobs left by a stopped server could not be queued'),
  );
}

/**
 * The transcript and translations of a job and the seconds of audio it had (nothing is recorded here).
 * `pcm`: the job's audio decoded to 16 kHz mono s16le; `recognize` gives its utterances (recognizeJob).
 */
async function transcribeJob(
  context: ServiceContext,
  job: JobRow,
  pcm: Buffer,
  log: JobLog,
  recognize: (pcm: Buffer, words: readonly (readonly [string, string])[]) => Promise<{ text: string }[]>,
) {
  const account = await context.storage.getAccount(job.account_id);
  if (!account) throw new Error('The account of this job no longer exists.');
  const caller: Caller = { account, key: { id: job.key_id, accountId: job.account_id } };
  const targets = JSON.parse(job.targets) as string[];
  const glossaryId = job.glossary_id ?? undefined;
  const spokenTerms = JSON.parse(job.spoken_terms) as string[];
  const words = await termPronunciations(spokenTerms, (error) =>
    log.warn({ err: error }, 'spoken-term pronunciations failed'),
  );
  const terms = [...spokenTerms, ...(await glossarySourceTerms(context, caller, job.source, glossaryId))];
  const utterances = (await recognize(pcm, words)).map((utterance) =>
    punctuate(utterance.text, { language: job.source, terms }),
  );
  const transcript = utterances.join(' ');
  // Checked again: a glossary deleted (or its dictionary for a pair) since the job was queued fails it
  // rather than giving translations without it.
  if (glossaryId !== undefined) await checkVoiceGlossary(context, caller, job.source, targets, glossaryId);
  const translations = [];
  for (const target of targets) {
    const options = { source: job.source, target, formality: 'default', glossaryId } as const;
    const texts = await translateTranscripts(context, caller, options, utterances);
    translations.push({ target_language: target, text: texts.join(' ') });
  }
  return { result: { transcript, translations }, seconds: secondsOfPcm(pcm) };
}

/** A job of the caller's, with its status on the runner (undefined: its submit was lost). */
async function findJob(context: ServiceContext, accountId: string, id: string) {
  const row = await findRecord(context, id);
  if (!row || row.account_id !== accountId) throw notFound(`Voice job ${id} not found.`);
  const job = await queueOf(context).status(id);
  if (job?.status === 'expired') throw notFound(`Voice job ${id} has expired.`);
  return job ?? legacy(row);
}

/** A record finished by the queue of a version before the runner, as the runner's job would say it. */
function legacy(row: JobRow): Pick<TranscribeInfo, 'status' | 'result' | 'error'> | undefined {
  if (row.result) return { status: 'completed', result: JSON.parse(row.result), error: undefined };
  if (row.status === 'error')
    return { status: 'failed', result: undefined, error: row.error_message ?? undefined };
  return undefined;
}

/** The interface's status of a job on the runner. */
function statusOf(job: Pick<TranscribeInfo, 'status'> | undefined): VoiceJobStatus {
  switch (job?.status) {
    case 'running':
      return 'processing';
    case 'completed':
      return 'done';
    case 'failed':
    case 'cancelled':
      return 'error';
    default:
      return 'queued';
  }
}

export const VOICE_JOB_ROUTES: readonly Route[] = [
  {
    ...defineRoute(ENDPOINTS.createVoiceJob, async ({ request, caller, context }) => {
      const customTag = customTagOf(request);
      const upload = await readUpload(request, MAX_JOB_FILE_BYTES);
      if (!upload.file) throw badRequest("Parameter 'file' is required: send the audio as the 'file' part.");
      const fields = new URLSearchParams();
      for (const [name, value] of upload.fields) {
        if (name === 'target_languages')
          for (const part of value.split(',')) fields.append(name, part.trim());
        else fields.append(name, value);
      }
      const checked = validator.validate(decodeForm(fields, CreateVoiceJobFields));
      if (!checked.ok) throw badRequest(checked.message);
      const extension = /\.([a-z0-9]{1,5})$/i.exec(upload.file.name)?.[1]?.toLowerCase() ?? '';
      const inputType = JOB_TYPES[extension];
      if (!inputType) throw badRequest(`Audio files must end in .${Object.keys(JOB_TYPES).join(', .')}.`);
      const { source, targets } = checkVoiceLanguages(
        context,
        checked.value.source_language,
        checked.value.target_languages,
      );
      const { spokenTerms, glossaryId } = await checkVoiceResources(context, caller, {
        source,
        targets,
        spokenTermsId: checked.value.spoken_terms_id,
        glossaryId: checked.value.glossary_id,
      });
      const id = randomUUID();
      const row: JobRow = {
        id,
        account_id: caller.account.id,
        key_id: caller.key.id,
        custom_tag: customTag,
        status: 'queued',
        source,
        targets: JSON.stringify(targets),
        input_type: inputType,
        spoken_terms: JSON.stringify(spokenTerms),
        glossary_id: glossaryId ?? null,
        created_at: new Date().toISOString(),
      };
      const fleet = fleetVoice(context);
      if (fleet) await (await fleet.store()).insertJob(row, Buffer.from(upload.file.bytes));
      else {
        mkdirSync(jobDir(context), { recursive: true, mode: 0o700 });
        writeFileSync(join(jobDir(context), id), upload.file.bytes);
        voiceDatabase(context)
          .prepare(
            `INSERT INTO voice_jobs (id, account_id, key_id, custom_tag, status, source, targets, input_type,
               spoken_terms, glossary_id, created_at)
             VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            id,
            row.account_id,
            row.key_id,
            row.custom_tag,
            row.source,
            row.targets,
            row.input_type,
            row.spoken_terms,
            row.glossary_id,
            row.created_at,
          );
      }
      await submitJob(context, 'voice_jobs', queueOf(context), caller.account.id, id);
      return { job_id: id };
    }),
    bodyLimit: MAX_JOB_FILE_BYTES + 1024 * 1024,
  },
  defineRoute(ENDPOINTS.getVoiceJob, async ({ params, caller, context }) => {
    const job = await findJob(context, caller.account.id, params.job_id);
    return {
      job_id: params.job_id,
      status: statusOf(job),
      ...(statusOf(job) === 'error' ? { error_message: job?.error ?? 'Transcription failed.' } : {}),
    };
  }),
  defineRoute(ENDPOINTS.getVoiceJobResult, async ({ params, caller, context }) => {
    const job = await findJob(context, caller.account.id, params.job_id);
    const status = statusOf(job);
    if (status === 'error') throw badRequest(`The voice job failed: ${job?.error ?? 'unknown error'}`);
    if (status !== 'done' || !job?.result)
      throw new ServiceError(503, `The voice job is ${status}; poll its status until done.`);
    return job.result;
  }),
];
