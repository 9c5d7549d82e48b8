/**
 * The document job on the server's job runner (`context.jobs`, kind `documents/translate`, the job's id is the
 * document's): the runner claims it fairly between accounts, runs it on one instance at a time, takes it
 * over from a dead instance (PostgreSQL) or after a restart (SQLite), and applies the refund of a failed
 * document once, in the transaction that fails the job. This file holds only what is the documents': read
 * the upload, translate chunk by chunk (each chunk's outputs kept by the store: a resumed attempt translates
 * only the chunks not kept, so a document killed at 80 % resumes at 80 %), save a checkpoint after each chunk
 * (its progress and the attempt's measured throughput: `seconds_remaining`), save the segments every engine
 * failed (`kept`: the status's `glossa_kept_source`), write the result.
 *
 * The document's row (the store) follows the job: `translating` when an attempt starts, `done` with its result,
 * `error` with its message; each written before the runner's own change, so that a crash between the two
 * leaves a row ahead of its job, and the next attempt finds it settled: `done` completes the job, `error`
 * fails it (refund then, once).
 */
import type { DocumentKeptSource } from '@glossa/protocol';
import {
  type Caller,
  currentBillingPeriod,
  JobFailed,
  type JobInfo,
  type JobKind,
  type JobQueue,
  type JobRunner,
  JobSuperseded,
  type RunningJob,
  type ServiceContext,
  type UsageCharge,
} from '@glossa/server/feature';
import type { DocumentFormats } from './formats/index.js';
import { reserveCharacters } from './job.js';
import type { DocumentRecord } from './records.js';
import type { DocumentJobStore } from './store.js';
import { failureOf, translateDocument } from './translate-document.js';

export const DOCUMENT_JOB_KIND = 'documents/translate';

/** What a job is given at upload: the document, and what the upload reserved (refunded if it fails). */
export interface DocumentJobInput {
  readonly documentId: string;
  readonly keyId: string;
  readonly billed: number;
  readonly day: string;
}

/** Saved after each chunk (and after a reservation): where the job is, and how fast this attempt goes. */
export interface DocumentCheckpoint {
  /**
   * Characters the job is about to reserve (a format read by the job), on `day`: saved before the
   * reservation, so that a job killed between the reservation and `reserved`, that fails for good before
   * it reserves again, still knows what to refund (`settleReservation`).
   */
  readonly reserving?: { readonly units: number; readonly day: string };
  /** Characters the job itself reserved (a format read by the job), on `day`: refunded if it fails. */
  readonly reserved?: { readonly units: number; readonly day: string };
  /** Share of the text translated (0..1), chunks kept by an earlier attempt included. */
  readonly done: number;
  /** `done` when this attempt started, and when: the attempt's throughput is measured from there. */
  readonly attemptDone: number;
  readonly attemptStartedAt: string;
  readonly savedAt: string;
  /**
   * The segments every engine failed (kept in the source language), saved once the document is translated,
   * before its row is marked done: the status reports them (`glossa_kept_source`).
   */
  readonly kept?: DocumentKeptSource;
}

export interface DocumentJobOptions {
  readonly formats: DocumentFormats;
  /** Documents one instance translates at a time. */
  readonly concurrency: number;
  /** How long a finished job stays (the document's own expiry), in ms. */
  readonly resultTtlMs: number;
  readonly logError?: ((error: unknown, documentId: string) => void) | undefined;
}

/**
 * Test hooks, unset outside tests: right after a job reserved the characters it read, before its checkpoint
 * records them (`afterReserve`), and right after a failed document's row was marked failed, before the
 * runner fails the job and refunds it (`afterFail`), and right after a chunk's checkpoint with the share
 * of the text done (`afterChunk`). A crash test kills the process in them.
 */
export const crashPoints: {
  afterReserve?: (documentId: string) => void;
  afterFail?: (documentId: string) => void;
  afterChunk?: (documentId: string, done: number) => void;
} = {};

export type DocumentJobs = JobQueue<DocumentJobInput, DocumentCheckpoint, null>;

/** The refund of a failed document: what the upload reserved, and what the job reserved. */
function refundOf(job: JobInfo<DocumentJobInput, DocumentCheckpoint, null>): UsageCharge[] {
  const base = {
    accountId: job.accountId,
    keyId: job.input.keyId,
    product: 'translate',
    customTag: '',
  } as const;
  const charges: UsageCharge[] = [];
  if (job.input.billed > 0)
    charges.push({ step: 'refund', record: { ...base, units: -job.input.billed, day: job.input.day } });
  const reserved = job.checkpoint?.reserved;
  if (reserved && reserved.units > 0)
    charges.push({ step: 'refund-reserved', record: { ...base, units: -reserved.units, day: reserved.day } });
  return charges;
}

/** Registers the documents' kind on the server's runner; its queue. */
export function registerDocumentJobs(
  runner: JobRunner,
  context: ServiceContext,
  store: () => Promise<DocumentJobStore>,
  options: DocumentJobOptions,
): DocumentJobs {
  /**
   * Before a job fails for good: when an attempt said it would reserve characters (`reserving`) and no
   * checkpoint says it did (`reserved`: a kill came between the two, and no later attempt reserved again),
   * the reservation is made now if it was not (the same operation: once, whoever made it; no quota, as it
   * is refunded at once) and recorded as `reserved`, so that the runner's refund, in the transaction that
   * fails the job, gives it back. Either way the characters are reserved once and refunded once.
   */
  async function settleReservation(
    job: RunningJob<DocumentJobInput, DocumentCheckpoint>,
    document: DocumentRecord,
    checkpoint: DocumentCheckpoint | undefined,
  ): Promise<void> {
    const reserving = checkpoint?.reserving;
    if (!checkpoint || !reserving || reserving.units <= 0 || checkpoint.reserved) return;
    await reserveCharacters(context, document, undefined, reserving.units, {
      ...currentBillingPeriod(),
      today: reserving.day,
    });
    await job.save({ ...checkpoint, reserved: reserving, savedAt: new Date().toISOString() });
  }

  async function run(job: RunningJob<DocumentJobInput, DocumentCheckpoint>): Promise<null> {
    const documents = await store();
    const id = job.input.documentId;
    const found = await documents.get(id);
    // Gone (expired unread) or finished by an attempt that crashed before the runner knew it.
    if (!found || found.status === 'done') return null;
    if (found.status === 'error') {
      await settleReservation(job, found, job.checkpoint);
      throw new JobFailed(found.errorMessage ?? 'Translation failed.');
    }
    if (!(await documents.start(id, job.attempt))) return null;
    // The upload's reservation may still wait in the spine's SQLite (written behind): committed before a
    // failure can refund it.
    await context.storage.commitUsage();
    let checkpoint: DocumentCheckpoint = {
      ...(job.checkpoint?.reserving ? { reserving: job.checkpoint.reserving } : {}),
      ...(job.checkpoint?.reserved ? { reserved: job.checkpoint.reserved } : {}),
      done: job.checkpoint?.done ?? 0,
      attemptDone: job.checkpoint?.done ?? 0,
      attemptStartedAt: new Date().toISOString(),
      savedAt: new Date().toISOString(),
    };
    const save = async (next: Partial<DocumentCheckpoint>) => {
      checkpoint = { ...checkpoint, ...next, savedAt: new Date().toISOString() };
      await job.save(checkpoint);
    };
    const document: DocumentRecord = checkpoint.reserved
      ? { ...found, billedCharacters: checkpoint.reserved.units, usageDay: checkpoint.reserved.day }
      : found;
    const bytes = await documents.upload(id);
    if (!bytes) {
      await documents.fail(id, job.attempt, 'The uploaded document is missing.');
      throw new JobFailed('The uploaded document is missing.');
    }
    let translated: Awaited<ReturnType<typeof translateDocument>>;
    try {
      translated = await translateDocument(document, bytes, context, options.formats, {
        async onProgress(done) {
          await save({ done });
          crashPoints.afterChunk?.(id, done);
        },
        checkpoint: () => job.signal.throwIfAborted(),
        chunks: documents.chunks(id, job.attempt),
        async reserve(units: number, caller: Caller) {
          const period = currentBillingPeriod();
          await save({ reserving: { units, day: period.today } });
          const day = await reserveCharacters(context, document, caller, units, period);
          if (day === undefined) {
            // Refused (the quota is full): nothing reserved, nothing to settle.
            await save({ reserving: { units: 0, day: period.today } });
            return false;
          }
          crashPoints.afterReserve?.(id);
          await save({ reserved: { units, day } });
          await documents.setBilled(id, job.attempt, units, day);
          return true;
        },
      });
    } catch (error) {
      // Stopped (the instance closing, the job taken over): not a failure; the job runs again.
      if (job.signal.aborted) throw job.signal.reason ?? error;
      if (error instanceof JobSuperseded) throw error;
      const failure = failureOf(error);
      if (failure.unexpected) options.logError?.(error, id);
      await documents.fail(id, job.attempt, failure.message);
      crashPoints.afterFail?.(id);
      await settleReservation(job, found, checkpoint);
      throw new JobFailed(failure.message);
    }
    // Before the row is done: an attempt that finds it done (a crash between the two) keeps this checkpoint.
    await save({ kept: translated.kept });
    await documents.finish(id, job.attempt, translated.result);
    return null;
  }
  const kind: JobKind<DocumentJobInput, DocumentCheckpoint, null> = {
    name: DOCUMENT_JOB_KIND,
    run,
    concurrency: options.concurrency,
    // A document's own failure (its content, its engines: retried already) fails it at once (`JobFailed`);
    // anything else (its database not answering) is tried again. A crash is not a failure.
    maxFailures: 3,
    resultTtlMs: options.resultTtlMs,
    refund: refundOf,
  };
  return runner.register(kind);
}

/**
 * Seconds until the document is probably done. Translating: the rest of its text at the throughput its
 * attempt measured (chunks done since the attempt started, over the time they took); before its first
 * chunk, the upload's estimate. Queued: the estimated work queued ahead of it, shared by the instance's
 * workers, plus its own.
 */
export async function secondsRemaining(
  document: DocumentRecord,
  jobs: DocumentJobs,
  queuedAheadMs: () => Promise<number>,
  concurrency: number,
  now = Date.now(),
): Promise<number> {
  const job = await jobs.status(document.id);
  if (job?.status === 'running' || (job === undefined && document.status === 'translating')) {
    const checkpoint = job?.checkpoint;
    if (checkpoint) {
      const started = Date.parse(checkpoint.attemptStartedAt);
      const saved = Date.parse(checkpoint.savedAt);
      const progressed = checkpoint.done - checkpoint.attemptDone;
      if (progressed > 0 && saved > started) {
        const msPerShare = (saved - started) / progressed;
        return Math.max(0, Math.ceil(((1 - checkpoint.done) * msPerShare - (now - saved)) / 1000));
      }
      return Math.max(0, Math.ceil((document.estimateMs * (1 - checkpoint.done) - (now - started)) / 1000));
    }
    return Math.ceil(document.estimateMs / 1000);
  }
  return Math.ceil(((await queuedAheadMs()) / concurrency + document.estimateMs) / 1000);
}
