/**
 * Large glossary dictionaries are written to, read from and deleted from the resource database on a thread of their own,
 * with its own better-sqlite3 connection to the same file (WAL: the event loop's connection reads on while
 * the thread writes, and sees the thread's commit at once). better-sqlite3 is synchronous: writing the one
 * row of a 10 MiB dictionary took 0.1–1.1 s and reading it back 0.2–0.4 s of the event loop that answers
 * every other request (1.9–2.8 s stalls in the spine's abuse test).
 *
 * The thread runs the whole transaction (`BEGIN IMMEDIATE`: the account's count, the rows, the merge), so a
 * write is as atomic as on the event loop. Text crosses as UTF-8 bytes handed over without a copy: a large
 * dictionary as sent comes as bytes from the glossary thread (routes.ts); a text is encoded here and a read
 * decoded by the store, on the event loop a slice per turn. One thread per database file, started on first
 * use, never keeping the process alive, ended `IDLE_MS` after its last job; if it dies, its jobs fail with
 * 503 and `Retry-After` and the next job starts a new one.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { budgetExceeded, onMemoryPressure } from '../memory-budget.js';
import { nextTurn } from '../turns.js';

/** A dictionary of at least this many UTF-16 units (or entries when read) goes through the thread. */
export const DB_THREAD_CHARS = 256 * 1024;
export const DB_THREAD_ENTRIES = 4_000;
/** The thresholds in force (`setDbThreadThresholds`: benchmarks compare with the event loop). */
export const dbThreadThresholds = { chars: DB_THREAD_CHARS, entries: DB_THREAD_ENTRIES };
export function setDbThreadThresholds(chars: number, entries: number): void {
  dbThreadThresholds.chars = chars;
  dbThreadThresholds.entries = entries;
}
const IDLE_MS = 30_000;
/** Characters encoded per turn of the event loop (a read is decoded and parsed by the store, `parseTsvBytesInSlices`). */
const SLICE = 512 * 1024;

/**
 * Jobs run on the thread, and texts the event loop encoded for a thread (`utf8InSlices`: a dictionary that
 * came as bytes is never a string here), for tests.
 */
export const dbThreadStats = { jobs: 0, starts: 0, encoded: 0 };

/** What the thread writes: a dictionary's TSV as UTF-8. */
export interface ThreadDictionary {
  readonly source: string;
  readonly target: string;
  readonly bytes: Uint8Array;
  readonly entryCount: number;
}

type Job =
  | {
      type: 'create';
      accountId: string;
      id: string;
      name: string;
      now: string;
      max: number;
      dictionaries: ThreadDictionary[];
    }
  | { type: 'put'; accountId: string; id: string; now: string; merge: boolean; dictionary: ThreadDictionary }
  | { type: 'read'; id: string; source: string; target: string }
  | { type: 'delete'; accountId: string; id: string };

/** The thread, plain JavaScript (no TypeScript loader needed in the thread). */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 10000');
db.pragma('foreign_keys = ON');
db.pragma('synchronous = NORMAL');
const sql = {
  count: db.prepare('SELECT COUNT(*) AS n FROM glossaries WHERE account_id = ?'),
  insert: db.prepare('INSERT INTO glossaries (id, account_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)'),
  owned: db.prepare('SELECT id FROM glossaries WHERE account_id = ? AND id = ?'),
  entries: db.prepare('SELECT entries FROM glossary_dictionaries WHERE glossary_id = ? AND source_lang = ? AND target_lang = ?'),
  bytes: db.prepare('SELECT CAST(entries AS BLOB) AS entries FROM glossary_dictionaries WHERE glossary_id = ? AND source_lang = ? AND target_lang = ?'),
  put: db.prepare('INSERT INTO glossary_dictionaries (glossary_id, source_lang, target_lang, entries, entry_count) VALUES (?, ?, ?, ?, ?) ON CONFLICT (glossary_id, source_lang, target_lang) DO UPDATE SET entries = excluded.entries, entry_count = excluded.entry_count'),
  touch: db.prepare('UPDATE glossaries SET updated_at = ?, version = version + 1 WHERE id = ?'),
  delete: db.prepare('DELETE FROM glossaries WHERE account_id = ? AND id = ?'),
};
const text = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
const parse = (tsv) => tsv === '' ? [] : tsv.split('\\n').map((line) => {
  const tab = line.indexOf('\\t');
  return [line.slice(0, tab), line.slice(tab + 1)];
});
const create = db.transaction((job) => {
  if (sql.count.get(job.accountId).n >= job.max) return 'too-many';
  sql.insert.run(job.id, job.accountId, job.name, job.now, job.now);
  for (const d of job.dictionaries) sql.put.run(job.id, d.source, d.target, text(d.bytes), d.entryCount);
  return 'created';
});
const put = db.transaction((job) => {
  if (!sql.owned.get(job.accountId, job.id)) return false;
  const d = job.dictionary;
  let tsv = text(d.bytes);
  let count = d.entryCount;
  if (job.merge) {
    const current = sql.entries.get(job.id, d.source, d.target);
    if (current) {
      const merged = new Map(parse(current.entries));
      for (const [source, target] of parse(tsv)) merged.set(source, target);
      tsv = [...merged].map(([source, target]) => source + '\\t' + target).join('\\n');
      count = merged.size;
    }
  }
  if (Buffer.byteLength(tsv, 'utf8') > workerData.maxBytes) return 'too-large';
  sql.put.run(job.id, d.source, d.target, tsv, count);
  sql.touch.run(job.now, job.id);
  return true;
});
parentPort.on('message', ({ seq, job }) => {
  try {
    if (job.type === 'create') parentPort.postMessage({ seq, ok: true, value: create.immediate(job) });
    else if (job.type === 'put') parentPort.postMessage({ seq, ok: true, value: put.immediate(job) });
    else if (job.type === 'delete')
      parentPort.postMessage({ seq, ok: true, value: sql.delete.run(job.accountId, job.id).changes > 0 });
    else {
      const row = sql.bytes.get(job.id, job.source, job.target);
      if (!row) return parentPort.postMessage({ seq, ok: true, value: undefined });
      let bytes = row.entries;
      if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.byteLength) bytes = Uint8Array.prototype.slice.call(bytes);
      parentPort.postMessage({ seq, ok: true, value: bytes }, [bytes.buffer]);
    }
  } catch (error) {
    parentPort.postMessage({ seq, ok: false, message: String(error && error.message || error) });
  }
});
`;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  idleTimer?: NodeJS.Timeout;
}

const threads = new Map<string, Thread>();
let nextSeq = 0;

function fail(file: string, thread: Thread, reason: string): void {
  if (threads.get(file) === thread) threads.delete(file);
  clearTimeout(thread.idleTimer);
  for (const [seq, job] of thread.pending) {
    thread.pending.delete(seq);
    job.reject(budgetExceeded(`The glossary database thread failed (${reason}). Retry later.`, 5));
  }
}

function threadFor(file: string, maxBytes: number): Thread {
  const running = threads.get(file);
  if (running) return running;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  // A small heap: the thread holds at most a dictionary's text, its merge and SQLite's page cache.
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { driver, file, maxBytes },
    resourceLimits: { maxOldGenerationSizeMb: 160, maxYoungGenerationSizeMb: 8 },
  });
  dbThreadStats.starts++;
  worker.unref();
  const thread: Thread = { worker, pending: new Map() };
  worker.on('message', (message: { seq: number; ok: boolean; value?: unknown; message?: string }) => {
    const job = thread.pending.get(message.seq);
    if (!job) return;
    thread.pending.delete(message.seq);
    if (message.ok) job.resolve(message.value);
    else job.reject(new Error(message.message));
    if (thread.pending.size === 0) {
      worker.unref();
      clearTimeout(thread.idleTimer);
      thread.idleTimer = setTimeout(() => {
        if (threads.get(file) === thread && thread.pending.size === 0) {
          threads.delete(file);
          void worker.terminate();
        }
      }, IDLE_MS);
      thread.idleTimer.unref();
    }
  });
  worker.on('error', (error) => fail(file, thread, error.message));
  worker.on('exit', (code) => fail(file, thread, `exit code ${code}`));
  threads.set(file, thread);
  return thread;
}

// Heavy work waiting for memory: idle threads stop now, not `IDLE_MS` later (their heap goes with them).
onMemoryPressure(() => {
  for (const [file, thread] of threads) {
    if (thread.pending.size > 0) continue;
    clearTimeout(thread.idleTimer);
    threads.delete(file);
    void thread.worker.terminate();
  }
});

/** Writes (create, put) in flight on each file's thread. */
const writing = new Map<string, Set<Promise<unknown>>>();

/**
 * Settles when the writes in flight on `file`'s thread have ended (undefined when there are none). A write
 * on the event loop's own connection meanwhile would wait for SQLite's write lock synchronously (its busy
 * timeout), holding every other request up for as long as the thread's transaction (0.1 to 2.7 s for a
 * 10 MiB dictionary, bench/body-parse.ts); awaiting this first, the event loop waits for it asynchronously.
 */
export function threadWritesSettled(file: string): Promise<void> | undefined {
  const pending = writing.get(file);
  if (!pending?.size) return undefined;
  return Promise.allSettled([...pending]).then(() => undefined);
}

/** Runs `job` on the database thread of `file`. */
export function onDbThread(file: string, maxBytes: number, job: Job): Promise<unknown> {
  const thread = threadFor(file, maxBytes);
  clearTimeout(thread.idleTimer);
  thread.worker.ref();
  const seq = nextSeq++;
  dbThreadStats.jobs++;
  const transfer =
    job.type === 'create'
      ? job.dictionaries.map((d) => d.bytes.buffer as ArrayBuffer)
      : job.type === 'put'
        ? [job.dictionary.bytes.buffer as ArrayBuffer]
        : [];
  const done = new Promise((resolve, reject) => {
    thread.pending.set(seq, { resolve, reject });
    thread.worker.postMessage({ seq, job }, transfer);
  });
  if (job.type !== 'read') trackThreadWrite(file, done);
  return done;
}

/**
 * Counts `done` among the writes in flight on `file` from a thread (`threadWritesSettled`) until it settles:
 * the glossary database thread's, and a memory import's batches (memories/import-thread.ts).
 */
export function trackThreadWrite(file: string, done: Promise<unknown>): void {
  const pending = writing.get(file) ?? new Set();
  writing.set(file, pending);
  pending.add(done);
  const forget = () => {
    pending.delete(done);
    if (pending.size === 0 && writing.get(file) === pending) writing.delete(file);
  };
  done.then(forget, forget);
}

/** `texts` one after another as UTF-8, encoded a slice per turn of the event loop. */
export async function utf8InSlices(texts: readonly string[]): Promise<Uint8Array> {
  dbThreadStats.encoded++;
  const out = new Uint8Array(texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0));
  const encoder = new TextEncoder();
  let written = 0;
  for (const [index, text] of texts.entries()) {
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + SLICE);
      // A surrogate pair is never split between two slices.
      if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      written += encoder.encodeInto(text.slice(at, end), out.subarray(written)).written;
      at = end;
      if (at < text.length || index < texts.length - 1) await nextTurn();
    }
  }
  return out;
}
