/**
 * Documents on PostgreSQL, for a fleet (`databaseUrl`): the rows and their bytes (the upload and the
 * result, `bytea`) in the `documents` table, so that every instance polls and downloads every document.
 * Its own migrations (counted in `glossa_documents_schema`, one transaction each, under an advisory lock so
 * that instances starting together migrate once). Every query a caller's request makes is scoped by
 * account; the job side (claim, progress, finish, fail) is fenced by the attempt that claimed the row, so a
 * job taken over from a dead instance finishes once, and refunds once when it fails (a refund owed is
 * marked on the row by the failure itself, and applied once: job.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import type { DocumentExtension, DocumentStatus } from '@glossa/protocol';
import { migratePostgres, noLiveBossJob, pgTransaction } from '@glossa/server/feature';
import type pg from 'pg';
import {
  type DocumentRecord,
  type DocumentStore,
  hashDocumentKey,
  type NewDocument,
  type OwedRefund,
} from './store.js';
import type { DocumentParameters } from './translate.js';

/** Applied in order, one transaction each. Append only. */
export const POSTGRES_DOCUMENT_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    extension TEXT NOT NULL,
    output_extension TEXT NOT NULL,
    parameters JSONB NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'translating', 'done', 'error')),
    billed_characters BIGINT NOT NULL,
    usage_day TEXT NOT NULL,
    error_message TEXT,
    estimate_ms BIGINT NOT NULL,
    started_at TIMESTAMPTZ,
    expires_at TIMESTAMPTZ NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    seq BIGSERIAL NOT NULL,
    -- The instance translating it ('host/pid/random': its lease, see pg-queue.ts), and how many times a
    -- job claimed it.
    owner TEXT,
    attempt INTEGER NOT NULL DEFAULT 0,
    progress REAL NOT NULL DEFAULT 0,
    upload BYTEA,
    result BYTEA
  );
  CREATE INDEX documents_status ON documents(status, seq);
  CREATE INDEX documents_expiry ON documents(expires_at);
  CREATE INDEX documents_account ON documents(account_id, id);
  `,
  // The chunks a job translated (their outputs, by the digest of their input: translate.ts), so that an
  // attempt that takes the document over does not translate them again; gone with the document.
  `
  CREATE TABLE document_chunks (
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    digest TEXT NOT NULL,
    outputs JSONB NOT NULL,
    PRIMARY KEY (document_id, digest)
  );
  `,
  // A failed document whose refund is owed and not yet applied (job.ts): set by the error transition,
  // cleared once the refund is applied (once, by its operation id); every instance's lease check applies
  // those left set by an instance that died between the two.
  `
  ALTER TABLE documents ADD COLUMN refund_pending BOOLEAN NOT NULL DEFAULT FALSE;
  CREATE INDEX documents_refund_pending ON documents(id) WHERE refund_pending;
  `,
];

/** Applies the documents' migrations not applied yet (the spine's runner: one transaction each, locked). */
export function migrateDocuments(pool: pg.Pool): Promise<void> {
  return migratePostgres(pool, 'glossa_documents_schema', POSTGRES_DOCUMENT_MIGRATIONS);
}

/** The columns of a record (never the bytes). */
const COLUMNS = `id, account_id, key_id, key_hash, extension, output_extension, parameters, status,
  billed_characters, usage_day, error_message, estimate_ms, started_at, expires_at, attempt, progress`;

interface Row {
  id: string;
  account_id: string;
  key_id: string;
  key_hash: string;
  extension: DocumentExtension;
  output_extension: DocumentExtension;
  parameters: DocumentParameters;
  status: DocumentStatus;
  billed_characters: string;
  usage_day: string;
  error_message: string | null;
  estimate_ms: string;
  started_at: Date | null;
  expires_at: Date;
  attempt: number;
  progress: number;
}

/** A record, with the attempt that last claimed it. */
export type ClaimedDocument = DocumentRecord & { readonly attempt: number };

const toRecord = (row: Row): ClaimedDocument => ({
  id: row.id,
  accountId: row.account_id,
  keyId: row.key_id,
  extension: row.extension,
  outputExtension: row.output_extension,
  parameters: row.parameters,
  status: row.status,
  billedCharacters: Number(row.billed_characters),
  usageDay: row.usage_day,
  errorMessage: row.error_message ?? undefined,
  estimateMs: Number(row.estimate_ms),
  startedAt: row.started_at?.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  progress: row.progress,
  attempt: row.attempt,
});

interface RefundRow {
  id: string;
  account_id: string;
  key_id: string;
  billed_characters: string;
  usage_day: string;
}

const toRefund = (row: RefundRow): OwedRefund => ({
  id: row.id,
  accountId: row.account_id,
  keyId: row.key_id,
  billed: Number(row.billed_characters),
  day: row.usage_day,
});

/** Runs statements on one client (a transaction), as pg-boss's `db` option wants them. */
export interface SqlRunner {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Enqueues the job of a document, in the transaction that queued its row (`db`). */
export type Enqueue = (db: SqlRunner, document: { id: string; accountId: string }) => Promise<void>;

export type PostgresDocuments = ReturnType<typeof createPostgresDocuments>;

/**
 * The store of a fleet. `enqueue` sends a document's job (pg-boss) in the same transaction as the row that
 * queues it: a queued row always has a job, and a job whose row was not written never exists.
 */
export function createPostgresDocuments(pool: pg.Pool, enqueue: Enqueue) {
  /** `work` in one transaction; `db` runs pg-boss's statements in it. */
  const transaction = <T>(work: (client: pg.PoolClient, db: SqlRunner) => Promise<T>): Promise<T> =>
    pgTransaction(pool, (client) =>
      work(client, { executeSql: (text, values) => client.query(text, values) }),
    );

  const store: DocumentStore = {
    async insert(document: NewDocument, bytes: Uint8Array, failedWith?: string) {
      await transaction(async (client, db) => {
        await client.query(
          `INSERT INTO documents (id, account_id, key_id, key_hash, extension, output_extension, parameters,
           status, billed_characters, usage_day, error_message, estimate_ms, expires_at, upload)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
          [
            document.id,
            document.accountId,
            document.keyId,
            document.keyHash,
            document.extension,
            document.outputExtension,
            JSON.stringify(document.parameters),
            failedWith === undefined ? 'queued' : 'error',
            document.billedCharacters,
            document.usageDay,
            failedWith ?? null,
            document.estimateMs,
            document.expiresAt,
            failedWith === undefined ? Buffer.from(bytes) : null,
          ],
        );
        if (failedWith === undefined) await enqueue(db, document);
      });
    },
    async find(accountId, id, key) {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM documents WHERE id = $1 AND account_id = $2`,
        [id.toLowerCase(), accountId],
      );
      const row = rows[0];
      if (!row) return undefined;
      const given = Buffer.from(hashDocumentKey(key), 'hex');
      if (!timingSafeEqual(given, Buffer.from(row.key_hash, 'hex'))) return undefined;
      if (row.expires_at.getTime() <= Date.now()) {
        // Kept while a refund is owed (the lease check applies it).
        await pool.query('DELETE FROM documents WHERE id = $1 AND account_id = $2 AND NOT refund_pending', [
          row.id,
          accountId,
        ]);
        return undefined;
      }
      return toRecord(row);
    },
    async takeResult(accountId, id) {
      // One statement: of concurrent downloads (on any instances), one deletes the row and gets the bytes.
      const { rows } = await pool.query<{ result: Buffer }>(
        `DELETE FROM documents WHERE id = $1 AND account_id = $2 AND status = 'done' RETURNING result`,
        [id, accountId],
      );
      return rows[0]?.result;
    },
    async queuedAhead(id) {
      const { rows } = await pool.query<{ ms: string; n: string }>(
        `SELECT COALESCE(SUM(estimate_ms), 0) AS ms, COUNT(*) AS n FROM documents
         WHERE status = 'queued' AND seq < (SELECT seq FROM documents WHERE id = $1)`,
        [id],
      );
      return { ms: Number(rows[0]!.ms), count: Number(rows[0]!.n) };
    },
    async counts() {
      const { rows } = await pool.query<{ queued: string; translating: string }>(
        `SELECT COUNT(*) FILTER (WHERE status = 'queued') AS queued,
                COUNT(*) FILTER (WHERE status = 'translating') AS translating FROM documents`,
      );
      return { queued: Number(rows[0]!.queued), translating: Number(rows[0]!.translating) };
    },
  };

  return {
    store,
    /**
     * Takes a queued document for `owner` (the instance's lease): its record, with the new attempt, and its
     * upload; undefined when it is not queued (done, failed, expired, or another job has it).
     */
    async claim(
      accountId: string,
      id: string,
      owner: string,
    ): Promise<{ document: ClaimedDocument; bytes: Buffer } | undefined> {
      const { rows } = await pool.query<Row & { upload: Buffer }>(
        `UPDATE documents SET status = 'translating', owner = $3, attempt = attempt + 1, started_at = now(),
         progress = 0 WHERE id = $1 AND account_id = $2 AND status = 'queued' RETURNING ${COLUMNS}, upload`,
        [id, accountId, owner],
      );
      const row = rows[0];
      return row && { document: toRecord(row), bytes: row.upload };
    },
    async setProgress(document: ClaimedDocument, done: number): Promise<void> {
      await pool.query('UPDATE documents SET progress = $3 WHERE id = $1 AND attempt = $2', [
        document.id,
        document.attempt,
        done,
      ]);
    },
    /** Records the characters the job reserved; false when the attempt no longer holds the document. */
    async setBilled(document: ClaimedDocument, units: number, day: string): Promise<boolean> {
      const { rowCount } = await pool.query(
        `UPDATE documents SET billed_characters = $3, usage_day = $4
         WHERE id = $1 AND attempt = $2 AND status = 'translating'`,
        [document.id, document.attempt, units, day],
      );
      return rowCount === 1;
    },
    /** The chunks earlier attempts translated: outputs by digest. */
    async loadChunks(document: ClaimedDocument): Promise<Map<string, string[]>> {
      const { rows } = await pool.query<{ digest: string; outputs: string[] }>(
        'SELECT digest, outputs FROM document_chunks WHERE document_id = $1',
        [document.id],
      );
      return new Map(rows.map((row) => [row.digest, row.outputs]));
    },
    /** Keeps a translated chunk, while the attempt holds the document. */
    async saveChunk(document: ClaimedDocument, digest: string, outputs: readonly string[]): Promise<void> {
      await pool.query(
        `INSERT INTO document_chunks (document_id, digest, outputs)
         SELECT $1, $3, $4 FROM documents WHERE id = $1 AND attempt = $2 AND status = 'translating'
         ON CONFLICT DO NOTHING`,
        [document.id, document.attempt, digest, JSON.stringify(outputs)],
      );
    },
    /**
     * Stores the result (its chunks are no longer needed); false when the attempt no longer holds the
     * document (another finished it).
     */
    async finish(document: ClaimedDocument, result: Uint8Array): Promise<boolean> {
      return transaction(async (client) => {
        const { rowCount } = await client.query(
          `UPDATE documents SET status = 'done', result = $3, upload = NULL, progress = 1, owner = NULL
           WHERE id = $1 AND attempt = $2 AND status = 'translating'`,
          [document.id, document.attempt, Buffer.from(result)],
        );
        if (rowCount === 1)
          await client.query('DELETE FROM document_chunks WHERE document_id = $1', [document.id]);
        return rowCount === 1;
      });
    },
    /**
     * Marks the document failed and its refund owed (job.ts); what it owes, or undefined when the attempt
     * no longer holds it (the refund is then not this attempt's to make: once).
     */
    async fail(document: ClaimedDocument, message: string): Promise<OwedRefund | undefined> {
      const { rows } = await pool.query<RefundRow>(
        `WITH failed AS (
           UPDATE documents SET status = 'error', error_message = $3, upload = NULL, owner = NULL,
             refund_pending = billed_characters > 0
           WHERE id = $1 AND attempt = $2 AND status = 'translating'
           RETURNING id, account_id, key_id, billed_characters, usage_day
         ), dropped AS (DELETE FROM document_chunks WHERE document_id IN (SELECT id FROM failed))
         SELECT * FROM failed`,
        [document.id, document.attempt, message],
      );
      return rows[0] && toRefund(rows[0]);
    },
    /** The refunds of failed documents not applied yet (an instance died between a failure and its refund). */
    async owedRefunds(): Promise<OwedRefund[]> {
      const { rows } = await pool.query<RefundRow>(
        'SELECT id, account_id, key_id, billed_characters, usage_day FROM documents WHERE refund_pending',
      );
      return rows.map(toRefund);
    },
    /** The document's refund was applied. */
    async refunded(id: string): Promise<void> {
      await pool.query('UPDATE documents SET refund_pending = FALSE WHERE id = $1', [id]);
    },
    /** Puts the attempt's document back in the queue, with a new job (a closing instance). */
    async requeue(document: ClaimedDocument): Promise<void> {
      await transaction(async (client, db) => {
        const { rowCount } = await client.query(
          `UPDATE documents SET status = 'queued', owner = NULL, started_at = NULL, progress = 0
           WHERE id = $1 AND attempt = $2 AND status = 'translating'`,
          [document.id, document.attempt],
        );
        if (rowCount === 1) await enqueue(db, document);
      });
    },
    /** Instances (leases) that hold translating documents, other than `self`. */
    async owners(self: string): Promise<string[]> {
      const { rows } = await pool.query<{ owner: string }>(
        `SELECT DISTINCT owner FROM documents WHERE status = 'translating' AND owner IS NOT NULL AND owner <> $1`,
        [self],
      );
      return rows.map((row) => row.owner);
    },
    /**
     * Queues again, each with a new job, the documents that `owner` was translating when it died: only
     * when its lease is free (`lock`, taken in this transaction, says so); how many.
     */
    async takeOver(owner: string, lock: (client: pg.PoolClient) => Promise<boolean>): Promise<number> {
      return transaction(async (client, db) => {
        if (!(await lock(client))) return 0;
        const { rows } = await client.query<{ id: string; account_id: string }>(
          `UPDATE documents SET status = 'queued', owner = NULL, started_at = NULL, progress = 0
           WHERE status = 'translating' AND owner = $1 RETURNING id, account_id`,
          [owner],
        );
        for (const row of rows) await enqueue(db, { id: row.id, accountId: row.account_id });
        return rows.length;
      });
    },
    /** Queues again this instance's translating documents that no job of it runs (a lost requeue). */
    async orphans(owner: string, running: readonly string[]): Promise<number> {
      return transaction(async (client, db) => {
        const { rows } = await client.query<{ id: string; account_id: string }>(
          `UPDATE documents SET status = 'queued', owner = NULL, started_at = NULL, progress = 0
           WHERE status = 'translating' AND owner = $1 AND NOT (id = ANY($2::text[])) RETURNING id, account_id`,
          [owner, running],
        );
        for (const row of rows) await enqueue(db, { id: row.id, accountId: row.account_id });
        return rows.length;
      });
    },
    /**
     * Gives a new job to each queued document that has had no pg-boss job about to run it (created,
     * retrying, or active for less than `orphanAfterMs`) for `orphanAfterMs`: one delivered to a worker that
     * died before its claim, or failed by pg-boss after its retries; how many.
     */
    async lost(queue: string, orphanAfterMs: number): Promise<number> {
      return transaction(async (client, db) => {
        const { rows } = await client.query<{ id: string; account_id: string }>(
          `SELECT d.id, d.account_id FROM documents d
           WHERE d.status = 'queued' AND d.created_at < now() - $1 * interval '1 millisecond'
           AND ${noLiveBossJob('d.id', 'documentId', '$2', '$1')}
           FOR UPDATE SKIP LOCKED`,
          [orphanAfterMs, queue],
        );
        for (const row of rows) await enqueue(db, { id: row.id, accountId: row.account_id });
        return rows.length;
      });
    },
    /** The upload time of the oldest document queued, translating or owing its refund; undefined: none. */
    async oldestActive(): Promise<Date | undefined> {
      const { rows } = await pool.query<{ oldest: Date | null }>(
        `SELECT MIN(created_at) AS oldest FROM documents
         WHERE status IN ('queued', 'translating') OR refund_pending`,
      );
      return rows[0]?.oldest ?? undefined;
    },
    /**
     * Removes every expired document but those owing a refund (any instance may: the statement is its own
     * lock); how many.
     */
    async sweep(): Promise<number> {
      const { rowCount } = await pool.query(
        'DELETE FROM documents WHERE expires_at <= now() AND NOT refund_pending',
      );
      return rowCount ?? 0;
    },
  };
}
