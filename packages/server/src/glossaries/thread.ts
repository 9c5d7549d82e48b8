/**
 * The glossary worker thread (`worker.ts`): parsing a glossary's entries as sent (a 10 MiB POST) and
 * building the word index of a large glossary take a second or more each, so they run there, off the
 * event loop that answers every other request. One thread for the process, started on first use, kept
 * `IDLE_MS` after its last job, and never keeping the process alive by itself; jobs run one at a time in
 * the order given (callers reserve their memory with `withBuildBudget` first, one build per account).
 *
 * Texts cross as UTF-8 bytes whose memory is moved, not copied: a 10 MiB glossary's entries arrive as
 * bytes from the parsing thread (`largeText` in http/body.ts), go here and come back as the canonical TSV's
 * bytes, which the database thread writes (db-thread.ts); they never become a string of the event loop's
 * heap, whose garbage collection held every other request up for 100–400 ms. The word index comes back as
 * integer arrays handed over without a copy. A thread that fails (its heap cap: `threadHeapMb`) fails its job
 * with 503 and `Retry-After`; the next job starts a new thread.
 */
import { Worker } from 'node:worker_threads';
import type { EntriesFormat } from '@glossa/protocol';
import { movableBuffer } from '../http/body.js';
import { budgetExceeded, memoryCeilingBytes, onMemoryPressure } from '../memory-budget.js';
import { threadEntry } from '../threads/entry.js';
import type { WordIndexData } from './candidates.js';
import type { FromGlossaryWorker, ToGlossaryWorker } from './thread-messages.js';

const IDLE_MS = 30_000;

export type ParsedEntries =
  | { readonly ok: true; readonly tsv: Uint8Array; readonly count: number }
  | { readonly ok: false; readonly message: string; readonly detail: string };

/** The thread's heap cap: the memory budget's share for builds, at least 256 MB. */
export const threadHeapMb = () => Math.max(256, Math.round((memoryCeilingBytes() * 0.3) / 2 ** 20));

interface Job {
  resolve(message: FromGlossaryWorker): void;
  reject(error: Error): void;
}

let thread: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
const jobs = new Map<number, Job>();
let nextId = 0;
/** Jobs sent to the thread, for tests and metrics. */
export const threadStats = { jobs: 0, starts: 0 };

function failAll(worker: Worker, reason: string): void {
  if (thread !== worker) return;
  thread = undefined;
  clearTimeout(idleTimer);
  for (const [id, job] of jobs) {
    jobs.delete(id);
    job.reject(
      budgetExceeded(`Preparing the glossary failed on its worker thread (${reason}). Retry later.`, 60),
    );
  }
}

function started(): Worker {
  if (thread) return thread;
  const entry = threadEntry(new URL('./worker.js', import.meta.url));
  const worker = new Worker(entry.url, {
    ...entry.options,
    resourceLimits: { maxOldGenerationSizeMb: threadHeapMb() },
  });
  threadStats.starts++;
  worker.unref();
  worker.on('message', (message: FromGlossaryWorker) => {
    const job = jobs.get(message.id);
    if (!job) return;
    jobs.delete(message.id);
    job.resolve(message);
    if (jobs.size === 0) idle(worker);
  });
  worker.on('error', (error) => failAll(worker, error.message));
  worker.on('exit', (code) => failAll(worker, `exit code ${code}`));
  thread = worker;
  return worker;
}

function idle(worker: Worker): void {
  worker.unref();
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (thread === worker && jobs.size === 0) {
      thread = undefined;
      void worker.terminate();
    }
  }, IDLE_MS);
  idleTimer.unref();
}

// Heavy work waiting for memory: an idle thread stops now, not `IDLE_MS` later (its heap goes with it).
onMemoryPressure(() => {
  const worker = thread;
  if (!worker || jobs.size > 0) return;
  thread = undefined;
  clearTimeout(idleTimer);
  void worker.terminate();
});

/** Sends `message`, moving `bytes`' memory (copied first when shared: `movableBuffer`); resolves with the answer. */
async function run(
  message: (id: number, bytes: Uint8Array) => ToGlossaryWorker,
  bytes: Uint8Array,
): Promise<FromGlossaryWorker> {
  const id = nextId++;
  const worker = started();
  clearTimeout(idleTimer);
  worker.ref();
  threadStats.jobs++;
  const answer = new Promise<FromGlossaryWorker>((resolve, reject) => jobs.set(id, { resolve, reject }));
  const own = movableBuffer(bytes);
  worker.postMessage(message(id, new Uint8Array(own)), [own]);
  const result = await answer;
  if (result.type === 'failed') throw new Error(result.message);
  return result;
}

/**
 * Parses entries as sent (`parseGlossaryEntries`) on the thread: their canonical TSV as UTF-8, or the problem.
 * Bytes are moved to the thread (the caller's are detached); a string is sent as its UTF-8.
 */
export async function parseOnThread(
  entries: string | Uint8Array,
  format: EntriesFormat,
  pair: { source_lang: string; target_lang: string },
): Promise<ParsedEntries> {
  const bytes = typeof entries === 'string' ? Buffer.from(entries) : entries;
  const answer = await run((id, bytes) => ({ type: 'parse', id, bytes, format, pair }), bytes);
  if (answer.type !== 'parsed') throw new Error(`glossary thread: unexpected answer ${answer.type}`);
  if (!answer.ok) return { ok: false, message: answer.message, detail: answer.detail };
  return { ok: true, tsv: answer.tsv, count: answer.count };
}

/** Builds the word index of a dictionary's sources from its canonical TSV (UTF-8, moved) on the thread. */
export async function wordIndexOnThread(tsv: Uint8Array): Promise<WordIndexData> {
  const answer = await run((id, bytes) => ({ type: 'words', id, tsv: bytes }), tsv);
  if (answer.type !== 'words') throw new Error(`glossary thread: unexpected answer ${answer.type}`);
  return answer.data;
}
