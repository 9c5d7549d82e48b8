/**
 * The two voice job kinds on the server's job runner (`context.jobs`), and all the job plumbing voice has:
 * `voice/transcribe` (`/v3/voice/jobs`, routes in job-routes.ts, work in transcribe.ts) and
 * `voice/translate` (`/v1/jobs/voice/translate`, routes in translate-routes.ts, work in
 * translate-audio.ts). A job is a record (records.ts: its request and audio) and a runner job under the same
 * id; what the runner says of the job (queued, running, completed, failed, expired) is mapped here to each
 * interface's status.
 *
 * The runner owns the rest: claim, a lease per instance, takeover of a dead instance's jobs (on SQLite, a
 * job found running at the start runs again), retries, expiry, checkpoints (a job resumes after its last
 * recognized chunk, chunks.ts) and the minutes: `job.charge('minutes', …)` is applied once per job, in the
 * transaction that completes it (`jobs/<id>/minutes`), so no kill can separate a finished job from its
 * minutes, and an attempt that redoes the job is not billed again. What is left here: the submit under the
 * record's id (on a fleet in the record's transaction; embedded after it, and a record whose submit a crash
 * lost is submitted at the next start, `handOverLeft`), the failure an attempt reports, and a deleted job's
 * record and files (`forget`).
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { JobQueue, JobTransaction, RunningJob, ServiceContext } from '@glossa/server/feature';
import {
  JobFailed,
  JobLimitExceeded,
  JobSuperseded,
  RunnerClosing,
  ServiceError,
  utcDay,
} from '@glossa/server/feature';
import type { FastifyBaseLogger } from 'fastify';
import { type JobUtterance, recognizeInChunks, type VoiceCheckpoint } from './chunks.js';
import { fleetVoice } from './fleet-store.js';
import { decodeFile } from './media.js';
import {
  findJob,
  findTranslate,
  saveResult,
  transcribeInputOf,
  translateInputOf,
  withAudio,
} from './records.js';
import { type JobRow, jobDir, type TranscribeInput, type TranslateInput, type TranslateRow } from './rows.js';
import { voiceDatabase } from './spoken-terms.js';
import { type TranscribeResult, transcribeJob } from './transcribe.js';
import { type StoredResult, translateAudio } from './translate-audio.js';

export type JobLog = Pick<FastifyBaseLogger, 'error' | 'warn'>;
type UsageRecord = Parameters<ServiceContext['storage']['applyUsageOnce']>[1];
type Table = 'voice_jobs' | 'voice_translate_jobs';
/** A job submitted by a version before the request's facts were its input: its record has them. */
type Legacy = { readonly id: string };
type TranscribeQueue = JobQueue<TranscribeInput | Legacy, VoiceCheckpoint, TranscribeResult>;
type TranslateQueue = JobQueue<TranslateInput | Legacy, VoiceCheckpoint, StoredResult[]>;

/** How long a finished voice job's status and result stay readable (then `expired`, later deleted). */
export const VOICE_RESULT_TTL_MS = 24 * 60 * 60_000;

const queues = new WeakMap<ServiceContext, { transcribe: TranscribeQueue; translate: TranslateQueue }>();

/** The queues of both kinds (their jobs' status: the routes). */
export function voiceQueues(context: ServiceContext) {
  const found = queues.get(context);
  if (!found) throw new ServiceError(503, 'Voice jobs are not started on this server.');
  return found;
}

/**
 * Registers both kinds: an attempt decodes the job's audio, transcribes it in chunks of `chunkSeconds` (a
 * checkpoint after each), does the job's work and charges its minutes, applied with the completion. A
 * translation job whose audio or account is unusable completes with every target failed, and no minutes.
 * A deleted job (a while after it expired) takes its record and files with it.
 */
export function registerVoiceJobs(context: ServiceContext, log: JobLog, chunkSeconds: number): void {
  const transcribe = context.jobs.register<TranscribeInput | Legacy, VoiceCheckpoint, TranscribeResult>({
    name: 'voice/transcribe',
    resultTtlMs: VOICE_RESULT_TTL_MS,
    async run(job) {
      try {
        let input = job.input;
        if ('id' in input) {
          const row = await findJob(context, job.id);
          if (!row) throw new JobFailed('The job is gone.');
          input = transcribeInputOf(row);
        }
        const facts = { accountId: job.accountId, input };
        const { result, seconds } = await withAudio(
          context,
          'voice_jobs',
          job.id,
          job.attempt,
          job.id,
          async (file) =>
            transcribeJob(context, facts, await decodeFile(file), log, (pcm, words) =>
              recognizeJob(job, pcm, chunkSeconds, words),
            ),
        );
        job.charge('minutes', minutesOf(facts, 'speech_to_text', seconds));
        crashPoints.beforeFinish?.(job.id);
        return result;
      } catch (error) {
        throw failureOf(error, job.signal, log, job.id);
      }
    },
    forget: (job) => forgetJob(context, 'voice_jobs', job.id),
  });
  const translate = context.jobs.register<TranslateInput | Legacy, VoiceCheckpoint, StoredResult[]>({
    name: 'voice/translate',
    resultTtlMs: VOICE_RESULT_TTL_MS,
    async run(job) {
      let input = job.input;
      if ('id' in input) {
        const row = await findTranslate(context, job.id);
        if (!row) throw new JobFailed('The job is gone.');
        input = translateInputOf(row);
      }
      const facts = { id: job.id, accountId: job.accountId, input };
      try {
        const translated = await withAudio(
          context,
          'voice_translate_jobs',
          job.id,
          job.attempt,
          `${job.id}.source`,
          (file) =>
            translateAudio(context, facts, file, log, {
              save: (index, bytes) => saveResult(context, job.id, index, bytes),
              recognize: (pcm) => recognizeJob(job, pcm, chunkSeconds),
            }),
        );
        job.charge('minutes', minutesOf(facts, translated.product, translated.seconds));
        crashPoints.beforeFinish?.(job.id);
        return translated.results;
      } catch (error) {
        const failure = failureOf(error, job.signal, log, job.id);
        if (!(failure instanceof JobFailed)) throw failure;
        return facts.input.targets.map(() => ({
          status: 'failed' as const,
          error: failure.message,
        }));
      }
    },
    forget: (job) => forgetJob(context, 'voice_translate_jobs', job.id),
  });
  queues.set(context, { transcribe, translate });
  const left = (table: Table) => (error: unknown) =>
    log.error({ err: error, table }, 'voice jobs left by a stopped server could not be queued');
  handOverLeft(context, 'voice_jobs', 'queued', transcribe, transcribeInputOf).catch(left('voice_jobs'));
  handOverLeft(context, 'voice_translate_jobs', 'uploaded', translate, translateInputOf).catch(
    left('voice_translate_jobs'),
  );
}

/**
 * Queues a job whose record (and audio) is written, its request's facts as the job's input; 429 when the
 * account has too many waiting. With a `transaction` (a fleet: the record's, which writes it handed over),
 * the caller wakes the queue after it.
 */
export const submitVoiceJob = (
  context: ServiceContext,
  job: { kind: 'transcribe'; row: JobRow } | { kind: 'translate'; row: TranslateRow },
  transaction?: JobTransaction,
) =>
  job.kind === 'transcribe'
    ? submitJob(
        context,
        'voice_jobs',
        voiceQueues(context).transcribe,
        job.row,
        transcribeInputOf(job.row),
        transaction,
      )
    : submitJob(
        context,
        'voice_translate_jobs',
        voiceQueues(context).translate,
        job.row,
        translateInputOf(job.row),
        transaction,
      );

/**
 * Test hook, unset outside tests: called when an attempt has done all its work (results written) and is
 * about to return, i.e. right before the runner completes the job with its minutes. A crash test kills
 * the process there to prove that the job then finishes once, as it would have, billed once.
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

/** The minutes of a job of `seconds` of audio, finished today. */
function minutesOf(
  job: { accountId: string; input: { keyId: string; customTag: string } },
  product: 'speech_to_text' | 'speech_to_speech',
  seconds: number,
): UsageRecord {
  return {
    accountId: job.accountId,
    keyId: job.input.keyId,
    product,
    units: seconds / 60,
    customTag: job.input.customTag,
    day: utcDay(new Date()),
  };
}

/** Every file of job `id` in the job directory (its audio, results, an attempt's audio) removed. */
function forgetJobFiles(context: ServiceContext, id: string): void {
  let names: string[];
  try {
    names = readdirSync(jobDir(context));
  } catch {
    return;
  }
  for (const name of names)
    if (name === id || name.startsWith(`${id}.`)) rmSync(join(jobDir(context), name), { force: true });
}

/** A deleted job's record in `table` and its files removed (the runner's `forget`, for both kinds). */
async function forgetJob(context: ServiceContext, table: Table, id: string): Promise<void> {
  forgetJobFiles(context, id);
  const fleet = fleetVoice(context);
  if (fleet) await (await fleet.store()).forget(table, id);
  else voiceDatabase(context).prepare(`DELETE FROM ${table} WHERE id = ?`).run(id);
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

/**
 * Queues job `row.id` (its record written) on the runner, under its own id (submitting again is a no-op);
 * outside a `transaction`, then marks its record handed over. An account with too many jobs waiting gets 429.
 */
async function submitJob<Input>(
  context: ServiceContext,
  table: Table,
  queue: JobQueue<Input, VoiceCheckpoint, unknown>,
  { id, account_id }: { id: string; account_id: string },
  input: Input,
  transaction?: JobTransaction,
): Promise<void> {
  try {
    await queue.submit(account_id, input, { id, transaction });
  } catch (error) {
    if (error instanceof JobLimitExceeded)
      throw new ServiceError(429, `Too many voice jobs: ${error.message}.`);
    throw error;
  }
  if (!transaction) await handedOver(context, table, id);
}

async function handedOver(context: ServiceContext, table: Table, id: string): Promise<void> {
  const fleet = fleetVoice(context);
  if (fleet) await (await fleet.store()).handedOver(table, id);
  else voiceDatabase(context).prepare(`UPDATE ${table} SET status = 'done' WHERE id = ?`).run(id);
}

/**
 * At a server's start: the records not handed to the runner (embedded, or a version before this one on a
 * fleet: a process killed between a record and its submit; jobs left by the queues before the runner)
 * submitted; how many.
 */
async function handOverLeft<Row extends JobRow | TranslateRow, Input>(
  context: ServiceContext,
  table: Table,
  waiting: string,
  queue: JobQueue<Input, VoiceCheckpoint, unknown>,
  inputOf: (row: Row) => Input,
): Promise<number> {
  const fleet = fleetVoice(context);
  const rows = (
    fleet
      ? await (await fleet.store()).notHandedOver(table, waiting)
      : voiceDatabase(context)
          .prepare(`SELECT * FROM ${table} WHERE status IN (?, 'processing') ORDER BY created_at, id`)
          .all(waiting)
  ) as Row[];
  const queued = await queue.resubmit(
    rows.map((row) => ({ id: row.id, accountId: row.account_id, input: inputOf(row) })),
  );
  for (const id of queued) await handedOver(context, table, id);
  return queued.length;
}
