/**
 * A memory import's thread (started by import-thread.ts): reads the TMX as the event loop hands it over,
 * tokenizes its segments and writes them, with their posting rows, through its own connection to the
 * resource database, one short transaction per batch, each only once the event loop lets it (`write` →
 * `go`), so the event loop's own writers wait for it asynchronously, never on SQLite's lock.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { lowerThreadPriority } from '../thread-priority.js';
import type { FromImportThread, ImportWorkerData, ToImportThread } from './import-messages.js';
import { importTransactions } from './import-rows.js';
import { PendingPostings, REST_LISTS } from './postings.js';
import { readTmx } from './tmx.js';

// Parsing and writing the largest TMX takes seconds of a core: the event loop comes first (thread-priority.ts).
lowerThreadPriority();

/** Pieces of the file asked for ahead. */
const AHEAD = 4;

const port = parentPort!;
const { file, memoryId, batchSize } = workerData as ImportWorkerData;
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
async function write(transaction: () => void): Promise<void> {
  await new Promise<void>((resolve) => {
    granted = resolve;
    post({ type: 'write' });
  });
  try {
    transaction();
  } finally {
    post({ type: 'written' });
  }
}

const db = new Database(file);
try {
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  const writes = importTransactions(db);
  const postings = new PendingPostings();
  const summary = await readTmx(
    upload(),
    (batch) => write(() => writes.addBatch.immediate(memoryId, batch, postings)),
    batchSize,
  );
  for (let done = false; !done; ) {
    const rest = postings.takeRest(REST_LISTS);
    await write(() => writes.writeRest.immediate(memoryId, rest.rows, rest.totals));
    done = rest.done;
  }
  post({ type: 'done', summary });
} catch (error) {
  post({ type: 'failed', name: (error as Error).name, message: (error as Error).message });
} finally {
  db.close();
  port.close();
}
