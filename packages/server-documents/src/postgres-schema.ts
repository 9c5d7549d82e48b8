/**
 * The documents' PostgreSQL schema (postgres.ts: the store of a fleet): the `documents` table (rows, the
 * upload and the result) and `document_chunks`, with their own migrations, counted in
 * `glossa_documents_schema`.
 */
import { migratePostgres } from '@glossa/server/feature';
import type pg from 'pg';

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
  // What a chunk kept in the source language (every engine failed: translate.ts `ChunkKept`), so that an
  // attempt that takes the document over reports it too; NULL when nothing (and for chunks saved before).
  `
  ALTER TABLE document_chunks ADD COLUMN kept JSONB;
  `,
];

/** Applies the documents' migrations not applied yet (the spine's runner: one transaction each, locked). */
export function migrateDocuments(pool: pg.Pool): Promise<void> {
  return migratePostgres(pool, 'glossa_documents_schema', POSTGRES_DOCUMENT_MIGRATIONS);
}
