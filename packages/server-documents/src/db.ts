/**
 * The documents database: its own SQLite file next to the spine's (`documents.sqlite` in the data
 * directory), with its own migrations, like `resources.sqlite`. Uploaded files and results live in
 * `<dataDir>/documents/` as `<id>.in` and `<id>.out`; the rows say who owns them and where each job is.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const DOCUMENT_DATABASE_FILE = 'documents.sqlite';

/** Applied in order, one transaction each; the count is kept in `PRAGMA user_version`. Append only. */
export const DOCUMENT_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    extension TEXT NOT NULL,
    output_extension TEXT NOT NULL,
    parameters TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'translating', 'done', 'error')),
    billed_characters INTEGER NOT NULL,
    usage_day TEXT NOT NULL,
    error_message TEXT,
    estimate_ms INTEGER NOT NULL,
    started_at TEXT,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    seq INTEGER NOT NULL
  );
  CREATE INDEX documents_status ON documents(status, seq);
  CREATE INDEX documents_expiry ON documents(expires_at);
  `,
  // The chunks a job translated (outputs as JSON, by the digest of their input: translate.ts), so that a
  // job resumed after a restart does not translate them again; removed with the document's job.
  `
  CREATE TABLE document_chunks (
    document_id TEXT NOT NULL,
    digest TEXT NOT NULL,
    outputs TEXT NOT NULL,
    PRIMARY KEY (document_id, digest)
  );
  `,
  // A failed document whose refund is owed and not yet applied (job.ts): set by the error transition,
  // cleared once the refund is applied (once, by its operation id); a restart applies those left set.
  `
  ALTER TABLE documents ADD COLUMN refund_pending INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX documents_refund_pending ON documents(id) WHERE refund_pending = 1;
  `,
  // What a chunk kept in the source language (every engine failed; JSON, translate.ts `ChunkKept`), so that
  // an attempt that resumes the job reports it too; NULL when nothing (and for chunks saved before).
  `
  ALTER TABLE document_chunks ADD COLUMN kept TEXT;
  `,
];

export type DocumentDatabase = Database.Database;

/** Opens (creating and migrating as needed) the documents database and its file folder. */
export function openDocumentDatabase(dataDir: string): { db: DocumentDatabase; folder: string } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const folder = join(dataDir, 'documents');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const db = new Database(join(dataDir, DOCUMENT_DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const applied = db.pragma('user_version', { simple: true }) as number;
  for (let version = applied; version < DOCUMENT_MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(DOCUMENT_MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return { db, folder };
}
