/**
 * One document job, whatever queue runs it (SQLite in one process, pg-boss on PostgreSQL for a fleet): read
 * the upload, detect its source when the job reads the text (OCR), reserve the characters such a format
 * reads, translate in chunks, rebuild. Billing of the upload is not done here: the upload reserved it.
 *
 * A failed job refunds the document's billed characters exactly once, even across a crash, in two steps:
 * 1. the error transition marks the row `refund_pending` (in the same statement), so the refund is owed
 *    durably from the moment the document is failed;
 * 2. the refund is applied with the spine's `applyUsageOnce`, keyed `documents/<id>/refund`, then the mark
 *    is cleared.
 * A crash between 1 and 2 leaves the mark: the queue's recovery (its start, and its periodic checks) applies
 * every owed refund again. One applied before the crash is not applied twice (the storage recorded its
 * operation id with it); one that was not is applied then. `crashPoints` lets a test kill the process
 * between the steps.
 */
import type { Caller, ServiceContext } from '@glossa/server/feature';
import {
  checkResources,
  currentBillingPeriod,
  EngineError,
  forgetUsageOperations,
  ServiceError,
} from '@glossa/server/feature';
import { detectSource } from './detect.js';
import { DocumentFormatError } from './formats/format.js';
import type { DocumentFormats } from './formats/index.js';
import type { DocumentRecord, OwedRefund } from './store.js';

export type { OwedRefund } from './store.js';

import {
  asTranslateRequest,
  billedOf,
  type ChunkCheckpoints,
  prepareTexts,
  type SourcedParameters,
  translateTexts,
} from './translate.js';

/**
 * Test hooks, unset outside tests: called right after a job reserved the characters it read (before the
 * row records them: `afterReserve`), right after a failed document's error transition was written
 * (`afterFail`) and right after its refund was applied (`afterRefund`). A crash test kills the process in
 * them to prove that the characters are billed, and refunded, once whatever the crash point.
 */
export const crashPoints: {
  afterReserve?: (documentId: string) => void;
  afterFail?: (documentId: string) => void;
  afterRefund?: (documentId: string) => void;
} = {};

/** Thrown at a checkpoint when the server closes: the job is left to be run again (here or elsewhere). */
export class Closing extends Error {}

export interface JobHooks {
  /** The share of the text translated so far (0..1). */
  onProgress(done: number): void;
  /** Throws `Closing` to stop between two steps. */
  checkpoint(): void;
  /**
   * Reserves the characters a format read by the job counted, and records them on the document so that
   * neither a retry reserves them again nor a failure forgets to refund them; false when the quota is full.
   */
  reserve(units: number, caller: Caller): Promise<boolean>;
  /** Chunks translated by an earlier attempt of this document, and where to keep this one's (a fleet). */
  readonly chunks?: ChunkCheckpoints;
}

async function callerOf(context: ServiceContext, document: DocumentRecord): Promise<Caller | undefined> {
  const account = await context.storage.getAccount(document.accountId);
  return account && { account, key: { id: document.keyId, accountId: document.accountId } };
}

/** Translates one document; its result's bytes. Throws what the job failed with. */
export async function translateDocument(
  document: DocumentRecord,
  bytes: Uint8Array,
  context: ServiceContext,
  formats: DocumentFormats,
  hooks: JobHooks,
): Promise<Uint8Array> {
  const format = formats[document.extension];
  const caller = await callerOf(context, document);
  if (!format || !caller) throw new DocumentFormatError('This document can no longer be translated.');
  const target = document.parameters.target_lang;
  const extract = (sourceLang: string | undefined) =>
    format.extract(bytes, {
      targetLang: target,
      ...(sourceLang !== undefined ? { sourceLang } : {}),
      outputFormat: document.outputExtension,
    });
  let extraction = await extract(document.parameters.source_lang);
  let parameters: SourcedParameters;
  if (document.parameters.source_lang === undefined) {
    // Read by the job (OCR): the source is detected from what was read, which is read again in it.
    const source = await detectSource(extraction, target, context);
    parameters = { ...document.parameters, source_lang: source };
    await checkResources(asTranslateRequest(parameters), source, target, caller, context);
    extraction = await extract(source);
  } else parameters = { ...document.parameters, source_lang: document.parameters.source_lang };
  const choice = context.engines.select(parameters.source_lang, target);
  if (!choice) throw new DocumentFormatError('This document can no longer be translated.');
  // A retried job finds the characters it reserved on the document (billed once).
  if (format.readInJob && document.billedCharacters === 0) {
    const units = billedOf(prepareTexts(extraction.texts));
    if (units > 0 && !(await hooks.reserve(units, caller)))
      throw new DocumentFormatError(
        'Quota exceeded: the character limit of this billing period has been reached.',
      );
  }
  hooks.checkpoint();
  const outputs = await translateTexts({
    texts: extraction.texts,
    parameters,
    caller,
    choice,
    context,
    onProgress: hooks.onProgress,
    checkpoint: hooks.checkpoint,
    ...(hooks.chunks ? { chunks: hooks.chunks } : {}),
  });
  const result = await extraction.rebuild(outputs);
  hooks.checkpoint();
  return result;
}

/**
 * Reserves `units` characters of the document's account for this billing period (a format read by the
 * job); the day, or undefined when the quota is full. Once per document (the operation
 * `documents/<id>/reservation`, committed at once): a job run again after a crash that came before the row
 * recorded the reservation finds it made, and is not billed twice; nor is an attempt that lost the
 * document to another (on a fleet), whichever of the two reserves first.
 */
export async function reserveCharacters(
  context: ServiceContext,
  document: DocumentRecord,
  caller: Caller,
  units: number,
): Promise<string | undefined> {
  const period = currentBillingPeriod();
  const reserved = await context.storage.reserveCharacters({
    accountId: document.accountId,
    keyId: document.keyId,
    product: 'translate',
    customTag: '',
    units,
    day: period.today,
    periodFrom: period.fromDay,
    periodTo: period.toDay,
    limit: caller.account.characterLimit,
    operationId: `documents/${document.id}/reservation`,
  });
  if (!reserved) return undefined;
  crashPoints.afterReserve?.(document.id);
  return period.today;
}

/**
 * Applies a failed document's refund, once whoever calls it and however often (the operation
 * `documents/<id>/refund`), then lets `settled` clear the row's mark.
 */
export async function settleRefund(
  context: ServiceContext,
  refund: OwedRefund,
  settled: (id: string) => void | Promise<void>,
): Promise<void> {
  if (refund.billed > 0)
    await context.storage.applyUsageOnce(`documents/${refund.id}/refund`, {
      accountId: refund.accountId,
      keyId: refund.keyId,
      product: 'translate',
      customTag: '',
      units: -refund.billed,
      day: refund.day,
    });
  crashPoints.afterRefund?.(refund.id);
  await settled(refund.id);
}

/**
 * Forgets the documents' usage operation ids (`documents/<id>/reservation`, `documents/<id>/refund`) that
 * nothing can apply again, from the periodic sweeps; how many. `oldestActive` is the upload time of the
 * oldest document that is queued, translating or owes its refund (none: undefined).
 *
 * Why that bound is safe. A document's ids are applied by an attempt of its job (the reservation of the
 * characters a job reads, the refund when it fails) and by the recovery of a refund its row marks owed.
 * An attempt starts only on a queued row (the SQLite queue's `start`, a fleet's `claim`, both conditional
 * on `queued`), and the row stays queued or translating until the attempt finishes or fails it; a failed
 * row owes its refund (and the sweeps keep it) until the refund is applied, then the mark is cleared. A
 * done or failed-and-refunded document is never run again, and it is never marked owed again. So an id
 * that can still be applied again belongs to a row that is queued, translating or owes its refund, and
 * was recorded after that row's upload (`created_at`): every id recorded before the oldest such upload
 * belongs to a document that is finished for good, or gone. Rows of such documents expire
 * (`documents.expirySeconds`, default a day) and are swept; that does not matter here, nor does the
 * expiry setting (a document queued for longer than it, or an expiry lowered since, keeps its ids).
 *
 * The margin (`USAGE_OPERATION_MARGIN_MS`, a day, subtracted from the bound) covers an attempt still running
 * on a row that no longer holds it: taken over on a fleet after its instance lost its lease, or done,
 * expired or downloaded under it. Such an attempt may still reserve once, with the id its document
 * already used (then it learns that it lost the row and stops, job.ts `reserveCharacters`): it does so
 * right after reading the document (seconds to minutes; a day is also longer than the longest
 * `jobTimeoutSeconds`, 86,399). The margin also covers the clocks: `created_at` and `applied_at` come from
 * one clock (the database's `now()` on PostgreSQL, the process's on SQLite), unless it is set back.
 *
 * An id is kept, so, a day after it was recorded, longer while an older document is still queued,
 * translating or owes its refund: one row of the spine's `usage_operations` (about 60 bytes) per failed
 * document and per image job.
 */
export async function pruneOperations(
  context: ServiceContext,
  oldestActive: Date | undefined,
  now = new Date(),
): Promise<number> {
  return forgetUsageOperations(context.storage, 'documents/', oldestActive, now);
}

/** The `error_message` a failed job reports; whether the failure is unexpected (to be logged). */
export function failureOf(error: unknown): { message: string; unexpected: boolean } {
  if (error instanceof EngineError)
    return { message: `Translation engine '${error.engine}' failed: ${error.message}`, unexpected: false };
  if (error instanceof DocumentFormatError || error instanceof ServiceError)
    return { message: error.message, unexpected: false };
  return { message: 'The document could not be translated (internal error).', unexpected: true };
}
