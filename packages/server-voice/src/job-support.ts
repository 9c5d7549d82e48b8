/**
 * What the two voice job kinds (`voice/transcribe`: jobs.ts, `voice/translate`: translate-jobs.ts) share on
 * the server's job runner (`context.jobs`): the audio an attempt decodes, the minutes it charges, the
 * failure it reports, and the files a deleted job leaves.
 *
 * The runner owns the rest: claim, a lease per instance, takeover of a dead instance's jobs (on SQLite, a
 * job found running at the start runs again), expiry, and the minutes: `job.charge('minutes', …)` is applied
 * once per job, in the transaction that completes it (`jobs/<id>/minutes`), so no kill can separate a
 * finished job from its minutes, and an attempt that redoes the job is not billed again.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobQueue, RunningJob, ServiceContext } from '@glossa/server/feature';
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
import { jobDir } from './rows.js';
import { voiceDatabase } from './spoken-terms.js';

export type JobLog = Pick<FastifyBaseLogger, 'error' | 'warn'>;
type UsageRecord = Parameters<ServiceContext['storage']['applyUsageOnce']>[1];

/** How long a finished voice job's status and result stay readable (then `expired`, later deleted). */
export const VOICE_RESULT_TTL_MS = 24 * 60 * 60_000;

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
export function recognizeJob(
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
export function minutesOf(
  job: { account_id: string; key_id: string; custom_tag: string },
  product: 'speech_to_text' | 'speech_to_speech',
  seconds: number,
): UsageRecord {
  return {
    accountId: job.account_id,
    keyId: job.key_id,
    product,
    units: seconds / 60,
    customTag: job.custom_tag,
    day: utcDay(new Date()),
  };
}

/**
 * Runs `work` on the audio of a job as a file for ffmpeg. Embedded: the upload's own file (`embedded`, under
 * `jobDir`). On a fleet: the record's bytes, written for this attempt (`<id>.attempt-<n>`) and removed after
 * (a killed attempt's file goes when the job is deleted: `forgetJobFiles`).
 */
export async function withAudio<T>(
  context: ServiceContext,
  table: 'voice_jobs' | 'voice_translate_jobs',
  job: RunningJob<{ id: string }, VoiceCheckpoint>,
  embedded: string,
  work: (file: string) => Promise<T>,
): Promise<T> {
  const fleet = fleetVoice(context);
  if (!fleet) return work(join(jobDir(context), embedded));
  const bytes = await (await fleet.store()).audio(table, job.id);
  if (!bytes) throw new JobFailed('The audio of this job is gone.');
  const file = join(jobDir(context), `${job.id}.attempt-${job.attempt}`);
  mkdirSync(jobDir(context), { recursive: true, mode: 0o700 });
  writeFileSync(file, bytes, { mode: 0o600 });
  try {
    return await work(file);
  } finally {
    rmSync(file, { force: true });
  }
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
export async function forgetJob(context: ServiceContext, table: Table, id: string): Promise<void> {
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
export function failureOf(error: unknown, signal: AbortSignal, log: JobLog, id: string): unknown {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof JobSuperseded || error instanceof RunnerClosing) return error;
  const known =
    error instanceof ServiceError || (error instanceof Error && /^The (audio|account)/.test(error.message));
  if (!known) log.error({ err: error, job: id }, 'voice job failed');
  return new JobFailed(known ? (error as Error).message : 'Transcription failed.');
}

type Table = 'voice_jobs' | 'voice_translate_jobs';

/**
 * Queues job `id` (its record written) on the runner, under its own id (submitting again is a no-op), then
 * marks its record handed over. An account with too many jobs waiting gets 429.
 */
export async function submitJob(
  context: ServiceContext,
  table: Table,
  queue: JobQueue<{ id: string }, VoiceCheckpoint, unknown>,
  accountId: string,
  id: string,
): Promise<void> {
  try {
    await queue.submit(accountId, { id }, { id });
  } catch (error) {
    if (error instanceof JobLimitExceeded)
      throw new ServiceError(429, `Too many voice jobs: ${error.message}.`);
    throw error;
  }
  const fleet = fleetVoice(context);
  if (fleet) await (await fleet.store()).handedOver(table, id);
  else voiceDatabase(context).prepare(`UPDATE ${table} SET status = 'done' WHERE id = ?`).run(id);
}

/**
 * At a server's start: the records not handed to the runner (a process killed between a record and its
 * submit; jobs left by the queues before the runner) submitted; how many.
 */
export async function handOverLeft(
  context: ServiceContext,
  table: Table,
  waiting: string,
  queue: JobQueue<{ id: string }, VoiceCheckpoint, unknown>,
): Promise<number> {
  const fleet = fleetVoice(context);
  const rows = fleet
    ? await (await fleet.store()).notHandedOver(table, waiting)
    : (voiceDatabase(context)
        .prepare(
          `SELECT id, account_id FROM ${table} WHERE status IN (?, 'processing') ORDER BY created_at, id`,
        )
        .all(waiting) as { id: string; account_id: string }[]);
  for (const row of rows) await submitJob(context, table, queue, row.account_id, row.id);
  return rows.length;
}
