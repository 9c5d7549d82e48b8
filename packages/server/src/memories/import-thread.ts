/**
 * A TMX import's heavy work (parsing, tokenizing, writing segments and postings) runs on a thread of its own
 * (`import-worker.ts`) with its own connection to the resource database (SQLite's file in WAL mode, or
 * PostgreSQL: one connection more than the pool's while it runs), off the event loop that answers
 * every other request (issue 31: on the event loop, even in ~2 ms turns, the largest import took about half
 * of it for a minute, and its garbage lengthened the main heap's GC pauses). One thread per import, at a
 * lower CPU priority (thread-priority.ts), ended with it; the event loop keeps the job (its state, its
 * cancellation, its memory reservation) and hands the file over piece by piece as the thread asks.
 *
 * Each of the thread's transactions (a batch, as short as on the event loop) starts only once the event loop
 * grants it. SQLite has one writer at a time: a granted transaction counts among the writes in flight on the
 * file (`trackThreadWrite`) until it ends, so the event loop's own writers await it instead of blocking on
 * the lock. A cancelled import is stopped between two transactions (on both backends); a killed process
 * leaves an unready memory, deleted by the job's next attempt (and on SQLite at the next start), as before.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { threadWritesSettled, trackThreadWrite } from '../glossaries/db-thread.js';
import { threadEntry } from '../threads/entry.js';
import type { FromImportThread, ImportTarget, ImportWorkerData, ToImportThread } from './import-messages.js';
import type { SegmentInput } from './postings.js';
import { readTmx, TmxError, type TmxSummary } from './tmx.js';

/** Segments written per batch. */
export const IMPORT_BATCH = 500;
/** The import thread's heap cap: the parser, a batch and the postings pending (per distinct token). */
const IMPORT_THREAD_HEAP_MB = 256;

/** Import threads started and the transactions they were granted, for tests. */
export const importThreadStats = { starts: 0, writes: 0 };

/** A `MemoryWriter`'s `write` on the event loop, each batch handed to `add` (a SQLite database in memory). */
export const writeInBatches =
  (add: (memoryId: string, batch: readonly SegmentInput[]) => Promise<void>) =>
  (memoryId: string, content: AsyncIterable<Buffer>, signal: AbortSignal): Promise<TmxSummary> =>
    readTmx(
      content,
      async (batch) => {
        signal.throwIfAborted();
        await add(memoryId, batch);
        await yieldToEventLoop();
      },
      IMPORT_BATCH,
    );

/**
 * Imports the TMX `content` into the unready memory `memoryId` of the database `target` on a thread: its
 * segments and every posting row; the summary once the thread has ended (its connection closed).
 */
export const importOnThread = (
  target: ImportTarget,
  memoryId: string,
  content: AsyncIterable<Buffer>,
  signal: AbortSignal,
): Promise<TmxSummary> => onMemoryThread(target, memoryId, content, signal) as Promise<TmxSummary>;

/**
 * Deletes the memory `memoryId` (hidden already) of the SQLite database `file` on a thread, a few hundred
 * rows per transaction, each granted as an import's are: the event loop only grants them.
 */
export const deleteOnThread = async (file: string, memoryId: string): Promise<void> => {
  await onMemoryThread({ kind: 'sqlite', file }, memoryId, undefined, new AbortController().signal);
};

/** Until no thread's write on `file` is in flight (one granted while awaiting is awaited too). */
async function writesSettled(file: string): Promise<void> {
  for (let writes = threadWritesSettled(file); writes; writes = threadWritesSettled(file)) await writes;
}

/** A memory's thread: an import of `content`, or (none) the memory's deletion. */
function onMemoryThread(
  target: ImportTarget,
  memoryId: string,
  content: AsyncIterable<Buffer> | undefined,
  signal: AbortSignal,
): Promise<TmxSummary | undefined> {
  const entry = threadEntry(new URL('./import-worker.js', import.meta.url));
  const worker = new Worker(entry.url, {
    ...entry.options,
    workerData: {
      task: content ? 'import' : 'delete',
      target,
      memoryId,
      batchSize: IMPORT_BATCH,
    } satisfies ImportWorkerData,
    resourceLimits: { maxOldGenerationSizeMb: IMPORT_THREAD_HEAP_MB },
  });
  importThreadStats.starts++;
  const send = (message: ToImportThread, transfer: ArrayBuffer[] = []) =>
    worker.postMessage(message, transfer);
  const pieces = content?.[Symbol.asyncIterator]();
  let reading = Promise.resolve();
  /** Ends the transaction granted, once the thread says it ended. */
  let writing: (() => void) | undefined;
  let outcome: { summary: TmxSummary | undefined } | { error: unknown } | undefined;
  /** Stops the thread, between two transactions (one granted ends first). */
  const stop = (error: unknown) => {
    outcome ??= { error };
    if (!writing) void worker.terminate();
  };
  const onAbort = () => stop(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  /** Grants the thread its next transaction: on SQLite once no other thread's write is in flight on the file. */
  const grant = async () => {
    if (target.kind === 'sqlite') await writesSettled(target.file);
    if (outcome) return void worker.terminate();
    const ended = new Promise<void>((resolve) => (writing = resolve));
    if (target.kind === 'sqlite') trackThreadWrite(target.file, ended);
    importThreadStats.writes++;
    send({ type: 'go' });
  };
  return new Promise((resolve, reject) => {
    worker.on('message', (message: FromImportThread) => {
      if (message.type === 'more' && pieces) {
        reading = reading
          .then(async () => {
            const next = await pieces.next();
            if (next.done) return send({ type: 'end' });
            const bytes = Uint8Array.prototype.slice.call(next.value) as Uint8Array;
            send({ type: 'chunk', bytes }, [bytes.buffer as ArrayBuffer]);
          })
          .catch(stop);
      } else if (message.type === 'write') void grant().catch(stop);
      else if (message.type === 'written') {
        writing?.();
        writing = undefined;
        if (outcome) void worker.terminate();
      } else if (message.type === 'done') outcome ??= { summary: message.summary };
      else if (message.type === 'failed')
        outcome ??= {
          error: message.name === 'TmxError' ? new TmxError(message.message) : new Error(message.message),
        };
    });
    worker.on('error', (error) => {
      outcome ??= { error };
    });
    worker.on('exit', (code) => {
      signal.removeEventListener('abort', onAbort);
      // A thread that died in a transaction: SQLite rolled it back as its connection closed.
      writing?.();
      writing = undefined;
      void pieces?.return?.();
      if (outcome && 'summary' in outcome) resolve(outcome.summary);
      else reject(outcome?.error ?? new Error(`The memory's thread stopped (exit code ${code}).`));
    });
  });
}
