/** What the event loop and a memory import's thread (`import-thread.ts`, `import-worker.ts`) send each other. */
import type pg from 'pg';
import type { TmxSummary } from './tmx.js';

/**
 * The resource database the thread writes through a connection of its own: SQLite's file, or PostgreSQL's
 * connection settings (those of the server's pool).
 */
export type ImportTarget =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly connection: pg.ClientConfig };

export interface ImportWorkerData {
  /** An import (the file handed over piece by piece), or the memory's deletion (SQLite). */
  readonly task: 'import' | 'delete';
  readonly target: ImportTarget;
  readonly memoryId: string;
  /** Segments per batch, at most (and `MAX_BATCH_CHARACTERS`). */
  readonly batchSize: number;
}

export type ToImportThread =
  /** The next piece of the TMX file (`end`: none is left). */
  | { readonly type: 'chunk'; readonly bytes: Uint8Array }
  | { readonly type: 'end' }
  /** The thread may write its next transaction now (the event loop's writers wait for it meanwhile). */
  | { readonly type: 'go' };

export type FromImportThread =
  /** Wants one more piece of the file. */
  | { readonly type: 'more' }
  /** Wants to write a transaction; `written` when it ended (committed or rolled back). */
  | { readonly type: 'write' }
  | { readonly type: 'written' }
  /** Ended: an import's summary (a deletion has none). */
  | { readonly type: 'done'; readonly summary?: TmxSummary }
  | { readonly type: 'failed'; readonly name: string; readonly message: string };
