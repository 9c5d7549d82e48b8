/**
 * Document rows and their bytes (records.ts). Two implementations of `DocumentStore` and of the job side,
 * `DocumentJobStore`: this one (SQLite, the embedded
 * default) and `postgres.ts` (a fleet). Here the files are `<folder>/<id>.in` (the upload) and `<id>.out`
 * (the result), each written to a temporary name and renamed, so a crash never leaves half a file under the
 * real name.
 */
import { timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentDatabase } from './db.js';
import type { ChunkKept } from './kept-segments.js';
import {
  type DocumentRecord,
  type DocumentRow,
  type DocumentStore,
  hashDocumentKey,
  toRecord,
  type UnfinishedDocument,
} from './records.js';
import type { ChunkCheckpoints } from './translate.js';

/** The job side of a document store (SQLite or PostgreSQL): what an attempt of document-job.ts reads and writes. */
export interface DocumentJobStore {
  /** The document (any account), or undefined when it is gone (expired). */
  get(id: string): Promise<DocumentRecord | undefined>;
  /** Marks it translating for `attempt`; false when a later attempt has it (this one is superseded). */
  start(id: string, attempt: number): Promise<boolean>;
  upload(id: string): Promise<Uint8Array | undefined>;
  /** The chunks kept for the document, and where this attempt keeps its own. */
  chunks(id: string, attempt: number): ChunkCheckpoints;
  /** Records the characters the job reserved (the status reports them). */
  setBilled(id: string, attempt: number, units: number, day: string): Promise<void>;
  /** Writes the result and marks the document done (its chunks and upload go). */
  finish(id: string, attempt: number, result: Uint8Array): Promise<void>;
  /** Marks the document failed with `message` (its chunks and upload go). */
  fail(id: string, attempt: number, message: string): Promise<void>;
  /** Documents queued or translating: each must have its job. */
  unfinished(): Promise<UnfinishedDocument[]>;
  /**
   * Failed documents whose refund a version before the job runner marked owed (`refund_pending`) and had
   * not applied when it stopped (service.ts `settleOwedRefunds`).
   */
  owedRefunds(): Promise<UnfinishedDocument[]>;
  /** Clears a document's owed-refund mark (its refund applied). */
  refunded(id: string): Promise<void>;
}

type Row = DocumentRow & { expires_at: string };

export type SqliteDocumentStore = ReturnType<typeof createDocumentStore>;

export function createDocumentStore(db: DocumentDatabase, folder: string) {
  const sql = {
    insert: db.prepare(
      `INSERT INTO documents (id, account_id, key_id, key_hash, extension, output_extension, parameters, status,
       billed_characters, usage_day, estimate_ms, expires_at, created_at, seq)
       VALUES (@id, @account, @keyId, @keyHash, @extension, @output, @parameters, 'queued', @billed, @day,
       @estimate, @expires, @now, (SELECT COALESCE(MAX(seq), 0) + 1 FROM documents))`,
    ),
    get: db.prepare('SELECT * FROM documents WHERE id = ? AND account_id = ?'),
    byId: db.prepare('SELECT * FROM documents WHERE id = ?'),
    unfinished: db.prepare(
      `SELECT id, account_id, key_id, billed_characters, usage_day FROM documents
       WHERE status IN ('queued', 'translating')`,
    ),
    owedRefunds: db.prepare(
      `SELECT id, account_id, key_id, billed_characters, usage_day FROM documents
       WHERE refund_pending = 1 AND status = 'error'`,
    ),
    refunded: db.prepare('UPDATE documents SET refund_pending = 0 WHERE id = ?'),
    queuedBefore: db.prepare(
      `SELECT COALESCE(SUM(estimate_ms), 0) AS ms, COUNT(*) AS n FROM documents WHERE status = 'queued' AND seq < (SELECT seq FROM documents WHERE id = ?)`,
    ),
    start: db.prepare(
      `UPDATE documents SET status = 'translating', started_at = ? WHERE id = ?
       AND status IN ('queued', 'translating')`,
    ),
    finish: db.prepare(`UPDATE documents SET status = 'done' WHERE id = ?`),
    setBilled: db.prepare('UPDATE documents SET billed_characters = ?, usage_day = ? WHERE id = ?'),
    // The refund is the job runner's (document-job.ts), in the transaction that fails the job.
    fail: db.prepare(`UPDATE documents SET status = 'error', error_message = ? WHERE id = ?`),
    remove: db.prepare('DELETE FROM documents WHERE id = ?'),
    // The documents that can still apply a usage operation (job.ts `pruneOperations`).
    oldestActive: db.prepare(
      `SELECT MIN(created_at) AS oldest FROM documents WHERE status IN ('queued', 'translating')`,
    ),
    expired: db.prepare('SELECT id FROM documents WHERE expires_at <= ?'),
    chunks: db.prepare('SELECT digest, outputs FROM document_chunks WHERE document_id = ?'),
    keptChunks: db.prepare(
      'SELECT digest, kept FROM document_chunks WHERE document_id = ? AND kept IS NOT NULL',
    ),
    saveChunk: db.prepare(
      'INSERT OR IGNORE INTO document_chunks (document_id, digest, outputs, kept) VALUES (?, ?, ?, ?)',
    ),
    dropChunks: db.prepare('DELETE FROM document_chunks WHERE document_id = ?'),
  };
  const fileOf = (id: string, kind: 'in' | 'out') => join(folder, `${id}.${kind}`);
  const write = (id: string, kind: 'in' | 'out', bytes: Uint8Array) => {
    writeFileSync(`${fileOf(id, kind)}.part`, bytes, { mode: 0o600 });
    renameSync(`${fileOf(id, kind)}.part`, fileOf(id, kind));
  };
  const toRecordOf = (row: Row | undefined) => row && toRecord(row);
  /** The row first (a second download finds nothing), then the files. */
  const remove = (id: string) => {
    sql.remove.run(id);
    sql.dropChunks.run(id);
    for (const name of [fileOf(id, 'in'), fileOf(id, 'out')])
      for (const path of [name, `${name}.part`]) rmSync(path, { force: true });
  };
  /** Failed: its upload and chunks go. */
  const fail = (id: string, message: string) => {
    sql.fail.run(message, id);
    sql.dropChunks.run(id);
    rmSync(fileOf(id, 'in'), { force: true });
  };
  const parsed = <T>(rows: unknown[], column: 'outputs' | 'kept') =>
    new Map((rows as Record<string, string>[]).map((row) => [row.digest!, JSON.parse(row[column]!) as T]));

  const store: DocumentStore = {
    /** Writes the upload, then the row (a row always has its file), then submits its job. */
    async insert(document, bytes, then) {
      write(document.id, 'in', bytes);
      sql.insert.run({
        id: document.id,
        account: document.accountId,
        keyId: document.keyId,
        keyHash: document.keyHash,
        extension: document.extension,
        output: document.outputExtension,
        parameters: JSON.stringify(document.parameters),
        billed: document.billedCharacters,
        day: document.usageDay,
        estimate: document.estimateMs,
        expires: document.expiresAt,
        now: new Date().toISOString(),
      });
      if ('failedWith' in then) return fail(document.id, then.failedWith);
      try {
        await then.submit();
      } catch (error) {
        remove(document.id);
        throw error;
      }
    },
    async find(accountId, id, key) {
      const row = sql.get.get(id.toLowerCase(), accountId) as Row | undefined;
      if (!row) return undefined;
      const given = Buffer.from(hashDocumentKey(key), 'hex');
      if (!timingSafeEqual(given, Buffer.from(row.key_hash, 'hex'))) return undefined;
      if (Date.parse(row.expires_at) <= Date.now()) {
        remove(row.id);
        return undefined;
      }
      return toRecord(row);
    },
    /** Reads the result and deletes the document in one synchronous step: a second call finds nothing. */
    async takeResult(accountId, id) {
      const row = sql.get.get(id, accountId) as Row | undefined;
      if (row?.status !== 'done') return undefined;
      const bytes = readFileSync(fileOf(id, 'out'));
      remove(id);
      return bytes;
    },
    async queuedAhead(id) {
      const row = sql.queuedBefore.get(id) as { ms: number; n: number };
      return { ms: row.ms, count: row.n };
    },
  };

  /** The job side (document-job.ts): one process owns the data directory, so attempts need no fence. */
  const jobs: DocumentJobStore = {
    get: async (id) => toRecordOf(sql.byId.get(id) as Row | undefined),
    start: async (id) => sql.start.run(new Date().toISOString(), id).changes === 1,
    upload: async (id) => readFileSync(fileOf(id, 'in')),
    chunks: (id) => ({
      load: async () => parsed<string[]>(sql.chunks.all(id), 'outputs'),
      loadKept: async () => parsed<ChunkKept>(sql.keptChunks.all(id), 'kept'),
      save: async (digest, outputs, kept) => {
        sql.saveChunk.run(id, digest, JSON.stringify(outputs), kept ? JSON.stringify(kept) : null);
      },
    }),
    setBilled: async (id, _attempt, units, day) => {
      sql.setBilled.run(units, day, id);
    },
    /** Writes the result, then marks the document done (its chunks and upload go). */
    finish: async (id, _attempt, result) => {
      write(id, 'out', result);
      sql.finish.run(id);
      sql.dropChunks.run(id);
      rmSync(fileOf(id, 'in'), { force: true });
    },
    fail: async (id, _attempt, message) => fail(id, message),
    unfinished: async () => unfinishedOf(sql.unfinished.all()),
    owedRefunds: async () => unfinishedOf(sql.owedRefunds.all()),
    refunded: async (id) => {
      sql.refunded.run(id);
    },
  };

  return {
    store,
    jobs,
    /** The upload time of the oldest document queued or translating; undefined: none. */
    async oldestActive(): Promise<Date | undefined> {
      const { oldest } = sql.oldestActive.get() as { oldest: string | null };
      return oldest === null ? undefined : new Date(oldest);
    },
    /** Removes every expired document; returns how many. */
    async sweep(): Promise<number> {
      const rows = sql.expired.all(new Date().toISOString()) as { id: string }[];
      for (const row of rows) remove(row.id);
      return rows.length;
    },
  };
}

export function unfinishedOf(rows: unknown[]): UnfinishedDocument[] {
  return (
    rows as { id: string; account_id: string; key_id: string; billed_characters: number; usage_day: string }[]
  ).map((row) => ({
    id: row.id,
    accountId: row.account_id,
    keyId: row.key_id,
    billed: Number(row.billed_characters),
    day: row.usage_day,
  }));
}
