/**
 * The document job queue: documents wait in SQLite (`queued`), at most `concurrency` translate at a time
 * in upload order, and a restart takes up where the last run stopped (documents that were translating are
 * queued again; nothing is billed twice, since the upload reserved the characters). A failed job refunds
 * them. A format read by the job (OCR of images) is read here, not at upload: its source language is
 * detected here when not given, and the characters it read are reserved here (a full quota fails the job).
 * Expired documents (downloaded or not) are swept on start and every minute.
 */
import { readFileSync } from 'node:fs';
import type { Caller, ServiceContext } from '@glossa/server/feature';
import { checkResources, currentBillingPeriod, EngineError, ServiceError } from '@glossa/server/feature';
import type { DocumentDatabase } from './db.js';
import { detectSource } from './detect.js';
import { DocumentFormatError } from './formats/format.js';
import { DOCUMENT_FORMATS, type DocumentFormats } from './formats/index.js';
import type { DocumentRecord, DocumentStore } from './store.js';
import {
  asTranslateRequest,
  billedOf,
  prepareTexts,
  type SourcedParameters,
  translateTexts,
} from './translate.js';

export interface DocumentQueueOptions {
  /** The formats by extension (default: the built-in ones with their default options). */
  readonly formats?: DocumentFormats;
  /** Documents translated at the same time (default 2). */
  readonly concurrency?: number;
  /** How often expired documents are swept, in ms (default 60 s). */
  readonly sweepIntervalMs?: number;
  /** Where unexpected job failures are reported (never with document content or keys). */
  readonly logError?: (error: unknown, documentId: string) => void;
}

class Closing extends Error {}

export type DocumentQueue = ReturnType<typeof createDocumentQueue>;

export function createDocumentQueue(
  store: DocumentStore,
  db: DocumentDatabase,
  context: ServiceContext,
  options: DocumentQueueOptions = {},
) {
  const concurrency = options.concurrency ?? 2;
  const formats = options.formats ?? DOCUMENT_FORMATS;
  const progress = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let closed = false;

  const callerOf = async (document: DocumentRecord): Promise<Caller | undefined> => {
    const account = await context.storage.getAccount(document.accountId);
    return account && { account, key: { id: document.keyId, accountId: document.accountId } };
  };

  async function run(document: DocumentRecord): Promise<void> {
    progress.set(document.id, 0);
    let billed = document.billedCharacters;
    try {
      const format = formats[document.extension];
      const caller = await callerOf(document);
      if (!format || !caller) throw new DocumentFormatError('This document can no longer be translated.');
      const bytes = readFileSync(store.fileOf(document.id, 'in'));
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
      if (format.readInJob && billed === 0) {
        billed = billedOf(prepareTexts(extraction.texts));
        if (!(await reserve(document, caller, billed))) {
          billed = 0;
          throw new DocumentFormatError(
            'Quota exceeded: the character limit of this billing period has been reached.',
          );
        }
      }
      if (closed) throw new Closing();
      const outputs = await translateTexts({
        texts: extraction.texts,
        parameters,
        caller,
        choice,
        context,
        onProgress: (done) => progress.set(document.id, done),
        checkpoint: () => {
          if (closed) throw new Closing();
        },
      });
      const result = await extraction.rebuild(outputs);
      if (closed) throw new Closing();
      if (store.get(document.id)) store.finish(document.id, result);
      else store.remove(document.id);
    } catch (error) {
      // A closing server leaves the document translating: the next start queues it again.
      if (error instanceof Closing) return;
      const message =
        error instanceof EngineError
          ? `Translation engine '${error.engine}' failed: ${error.message}`
          : error instanceof DocumentFormatError || error instanceof ServiceError
            ? error.message
            : 'The document could not be translated (internal error).';
      if (
        !(
          error instanceof EngineError ||
          error instanceof DocumentFormatError ||
          error instanceof ServiceError
        )
      )
        options.logError?.(error, document.id);
      store.fail(document.id, message);
      await refund(document, billed);
    } finally {
      progress.delete(document.id);
    }
  }

  /** Reserves the characters a job read from the quota, and records them on the document (billed once). */
  async function reserve(document: DocumentRecord, caller: Caller, units: number): Promise<boolean> {
    if (units === 0) return true;
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
    });
    if (reserved) store.setBilled(document.id, units, period.today);
    return reserved;
  }

  async function refund(document: DocumentRecord, units: number): Promise<void> {
    if (units === 0) return;
    await context.storage.recordUsage({
      accountId: document.accountId,
      keyId: document.keyId,
      product: 'translate',
      customTag: '',
      units: -units,
      day: store.get(document.id)?.usageDay ?? document.usageDay,
    });
  }

  /** Starts queued documents while fewer than `concurrency` run. */
  function pump(): void {
    while (!closed && running.size < concurrency) {
      const next = store.nextQueued();
      if (!next) return;
      if (!store.start(next.id)) continue;
      const work = run({ ...next, status: 'translating', startedAt: new Date().toISOString() }).finally(
        () => {
          running.delete(work);
          setImmediate(pump);
        },
      );
      running.add(work);
    }
  }

  store.requeueInterrupted();
  store.sweep();
  const sweeper = setInterval(() => {
    if (!closed) store.sweep();
  }, options.sweepIntervalMs ?? 60_000);
  sweeper.unref();
  setImmediate(pump);

  return {
    /** A document was queued: start it when a slot is free. */
    notify: pump,
    /** Seconds until the document is probably done (queued: the work ahead of it, shared by the runners). */
    secondsRemaining(document: DocumentRecord): number {
      if (document.status === 'translating') {
        const done = progress.get(document.id) ?? 0;
        const elapsed = Date.now() - Date.parse(document.startedAt ?? new Date().toISOString());
        const left = done > 0.05 ? (elapsed * (1 - done)) / done : Math.max(document.estimateMs - elapsed, 0);
        return Math.ceil(left / 1000);
      }
      const ahead = store.queuedAhead(document.id);
      return Math.ceil((ahead.ms / concurrency + document.estimateMs) / 1000);
    },
    /** Stops starting documents; running ones stop at their next chunk and resume after a restart. */
    async close(): Promise<void> {
      closed = true;
      clearInterval(sweeper);
      await Promise.allSettled([...running]);
      if (db.open) db.close();
    },
  };
}
