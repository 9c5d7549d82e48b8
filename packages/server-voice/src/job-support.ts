/**
 * The two voice job kinds on the server's job runner (`context.jobs`), and all the job code voice has:
 * `voice/transcribe` (`/v3/voice/jobs`, routes in job-routes.ts, work in transcribe.ts) and
 * `voice/translate` (`/v1/jobs/voice/translate`, routes in translate-routes.ts, work in
 * translate-audio.ts). A job is nothing but its runner job: the request's facts are its input, the uploaded
 * audio its job file `audio`, a translation job's results its job files `result-<i>` (written by the
 * attempt, fenced) and a downloaded result's mark the file `downloaded-<i>`; the routes map the runner's
 * states to each interface's status. A translation job is created before its audio is uploaded: submitted
 * `deferred`, the upload `release`s it with its audio (once: a second upload gets false, a 409).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningJob, ServiceContext } from '@glossa/server/feature';
import { JobFailed, JobSuperseded, RunnerClosing, ServiceError, utcDay } from '@glossa/server/feature';
import type { FastifyBaseLogger } from 'fastify';
import { type JobUtterance, recognizeInChunks, type VoiceCheckpoint } from './chunks.js';
import { decodeFile } from './media.js';
import type { TranscribeInput, TranslateInput } from './rows.js';
import { type TranscribeResult, transcribeJob } from './transcribe.js';
import { type StoredResult, type Translated, translateAudio } from './translate-audio.js';

export type JobLog = Pick<FastifyBaseLogger, 'error' | 'warn'>;

/** How long a finished voice job's status and result stay readable (then `expired`, later deleted). */
const VOICE_RESULT_TTL_MS = 24 * 60 * 60_000;

/** The queues of the voice kinds, both interfaces' (their jobs' status: the routes). */
export const voiceQueues = (context: ServiceContext) => ({
  transcribe: context.jobs.queue<TranscribeInput, VoiceCheckpoint, TranscribeResult>('voice/transcribe'),
  translate: context.jobs.queue<TranslateInput, VoiceCheckpoint, StoredResult[]>('voice/translate'),
});

/** Where an attempt keeps its copy of the job's audio for ffmpeg (`attempt`). */
const audioDir = (context: ServiceContext) => join(context.options.dataDir, 'voice-jobs');

/** Removes the audio copies of attempts a kill left (at start). */
export function removeAudioCopies(context: ServiceContext): void {
  for (const name of existsSync(audioDir(context)) ? readdirSync(audioDir(context)) : [])
    if (name.includes('.attempt-')) rmSync(join(audioDir(context), name), { force: true });
}

/**
 * Registers the kinds: an attempt decodes the job's audio, transcribes it in chunks of `chunkSeconds` (a
 * checkpoint after each), does the job's work and charges its minutes, applied with the completion. A
 * translation job whose audio or account is unusable completes with every target failed, and no minutes.
 */
export function registerVoiceJobs(context: ServiceContext, log: JobLog, chunkSeconds: number): void {
  context.jobs.register<TranscribeInput, VoiceCheckpoint, TranscribeResult>({
    name: 'voice/transcribe',
    resultTtlMs: VOICE_RESULT_TTL_MS,
    // Its result is in the job's row: the audio goes once the job ended.
    keepFiles: [],
    run: (job) =>
      attempt(context, job, log, async (file) => ({
        product: 'speech_to_text',
        ...(await transcribeJob(context, job, await decodeFile(file), log, (pcm, words) =>
          recognizeJob(job, pcm, chunkSeconds, words),
        )),
      })),
  });
  context.jobs.register<TranslateInput, VoiceCheckpoint, StoredResult[]>({
    name: 'voice/translate',
    resultTtlMs: VOICE_RESULT_TTL_MS,
    async run(job) {
      try {
        return await attempt(context, job, log, async (file) => {
          const translated = await translateAudio(context, job, file, log, {
            save: (index, bytes) => job.writeFile(`result-${index}`, bytes),
            recognize: (pcm) => recognizeJob(job, pcm, chunkSeconds),
          });
          return { ...translated, result: translated.results };
        });
      } catch (failure) {
        if (!(failure instanceof JobFailed)) throw failure;
        return job.input.targets.map(() => ({ status: 'failed' as const, error: failure.message }));
      }
    },
  });
}

/**
 * An attempt of either kind: `work` on the job's audio (its job file `audio`) as a file for ffmpeg, written
 * for this attempt (`<data dir>/voice-jobs/<id>.attempt-<n>`) and removed after (a killed attempt's file: at
 * the next start); then the minutes of its `seconds` of audio charged (applied with the completion, on the
 * day it finished). A throw is `failureOf`'s.
 */
async function attempt<T>(
  context: ServiceContext,
  job: RunningJob<{ keyId: string; customTag: string }, unknown>,
  log: JobLog,
  work: (file: string) => Promise<{ result: T; product: Translated['product']; seconds: number }>,
): Promise<T> {
  const file = join(audioDir(context), `${encodeURIComponent(job.id)}.attempt-${job.attempt}`);
  try {
    const bytes = await job.file('audio');
    if (!bytes) throw new JobFailed('The audio of this job is gone.');
    mkdirSync(audioDir(context), { recursive: true, mode: 0o700 });
    writeFileSync(file, bytes, { mode: 0o600 });
    const { result, product, seconds } = await work(file).finally(() => rmSync(file, { force: true }));
    const { keyId, customTag } = job.input;
    const day = utcDay(new Date());
    job.charge('minutes', { accountId: job.accountId, keyId, product, units: seconds / 60, customTag, day });
    crashPoints.beforeFinish?.(job.id);
    return result;
  } catch (error) {
    throw failureOf(error, job.signal, log, job.id);
  }
}

/**
 * Test hooks, unset outside tests: a crash test kills the process there. `beforeFinish`: an attempt has done
 * all its work (results written), right before the runner completes the job with its minutes.
 */
export const crashPoints: {
  beforeFinish?: (jobId: string) => void;
  /** After chunk number `chunks` (from 1, counted over every attempt) of job `jobId` is checkpointed. */
  afterChunk?: (jobId: string, chunks: number) => void;
} = {};

/**
 * Every utterance of a job's audio (`pcm`), recognized in chunks from where its last attempt stopped, a
 * checkpoint saved after each chunk (chunks.ts). `words`: spoken terms' pronunciations.
 */
function recognizeJob(
  job: RunningJob<unknown, VoiceCheckpoint>,
  pcm: Buffer,
  chunkSeconds: number,
  words?: readonly (readonly [string, string])[],
): Promise<JobUtterance[]> {
  return recognizeInChunks({
    pcm,
    chunkSeconds,
    from: job.checkpoint,
    ...(words ? { words } : {}),
    signal: job.signal,
    async saved(checkpoint) {
      await job.save(checkpoint);
      crashPoints.afterChunk?.(job.id, checkpoint.chunks);
    },
  });
}

/**
 * The failure of a job whose attempt threw: the instance closing or the job superseded go on (the runner
 * queues the job again, or drops the attempt); the audio, the account or a glossary gone since fail it at
 * once with their message; anything else is logged and fails it as 'Transcription failed.'.
 */
function failureOf(error: unknown, signal: AbortSignal, log: JobLog, id: string): unknown {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof JobSuperseded || error instanceof RunnerClosing) return error;
  const known =
    error instanceof ServiceError || (error instanceof Error && /^The (audio|account)/.test(error.message));
  if (!known) log.error({ err: error, job: id }, 'voice job failed');
  return new JobFailed(known ? (error as Error).message : 'Transcription failed.');
}
