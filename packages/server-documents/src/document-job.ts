/**
 * The document job on the server's job runner (kind `documents/translate`): the job is the document. Its id
 * is the document's, its input the document's facts (records.ts), its files the upload (`upload`, stored with
 * the job at submit), the chunks translated so far (`chunk-<n>`: a resumed attempt translates only the chunks
 * not kept, so a document killed at 80 % resumes at 80 %) and the result (`result`, handed out once by the
 * download). A checkpoint after each chunk holds its progress and the attempt's measured throughput
 * (`seconds_remaining`), and at the end the segments every engine failed (`kept`: `glossa_kept_source`).
 */
import {
  type Caller,
  currentBillingPeriod,
  JobFailed,
  JobSuperseded,
  type RunningJob,
  type ServiceContext,
  type UsageCharge,
  usageOperationId,
} from '@glossa/server/feature';
import type { DocumentFormats } from './formats/index.js';
import type { ChunkKept } from './kept-segments.js';
import type { ResolvedDocumentOptions } from './options.js';
import type { DocumentCheckpoint, DocumentJobInfo, DocumentJobInput } from './records.js';
import type { ChunkCheckpoints } from './translate.js';
import { failureOf, translateDocument } from './translate-document.js';

export const DOCUMENT_JOB_KIND = 'documents/translate';

/** A document's job files: the upload (stored with the job), and the result. */
export const UPLOAD_FILE = 'upload';
export const RESULT_FILE = 'result';
const chunkFile = (index: number) => `chunk-${index}`;

/**
 * Test hooks, unset outside tests: right after a job reserved the characters it read, before its checkpoint
 * records them (`afterReserve`), right after a failed document's checkpoint saved its failure, before the
 * runner fails the job and refunds it (`afterFail`), and right after a chunk's checkpoint with the share
 * of the text done (`afterChunk`). A crash test kills the process in them.
 */
export const crashPoints: {
  afterReserve?: (documentId: string) => void;
  afterFail?: (documentId: string) => void;
  afterChunk?: (documentId: string, done: number) => void;
} = {};

/**
 * The documents part of a started server (routes find the kind's queue on the context's runner): its queue,
 * the formats (with the server's `xml`/`dita` attribute lists), and how many documents one instance
 * translates at a time.
 */
export const documentServiceOf =
  (formats: DocumentFormats, settings: Pick<ResolvedDocumentOptions, 'concurrency'>) =>
  (context: ServiceContext) => ({
    formats,
    jobs: context.jobs.queue<DocumentJobInput, DocumentCheckpoint, null>(DOCUMENT_JOB_KIND),
    concurrency: settings.concurrency,
  });
export type DocumentService = ReturnType<ReturnType<typeof documentServiceOf>>;

type DocumentJob = RunningJob<DocumentJobInput, DocumentCheckpoint>;

/** The refund of a failed document: what the upload reserved, and what the job reserved. */
function refundOf(job: DocumentJobInfo): UsageCharge[] {
  const base = {
    accountId: job.accountId,
    keyId: job.input.keyId,
    product: 'translate' as const,
    customTag: '',
  };
  const charges: UsageCharge[] = [];
  if (job.input.billed > 0)
    charges.push({ step: 'refund', record: { ...base, units: -job.input.billed, day: job.input.day } });
  const reserved = job.checkpoint?.reserved;
  if (reserved && reserved.units > 0)
    charges.push({ step: 'refund-reserved', record: { ...base, units: -reserved.units, day: reserved.day } });
  return charges;
}

/**
 * The chunks of a job as job files, `chunk-0`, `chunk-1`, … in the order they were translated (each its
 * digest, outputs, and what it kept in the source language): an attempt reads them up to the first missing
 * one (`load`), and numbers its own after them. A chunk written by an attempt stopped before its checkpoint
 * is kept all the same.
 */
export function chunkFiles(job: Pick<DocumentJob, 'file' | 'writeFile'>): ChunkCheckpoints & {
  /**
   * Empties the upload and the chunks, once the document is translated or failed (before the runner's
   * change: no byte of them is left when it says so; `keepFiles` deletes the files after it).
   */
  empty(): Promise<void>;
} {
  let read: Promise<{ digest: string; outputs: string[]; kept?: ChunkKept }[]> | undefined;
  let count = 0;
  const load = () => {
    read ??= (async () => {
      const chunks = [];
      for (;;) {
        const bytes = await job.file(chunkFile(chunks.length));
        if (!bytes?.length) break;
        chunks.push(JSON.parse(Buffer.from(bytes).toString('utf8')));
      }
      count = chunks.length;
      return chunks;
    })();
    return read;
  };
  return {
    load: async () => new Map((await load()).map((chunk) => [chunk.digest, chunk.outputs])),
    async loadKept() {
      const kept = new Map<string, ChunkKept>();
      for (const chunk of await load()) if (chunk.kept) kept.set(chunk.digest, chunk.kept);
      return kept;
    },
    async save(digest, outputs, kept) {
      await load();
      const chunk = kept ? { digest, outputs, kept } : { digest, outputs };
      await job.writeFile(chunkFile(count), Buffer.from(JSON.stringify(chunk)));
      count++;
    },
    async empty() {
      await load();
      const none = new Uint8Array(0);
      for (let index = 0; index < count; index++) await job.writeFile(chunkFile(index), none);
      await job.writeFile(UPLOAD_FILE, none);
    },
  };
}

/**
 * Registers the documents' kind on the server's runner (`concurrency` at a time per instance, a finished
 * document kept `expirySeconds`: its result's expiry) and adds its gauges to the server's metrics.
 */
export function registerDocumentJobs(
  context: ServiceContext,
  formats: DocumentFormats,
  settings: Pick<ResolvedDocumentOptions, 'concurrency' | 'expirySeconds'>,
  logError: (error: unknown, documentId: string) => void,
): void {
  /**
   * Reserves `units` characters of the job's account for this billing period (a format read by the job);
   * whether they fit (no `caller`: no quota, a reservation made again to be refunded at once). Once per
   * document (the operation `jobs/<id>/reservation`, committed at once, pruned by the runner with its job's):
   * a job run again after a crash that came before its checkpoint recorded the reservation finds it made, and
   * is not billed twice; nor is an attempt that lost the document to another, whichever reserves first.
   */
  const reserveCharacters = (job: DocumentJob, caller: Caller | undefined, units: number, day: string) => {
    const period = currentBillingPeriod();
    return context.storage.reserveCharacters({
      accountId: job.accountId,
      keyId: job.input.keyId,
      product: 'translate',
      customTag: '',
      units,
      day,
      periodFrom: period.fromDay,
      periodTo: period.toDay,
      limit: caller === undefined ? Number.MAX_SAFE_INTEGER : caller.account.characterLimit,
      operationId: usageOperationId(job.id, 'reservation'),
    });
  };

  /**
   * Before a job fails for good: when an attempt said it would reserve characters (`reserving`) and no
   * checkpoint says it did (`reserved`: a kill came between the two, and no later attempt reserved again),
   * the reservation is made now if it was not (the same operation: once, whoever made it; no quota, as it
   * is refunded at once) and recorded as `reserved`, so that the runner's refund, in the transaction that
   * fails the job, gives it back. Either way the characters are reserved once and refunded once.
   */
  async function settleReservation(job: DocumentJob, checkpoint: DocumentCheckpoint | undefined) {
    const reserving = checkpoint?.reserving;
    if (!checkpoint || !reserving || reserving.units <= 0 || checkpoint.reserved) return;
    await reserveCharacters(job, undefined, reserving.units, reserving.day);
    await job.save({ ...checkpoint, reserved: reserving, savedAt: new Date().toISOString() });
  }

  async function run(job: DocumentJob): Promise<null> {
    const { id, input } = job;
    if (input.failedWith !== undefined) throw new JobFailed(input.failedWith);
    const chunks = chunkFiles(job);
    // Failed (its failure saved), or translated (its result written), by an attempt killed before the
    // runner's change: settled (a failure refunded then, once).
    if (job.checkpoint?.failed !== undefined) {
      await settleReservation(job, job.checkpoint);
      throw new JobFailed(job.checkpoint.failed);
    }
    if (await job.file(RESULT_FILE)) return null;
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
    const bytes = await job.file(UPLOAD_FILE);
    if (!bytes?.length) throw new JobFailed('The uploaded document is missing.');
    let translated: Awaited<ReturnType<typeof translateDocument>>;
    try {
      translated = await translateDocument(job, bytes, context, formats, {
        async onProgress(done) {
          await save({ done });
          crashPoints.afterChunk?.(id, done);
        },
        checkpoint: () => job.signal.throwIfAborted(),
        chunks,
        async reserve(units: number, caller: Caller) {
          const day = currentBillingPeriod().today;
          await save({ reserving: { units, day } });
          if (!(await reserveCharacters(job, caller, units, day))) {
            // Refused (the quota is full): nothing reserved, nothing to settle.
            await save({ reserving: { units: 0, day } });
            return false;
          }
          crashPoints.afterReserve?.(id);
          await save({ reserved: { units, day } });
          return true;
        },
      });
    } catch (error) {
      // Stopped (the instance closing, the job taken over): not a failure; the job runs again.
      if (job.signal.aborted) throw job.signal.reason ?? error;
      if (error instanceof JobSuperseded) throw error;
      const failure = failureOf(error);
      if (failure.unexpected) logError(error, id);
      await save({ failed: failure.message });
      crashPoints.afterFail?.(id);
      await settleReservation(job, checkpoint);
      await chunks.empty();
      throw new JobFailed(failure.message);
    }
    // Before the result: an attempt that finds the result (a kill between the two) keeps this checkpoint.
    await save({ kept: translated.kept });
    await job.writeFile(RESULT_FILE, translated.result);
    await chunks.empty();
    return null;
  }
  context.jobs.register<DocumentJobInput, DocumentCheckpoint, null>({
    name: DOCUMENT_JOB_KIND,
    run,
    concurrency: settings.concurrency,
    // A document's own failure (its content, its engines: retried already) fails it at once (`JobFailed`);
    // anything else (its storage not answering) is tried again. A crash is not a failure.
    maxFailures: 3,
    resultTtlMs: settings.expirySeconds * 1000,
    // The upload and the chunks (emptied by the attempt) go once the document is translated or failed.
    keepFiles: [RESULT_FILE],
    refund: refundOf,
  });
  for (const [name, help, state] of [
    ['glossa_document_queue_depth', 'Documents waiting for translation (queued)', 'queued'],
    ['glossa_documents_translating', 'Documents being translated', 'running'],
  ] as const)
    context.metrics.gauge(name, `${help}, on every instance that shares the storage.`, () =>
      context.jobs.count([DOCUMENT_JOB_KIND], [state]),
    );
}

/**
 * Seconds until the document is probably done. Translating: the rest of its text at the throughput its
 * attempt measured (chunks done since the attempt started, over the time they took); before its first
 * chunk, the upload's estimate. Queued: the other documents queued, each at this one's estimate, shared by
 * the instance's workers (the runner keeps no sum of their estimates), plus its own.
 */
export async function secondsRemaining(
  job: Pick<DocumentJobInfo, 'status' | 'checkpoint' | 'input'>,
  queued: () => Promise<number>,
  concurrency: number,
  now = Date.now(),
): Promise<number> {
  const { estimateMs } = job.input;
  const checkpoint = job.checkpoint;
  if (job.status !== 'running')
    return Math.ceil(((Math.max(0, (await queued()) - 1) * estimateMs) / concurrency + estimateMs) / 1000);
  if (!checkpoint) return Math.ceil(estimateMs / 1000);
  const started = Date.parse(checkpoint.attemptStartedAt);
  const saved = Date.parse(checkpoint.savedAt);
  const progressed = checkpoint.done - checkpoint.attemptDone;
  if (progressed > 0 && saved > started) {
    const msPerShare = (saved - started) / progressed;
    return Math.max(0, Math.ceil(((1 - checkpoint.done) * msPerShare - (now - saved)) / 1000));
  }
  return Math.max(0, Math.ceil((estimateMs * (1 - checkpoint.done) - (now - started)) / 1000));
}
