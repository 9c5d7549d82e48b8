/**
 * A memory's thread (started by import-thread.ts). An import: reads the TMX as the event loop hands it over,
 * tokenizes its segments and writes them, with their posting rows, through its own connection to the
 * resource database (SQLite's file, or PostgreSQL), one short transaction per batch, each only once the
 * event loop lets it (`write` → `go`): on SQLite the event loop's own writers then wait for it
 * asynchronously, never on the lock, and on both a cancelled import is stopped between two transactions.
 * A deletion (SQLite): deletes the memory's rows `DELETE_ROWS` per transaction, each granted the same way.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { lowerThreadPriority } from '../thread-priority.js';
import type { FromImportThread, ImportTarget, ImportWorkerData, ToImportThread } from './import-messages.js';
import { deletionSteps, importTransactions, type PostingRow } from './import-rows.js';
import * as postgresRows from './import-rows-postgres.js';
import { PendingPostings, REST_LISTS, type SegmentInput } from './postings.js';
import { readTmx } from './tmx.js';

// Parsing and writing the largest TMX takes seconds of a core: the event loop comes first (thread-priority.ts).
lowerThreadPriority();

/** Pieces of the file asked for ahead. */
const AHEAD = 4;

const port = parentPort!;
const { task, target, memoryId, batchSize } = workerData as ImportWorkerData;
/**
 * Rows (segments with their targets, or posting rows) a deletion deletes per transaction: about 5 ms of
 * SQLite's write lock for the largest memory's segments, which the event loop's writers await, not block on.
 */
const DELETE_ROWS = 256;
const post = (message: FromImportThread) => port.postMessage(message);

const pieces: (Uint8Array | undefined)[] = [];
let wantPiece: (() => void) | undefined;
let granted: (() => void) | undefined;
port.on('message', (message: ToImportThread) => {
  if (message.type === 'go') {
    granted?.();
    return;
  }
  pieces.push(message.type === 'chunk' ? message.bytes : undefined);
  wantPiece?.();
});

async function* upload(): AsyncGenerator<Buffer> {
  for (let i = 0; i < AHEAD; i++) post({ type: 'more' });
  for (;;) {
    if (pieces.length === 0) await new Promise<void>((resolve) => (wantPiece = resolve));
    const piece = pieces.shift();
    if (piece === undefined) return;
    post({ type: 'more' });
    yield Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
  }
}

/** Runs one write transaction once the event loop lets it. */
async function write<T>(transaction: () => T | Promise<T>): Promise<T> {
  await new Promise<void>((resolve) => {
    granted = resolve;
    post({ type: 'write' });
  });
  try {
    return await transaction();
  } finally {
    post({ type: 'written' });
  }
}

/** The thread's transactions on its own connection to `target`. */
interface Writes {
  addBatch(batch: readonly SegmentInput[], postings: PendingPostings): void | Promise<void>;
  writeRest(rows: PostingRow[], totals: [string, number][]): void | Promise<void>;
  /** Deletes the memory, one granted transaction per step (SQLite). */
  remove(): Promise<void>;
  close(): void | Promise<void>;
}

async function open(target: ImportTarget): Promise<Writes> {
  if (target.kind === 'postgres') {
    // Loaded only here: a SQLite thread has no use for it.
    const { default: pg } = await import('pg');
    const client = new pg.Client(target.connection);
    // A connection lost between two queries fails the next one; an idle one must not crash the thread.
    client.on('error', () => {});
    await client.connect();
    return {
      addBatch: (batch, postings) => postgresRows.addBatch(client, memoryId, batch, postings),
      writeRest: (rows, totals) => postgresRows.writeRest(client, memoryId, rows, totals),
      // A memory's deletion on PostgreSQL is one statement's work for the database: not on a thread.
      remove: () => Promise.reject(new Error('No deletion on a thread for PostgreSQL')),
      close: () => client.end(),
    };
  }
  const db = new Database(target.file);
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  const writes = importTransactions(db);
  const steps = deletionSteps(db);
  return {
    addBatch: (batch, postings) => writes.addBatch.immediate(memoryId, batch, postings),
    writeRest: (rows, totals) => writes.writeRest.immediate(memoryId, rows, totals),
    async remove() {
      while (await write(() => steps.segments(memoryId, DELETE_ROWS)));
      while (await write(() => steps.postings(memoryId, DELETE_ROWS)));
      await write(() => steps.memory(memoryId));
    },
    close: () => void db.close(),
  };
}

let writes: Writes | undefined;
try {
  writes = await open(target);
  if (task === 'delete') {
    await writes.remove();
    post({ type: 'done' });
  } else {
    const postings = new PendingPostings();
    const summary = await readTmx(
      upload(),
      (batch) => write(() => writes!.addBatch(batch, postings)),
      batchSize,
    );
    for (let done = false; !done; ) {
      const rest = postings.takeRest(REST_LISTS);
      await write(() => writes!.writeRest(rest.rows, rest.totals));
      done = rest.done;
    }
    post({ type: 'done', summary });
  }
} catch (error) {
  post({ type: 'failed', name: (error as Error).name, message: (error as Error).message });
} finally {
  await Promise.resolve(writes?.close()).catch(() => {});
  port.close();
}
