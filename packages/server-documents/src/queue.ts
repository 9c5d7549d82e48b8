/**
 * The document job queue: documents wait in SQLite (`queued`), at most `concurrency` translate at a time
 * in upload order, and a restart takes up where the last run stopped (documents that were translating are
 * queued again; nothing is billed twice, since the upload reserved the characters). A failed job refunds
 * them exactly once, even across a crash (job.ts): refunds left owed by a crash are applied at start. A format read by the job (OCR of images) is read here, not at upload: its source language is
 * detected here when not given, and the characters it read are reserved here (a full quota fails the job).
 * Expired documents (downloaded or not) are swept on start and every minute, and with them the usage
 * operation ids that no document can apply again (job.ts `pruneOperations`).
 */
import { readFileSync } from 'node:fs';
import type { ServiceContext } from '@glossa/server/feature';
import type { DocumentDatabase } from './db.js';
import { DOCUMENT_FORMATS, type DocumentFormats } from './formats/index.js';
import {
  Closing,
  crashPoints,
  failureOf,
  type OwedRefund,
  pruneOperations,
  reserveCharacters,
  settleRefund,
  translateDocument,
} from './job.js';
import type { DocumentRecord, SqliteDocumentStore } from './store.js';

export interface DocumentQueueOptions {
  /** The formats by extension (default: the built-in ones with their default options). */
  readonly formats?: DocumentFormats;
  /** Documents translated at the same time (default 2). */
  readonly concurrency?: number;
  /** How often expired documents are swept, in ms (default 60 s). */
  readonly sweepIntervalMs?: number;
  /** Where unexpected job failures are reported (never with document content or keys). */
  readonly logError?: (error: unknown, documentId: string) => void;
  /** Where a failed sweep of the documents' usage operation ids is reported. */
  readonly logWarning?: (message: string, detail?: Record<string, unknown>) => void;
}

/** What the routes ask of a queue, whatever runs it. */
export interface DocumentQueue {
  /** A document was queued: start it when a slot is free. */
  notify(): void;
  /** Seconds until the document is probably done (queued: the work ahead of it, shared by the runners). */
  secondsRemaining(document: DocumentRecord): Promise<number>;
  /** Stops starting documents; running ones stop at their next chunk and are run again later. */
  close(): Promise<void>;
}

/** Seconds left of a translating document, from its progress and start. */
export function secondsLeft(document: DocumentRecord, done: number): number {
  const elapsed = Date.now() - Date.parse(document.startedAt ?? new Date().toISOString());
  const left = done > 0.05 ? (elapsed * (1 - done)) / done : Math.max(document.estimateMs - elapsed, 0);
  return Math.ceil(left / 1000);
}

export function createDocumentQueue(
  store: SqliteDocumentStore,
  db: DocumentDatabase,
  context: ServiceContext,
  options: DocumentQueueOptions = {},
): DocumentQueue {
  const concurrency = options.concurrency ?? 2;
  const formats = options.formats ?? DOCUMENT_FORMATS;
  const progress = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let closed = false;

  async function run(document: DocumentRecord): Promise<void> {
    progress.set(document.id, 0);
    let billed = document.billedCharacters;
    let day = document.usageDay;
    try {
      const bytes = readFileSync(store.fileOf(document.id, 'in'));
      const result = await translateDocument(document, bytes, context, formats, {
        onProgress: (done) => progress.set(document.id, done),
        checkpoint: () => {
          if (closed) throw new Closing();
        },
        // Chunks translated before a restart are not translated again.
        chunks: {
          load: async () => store.loadChunks(document.id),
          save: async (digest, outputs) => store.saveChunk(document.id, digest, outputs),
        },
        async reserve(units, caller) {
          const reservedOn = await reserveCharacters(context, document, caller, units);
          if (reservedOn === undefined) return false;
          store.setBilled(document.id, units, reservedOn);
          billed = units;
          day = reservedOn;
          return true;
        },
      });
      if (store.get(document.id)) store.finish(document.id, result);
      else store.remove(document.id);
    } catch (error) {
      // A closing server leaves the document translating: the next start queues it again.
      if (error instanceof Closing) return;
      const failure = failureOf(error);
      if (failure.unexpected) options.logError?.(error, document.id);
      // The upload's reservation may still wait in the spine's SQLite (written behind): committed first, so
      // that a crash cannot keep the owed refund and lose what it refunds.
      await context.storage.commitUsage().catch((failed) => options.logError?.(failed, document.id));
      // The row says the refund is owed, then it is applied (job.ts). A document removed meanwhile (expired)
      // is refunded all the same, from what this job knows.
      const owed = store.fail(document.id, failure.message) ?? {
        id: document.id,
        accountId: document.accountId,
        keyId: document.keyId,
        billed,
        day,
      };
      crashPoints.afterFail?.(document.id);
      // Not applied (the storage failed): still owed, applied by the next recovery.
      await settle(owed).catch((failed) => options.logError?.(failed, document.id));
    } finally {
      progress.delete(document.id);
    }
  }

  const settle = (refund: OwedRefund) => settleRefund(context, refund, (id) => store.refunded(id));
  /** Applies the refunds a crash left owed (each once: applying one again is a no-op). */
  let recovering: Promise<void> = Promise.resolve();
  const recover = () => {
    recovering = (async () => {
      for (const refund of store.owedRefunds())
        await settle(refund).catch((error) => options.logError?.(error, refund.id));
    })();
  };

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

  /** Expired documents removed, then the usage operation ids nothing can apply again (job.ts). */
  let pruning: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    store.sweep();
    pruning = Promise.resolve()
      .then(() => pruneOperations(context, store.oldestActive()))
      .catch((error) => options.logWarning?.('sweep of document usage operations failed', { err: error }));
  };
  store.requeueInterrupted();
  recover();
  sweep();
  const sweeper = setInterval(() => {
    if (closed) return;
    recover();
    sweep();
  }, options.sweepIntervalMs ?? 60_000);
  sweeper.unref();
  setImmediate(pump);

  return {
    notify: pump,
    async secondsRemaining(document) {
      if (document.status === 'translating') return secondsLeft(document, progress.get(document.id) ?? 0);
      const ahead = store.queuedAheadSync(document.id);
      return Math.ceil((ahead.ms / concurrency + document.estimateMs) / 1000);
    },
    /** Running documents stop at their next chunk and resume after a restart. */
    async close(): Promise<void> {
      closed = true;
      clearInterval(sweeper);
      await Promise.allSettled([...running, recovering, pruning]);
      if (db.open) db.close();
    },
  };
}
