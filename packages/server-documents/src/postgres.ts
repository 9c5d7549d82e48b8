/**
 * Documents on PostgreSQL, for a fleet (`databaseUrl`): the rows and their bytes (the upload and the
 * result, `bytea`) in the `documents` table, so that every instance polls and downloads every document.
 * Its schema is postgres-schema.ts. Every query a caller's request makes is scoped by
 * account; the job side (start, chunks, finish, fail) is fenced by the runner's attempt, so a job taken over
 * from a dead instance finishes once (its refund is the runner's, once: document-job.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import { pgTransaction } from '@glossa/server/feature';
import type pg from 'pg';
import type { ChunkKept } from './kept-segments.js';
import { type DocumentRow, type DocumentStore, hashDocumentKey, toRecord } from './records.js';
import { type DocumentJobStore, unfinishedOf } from './store.js';

/** The columns of a record (never the bytes). */
const COLUMNS = `id, account_id, key_id, key_hash, extension, output_extension, parameters, status,
  billed_characters, usage_day, error_message, estimate_ms, started_at, expires_at`;

type Row = DocumentRow & { expires_at: Date };

export type PostgresDocuments = ReturnType<typeof createPostgresDocuments>;

/**
 * The store of a fleet. The job (document-job.ts, on the server's runner) is submitted in the transaction
 * that inserts the row: both commit, or neither.
 */
export function createPostgresDocuments(pool: pg.Pool) {
  const store: DocumentStore = {
    async insert(document, bytes, then) {
      const failedWith = 'failedWith' in then ? then.failedWith : undefined;
      await pgTransaction(pool, async (client) => {
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
        if ('submit' in then) await then.submit(client);
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
        await pool.query('DELETE FROM documents WHERE id = $1 AND account_id = $2', [row.id, accountId]);
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
  };

  /**
   * The job side: every write is fenced by the runner's attempt (written on the row by `start`), so an
   * attempt still running on an instance that lost its lease writes nothing once another took the job.
   */
  const jobs: DocumentJobStore = {
    async get(id) {
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM documents WHERE id = $1`, [id]);
      return rows[0] && toRecord(rows[0]);
    },
    async start(id, attempt) {
      const { rowCount } = await pool.query(
        `UPDATE documents SET status = 'translating', attempt = $2, started_at = now()
         WHERE id = $1 AND attempt < $2 AND status IN ('queued', 'translating')`,
        [id, attempt],
      );
      return rowCount === 1;
    },
    async upload(id) {
      const { rows } = await pool.query<{ upload: Buffer | null }>(
        'SELECT upload FROM documents WHERE id = $1',
        [id],
      );
      return rows[0]?.upload ?? undefined;
    },
    chunks: (id, attempt) => ({
      async load() {
        const { rows } = await pool.query<{ digest: string; outputs: string[] }>(
          'SELECT digest, outputs FROM document_chunks WHERE document_id = $1',
          [id],
        );
        return new Map(rows.map((row) => [row.digest, row.outputs]));
      },
      async loadKept() {
        const { rows } = await pool.query<{ digest: string; kept: ChunkKept }>(
          'SELECT digest, kept FROM document_chunks WHERE document_id = $1 AND kept IS NOT NULL',
          [id],
        );
        return new Map(rows.map((row) => [row.digest, row.kept]));
      },
      async save(digest, outputs, kept) {
        await pool.query(
          `INSERT INTO document_chunks (document_id, digest, outputs, kept)
           SELECT $1, $3, $4, $5 FROM documents WHERE id = $1 AND attempt = $2 AND status = 'translating'
           ON CONFLICT DO NOTHING`,
          [id, attempt, digest, JSON.stringify(outputs), kept ? JSON.stringify(kept) : null],
        );
      },
    }),
    async setBilled(id, attempt, units, day) {
      await pool.query(
        `UPDATE documents SET billed_characters = $3, usage_day = $4
         WHERE id = $1 AND attempt = $2 AND status = 'translating'`,
        [id, attempt, units, day],
      );
    },
    async finish(id, attempt, result) {
      await pgTransaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE documents SET status = 'done', result = $3, upload = NULL, progress = 1, owner = NULL
           WHERE id = $1 AND attempt = $2 AND status = 'translating'`,
          [id, attempt, Buffer.from(result)],
        );
        if (rowCount === 1) await client.query('DELETE FROM document_chunks WHERE document_id = $1', [id]);
      });
    },
    async fail(id, attempt, message) {
      await pool.query(
        `WITH failed AS (
           UPDATE documents SET status = 'error', error_message = $3, upload = NULL, owner = NULL
           WHERE id = $1 AND attempt = $2 AND status = 'translating' RETURNING id
         ) DELETE FROM document_chunks WHERE document_id IN (SELECT id FROM failed)`,
        [id, attempt, message],
      );
    },
    async unfinished() {
      const { rows } = await pool.query(
        `SELECT id, account_id, key_id, billed_characters, usage_day FROM documents
         WHERE status IN ('queued', 'translating')`,
      );
      return unfinishedOf(rows);
    },
    async owedRefunds() {
      const { rows } = await pool.query(
        `SELECT id, account_id, key_id, billed_characters, usage_day FROM documents
         WHERE refund_pending AND status = 'error'`,
      );
      return unfinishedOf(rows);
    },
    async refunded(id) {
      await pool.query('UPDATE documents SET refund_pending = FALSE WHERE id = $1', [id]);
    },
  };

  return {
    store,
    jobs,
    /** The upload time of the oldest document queued or translating; undefined: none. */
    async oldestActive(): Promise<Date | undefined> {
      const { rows } = await pool.query<{ oldest: Date | null }>(
        `SELECT MIN(created_at) AS oldest FROM documents WHERE status IN ('queued', 'translating')`,
      );
      return rows[0]?.oldest ?? undefined;
    },
    /** Removes every expired document (any instance may: the statement is its own lock); how many. */
    async sweep(): Promise<number> {
      const { rowCount } = await pool.query('DELETE FROM documents WHERE expires_at <= now()');
      return rowCount ?? 0;
    },
  };
}
