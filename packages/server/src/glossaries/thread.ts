/**
 * The glossary worker thread (`worker.ts`): parsing a glossary's entries as sent (a 10 MiB POST) and
 * building the word index of a large glossary take a second or more each, so they run there, off the
 * event loop that answers every other request. One thread for the process, started on first use, kept
 * `IDLE_MS` after its last job, and never keeping the process alive by itself; jobs run one at a time in
 * the order given (callers reserve their memory with `withBuildBudget` first, one build per account).
 *
 * Strings cross between threads as copies, so a long one is sent in pieces of `PIECE` characters with
 * the event loop free between them (one 10 MB copy is 10–100 ms of a busy machine's event loop); the
 * word index comes back as integer arrays handed over without a copy. A thread that fails (its heap cap:
 * `threadHeapMb`) fails its job with 503 and `Retry-After`; the next job starts a new thread.
 */
import { Worker } from 'node:worker_threads';
import type { EntriesFormat } from '@glossa/protocol';
import { budgetExceeded, memoryCeilingBytes, onMemoryPressure } from '../memory-budget.js';
import { threadEntry } from '../threads/entry.js';
import { nextTurn } from '../turns.js';
import type { WordIndexData } from './candidates.js';
import { type FromGlossaryWorker, PIECE, type ToGlossaryWorker } from './thread-messages.js';

const IDLE_MS = 30_000;

export type ParsedEntries =
  | { readonly ok: true; readonly tsv: string; readonly count: number }
  | { readonly ok: false; readonly message: string; readonly detail: string };

/** The thread's heap cap: the memory budget's share for builds, at least 256 MB. */
export const threadHeapMb = () => Math.max(256, Math.round((memoryCeilingBytes() * 0.3) / 2 ** 20));

interface Job {
  readonly pieces: string[];
  resolve(message: FromGlossaryWorker, text: string): void;
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
    if (message.type === 'piece') {
      job.pieces.push(message.piece);
      return;
    }
    jobs.delete(message.id);
    job.resolve(message, job.pieces.join(''));
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

/** Sends `text` in pieces, then `message`; resolves with the answer and the text sent back, if any. */
async function run(
  text: string,
  message: (id: number) => ToGlossaryWorker,
): Promise<{ answer: FromGlossaryWorker; text: string }> {
  const id = nextId++;
  const worker = started();
  clearTimeout(idleTimer);
  worker.ref();
  threadStats.jobs++;
  const answer = new Promise<{ answer: FromGlossaryWorker; text: string }>((resolve, reject) => {
    jobs.set(id, { pieces: [], resolve: (answer, back) => resolve({ answer, text: back }), reject });
  });
  for (let at = 0; at < text.length; at += PIECE) {
    if (thread !== worker) break;
    worker.postMessage({ type: 'piece', id, piece: text.slice(at, at + PIECE) } satisfies ToGlossaryWorker);
    if (at + PIECE < text.length) await nextTurn();
  }
  if (thread === worker) worker.postMessage(message(id));
  const result = await answer;
  if (result.answer.type === 'failed') throw new Error(result.answer.message);
  return result;
}

/** Parses entries as sent (`parseGlossaryEntries`) on the thread: their canonical TSV, or the problem. */
export async function parseOnThread(
  text: string,
  format: EntriesFormat,
  pair: { source_lang: string; target_lang: string },
): Promise<ParsedEntries> {
  const { answer, text: back } = await run(text, (id) => ({ type: 'parse', id, format, pair }));
  if (answer.type !== 'parsed') throw new Error(`glossary thread: unexpected answer ${answer.type}`);
  if (!answer.ok) return { ok: false, message: answer.message, detail: answer.detail };
  return { ok: true, tsv: answer.same ? text : back, count: answer.count };
}

/** Builds the word index of `sources` (one per line) on the thread. */
export async function wordIndexOnThread(sources: string): Promise<WordIndexData> {
  const { answer } = await run(sources, (id) => ({ type: 'words', id }));
  if (answer.type !== 'words') throw new Error(`glossary thread: unexpected answer ${answer.type}`);
  return answer.data;
}
