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
import type { DocumentExtension, DocumentStatus } from '@glossa/protocol';
import type { DocumentDatabase } from './db.js';
import type { ChunkKept } from './kept-segments.js';
import {
  type DocumentRecord,
  type DocumentStore,
  hashDocumentKey,
  type NewDocument,
  type UnfinishedDocument,
} from './records.js';
import type { ChunkCheckpoints, DocumentParameters } from './translate.js';

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

interface Row {
  id: string;
  account_id: string;
  key_id: string;
  key_hash: string;
  extension: DocumentExtension;
  output_extension: DocumentExtension;
  parameters: string;
  status: DocumentStatus;
  billed_characters: number;
  usage_day: string;
  error_message: string | null;
  estimate_ms: number;
  started_at: string | null;
  expires_at: string;
  refund_pending: number;
}

const toRecord = (row: Row): DocumentRecord => ({
  id: row.id,
  accountId: row.account_id,
  keyId: row.key_id,
  extension: row.extension,
  outputExtension: row.output_extension,
  parameters: JSON.parse(row.parameters) as DocumentParameters,
  status: row.status,
  billedCharacters: row.billed_characters,
  usageDay: row.usage_day,
  errorMessage: row.error_message ?? undefined,
  estimateMs: row.estimate_ms,
  startedAt: row.started_at ?? undefined,
  expiresAt: row.expires_at,
});

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
    counts: db.prepare(
      `SELECT COALESCE(SUM(status = 'queued'), 0) AS queued, COALESCE(SUM(status = 'translating'), 0) AS translating FROM documents`,
    ),
  };
  const fileOf = (id: string, kind: 'in' | 'out') => join(folder, `${id}.${kind}`);

  return {
    fileOf,
    /** Writes the upload, then the row: a row always has its file. */
    insertSync(document: NewDocument, bytes: Uint8Array): void {
      const temporary = `${fileOf(document.id, 'in')}.part`;
      writeFileSync(temporary, bytes, { mode: 0o600 });
      renameSync(temporary, fileOf(document.id, 'in'));
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
    },
    /** The account's document when the key matches and it has not expired; else undefined (a 404). */
    findSync(accountId: string, id: string, key: string): DocumentRecord | undefined {
      const row = sql.get.get(id.toLowerCase(), accountId) as Row | undefined;
      if (!row) return undefined;
      const given = Buffer.from(hashDocumentKey(key), 'hex');
      if (!timingSafeEqual(given, Buffer.from(row.key_hash, 'hex'))) return undefined;
      if (Date.parse(row.expires_at) <= Date.now()) {
        this.remove(row.id);
        return undefined;
      }
      return toRecord(row);
    },
    get(id: string): DocumentRecord | undefined {
      const row = sql.byId.get(id) as Row | undefined;
      return row && toRecord(row);
    },
    /** Estimated work queued ahead of a document, in ms, and how many documents that is. */
    queuedAheadSync(id: string): { ms: number; count: number } {
      const row = sql.queuedBefore.get(id) as { ms: number; n: number };
      return { ms: row.ms, count: row.n };
    },
    /** Marks a queued (or interrupted) document translating; false when it is done, failed or gone. */
    start(id: string): boolean {
      return sql.start.run(new Date().toISOString(), id).changes === 1;
    },
    /** Writes the result, then marks the document done. */
    finish(id: string, result: Uint8Array): void {
      const temporary = `${fileOf(id, 'out')}.part`;
      writeFileSync(temporary, result, { mode: 0o600 });
      renameSync(temporary, fileOf(id, 'out'));
      sql.finish.run(id);
      sql.dropChunks.run(id);
      rmSync(fileOf(id, 'in'), { force: true });
    },
    /** The chunks an interrupted job translated: outputs by digest. */
    loadChunks(id: string): Map<string, string[]> {
      const rows = sql.chunks.all(id) as { digest: string; outputs: string }[];
      return new Map(rows.map((row) => [row.digest, JSON.parse(row.outputs) as string[]]));
    },
    /** What the chunks of an interrupted job kept in the source language, by digest. */
    loadKeptChunks(id: string): Map<string, ChunkKept> {
      const rows = sql.keptChunks.all(id) as { digest: string; kept: string }[];
      return new Map(rows.map((row) => [row.digest, JSON.parse(row.kept) as ChunkKept]));
    },
    /** Keeps a translated chunk of a job, and what it kept in the source language. */
    saveChunk(id: string, digest: string, outputs: readonly string[], kept?: ChunkKept): void {
      sql.saveChunk.run(id, digest, JSON.stringify(outputs), kept ? JSON.stringify(kept) : null);
    },
    /** The characters a job reserved when it read the document (a format read by the job). */
    setBilled(id: string, billed: number, usageDay: string): void {
      sql.setBilled.run(billed, usageDay, id);
    },
    /** Marks the document failed (its upload and chunks go). */
    fail(id: string, message: string): void {
      sql.fail.run(message, id);
      sql.dropChunks.run(id);
      rmSync(fileOf(id, 'in'), { force: true });
    },
    /** Deletes the row first (a second download finds nothing), then the files. */
    remove(id: string): void {
      sql.remove.run(id);
      sql.dropChunks.run(id);
      rmSync(fileOf(id, 'in'), { force: true });
      rmSync(fileOf(id, 'out'), { force: true });
      rmSync(`${fileOf(id, 'in')}.part`, { force: true });
      rmSync(`${fileOf(id, 'out')}.part`, { force: true });
    },
    /** The async face the routes use (`DocumentStore`); SQLite answers at once. */
    async insert(...[document, bytes, then]: Parameters<DocumentStore['insert']>): Promise<void> {
      this.insertSync(document, bytes);
      if ('failedWith' in then) return this.fail(document.id, then.failedWith);
      try {
        await then.submit();
      } catch (error) {
        this.remove(document.id);
        throw error;
      }
    },
    async find(accountId: string, id: string, key: string): Promise<DocumentRecord | undefined> {
      return this.findSync(accountId, id, key);
    },
    /** Reads the result and deletes the document in one synchronous step: a second call finds nothing. */
    async takeResult(accountId: string, id: string): Promise<Uint8Array | undefined> {
      const row = sql.get.get(id, accountId) as Row | undefined;
      if (row?.status !== 'done') return undefined;
      const bytes = readFileSync(fileOf(id, 'out'));
      this.remove(id);
      return bytes;
    },
    async queuedAhead(id: string): Promise<{ ms: number; count: number }> {
      return this.queuedAheadSync(id);
    },
    async counts(): Promise<{ queued: number; translating: number }> {
      return sql.counts.get() as { queued: number; translating: number };
    },
    /** The upload time of the oldest document queued or translating; undefined: none. */
    oldestActive(): Date | undefined {
      const { oldest } = sql.oldestActive.get() as { oldest: string | null };
      return oldest === null ? undefined : new Date(oldest);
    },
    /** The job side (document-job.ts): one process owns the data directory, so attempts need no fence. */
    jobs(): DocumentJobStore {
      return {
        get: async (id) => this.get(id),
        start: async (id) => this.start(id),
        upload: async (id) => readFileSync(fileOf(id, 'in')),
        chunks: (id) => ({
          load: async () => this.loadChunks(id),
          loadKept: async () => this.loadKeptChunks(id),
          save: async (digest, outputs, kept) => this.saveChunk(id, digest, outputs, kept),
        }),
        setBilled: async (id, _attempt, units, day) => this.setBilled(id, units, day),
        finish: async (id, _attempt, result) => this.finish(id, result),
        fail: async (id, _attempt, message) => this.fail(id, message),
        unfinished: async () => unfinishedOf(sql.unfinished.all()),
        owedRefunds: async () => unfinishedOf(sql.owedRefunds.all()),
        refunded: async (id) => {
          sql.refunded.run(id);
        },
      };
    },
    /** Removes every expired document; returns how many. */
    sweep(now = new Date()): number {
      const rows = sql.expired.all(now.toISOString()) as { id: string }[];
      for (const row of rows) this.remove(row.id);
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
