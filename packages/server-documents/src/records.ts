/**
 * A document as the routes, the upload and the job see it, whichever backend stores it (store.ts: SQLite;
 * postgres.ts: PostgreSQL), and what the routes and the upload ask of that store. A document belongs to one
 * account; its key is kept only as a SHA-256 hash and compared in constant time.
 */
import { createHash } from 'node:crypto';
import type { DocumentExtension, DocumentStatus } from '@glossa/protocol';
import type { JobTransaction } from '@glossa/server/feature';
import type { DocumentParameters } from './translate.js';

export interface DocumentRecord {
  readonly id: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly extension: DocumentExtension;
  readonly outputExtension: DocumentExtension;
  readonly parameters: DocumentParameters;
  readonly status: DocumentStatus;
  readonly billedCharacters: number;
  readonly usageDay: string;
  readonly errorMessage: string | undefined;
  readonly estimateMs: number;
  readonly startedAt: string | undefined;
  readonly expiresAt: string;
}

/** A `documents` row as either store reads it (PostgreSQL: numbers as text, times as `Date`, parameters parsed). */
export interface DocumentRow {
  id: string;
  account_id: string;
  key_id: string;
  key_hash: string;
  extension: DocumentExtension;
  output_extension: DocumentExtension;
  parameters: string | DocumentParameters;
  status: DocumentStatus;
  billed_characters: number | string;
  usage_day: string;
  error_message: string | null;
  estimate_ms: number | string;
  started_at: string | Date | null;
  expires_at: string | Date;
}

const iso = (at: string | Date) => (typeof at === 'string' ? at : at.toISOString());

export const toRecord = (row: DocumentRow): DocumentRecord => ({
  id: row.id,
  accountId: row.account_id,
  keyId: row.key_id,
  extension: row.extension,
  outputExtension: row.output_extension,
  parameters: typeof row.parameters === 'string' ? JSON.parse(row.parameters) : row.parameters,
  status: row.status,
  billedCharacters: Number(row.billed_characters),
  usageDay: row.usage_day,
  errorMessage: row.error_message ?? undefined,
  estimateMs: Number(row.estimate_ms),
  startedAt: row.started_at === null ? undefined : iso(row.started_at),
  expiresAt: iso(row.expires_at),
});

/** What the routes and the upload use, whatever the backend; every call is scoped by account. */
export interface DocumentStore {
  /**
   * Stores a new document and its upload, queued, and `submit`s its job: on PostgreSQL in the row's
   * transaction (they commit together: no row is left whose submit a crash lost), on SQLite after the row
   * (another file; the service submits again at start what a crash lost). A throw of `submit` stores
   * nothing. Or, with `failedWith`, as a failed job that nothing will run.
   */
  insert(
    document: NewDocument,
    bytes: Uint8Array,
    then: DocumentSubmit | { failedWith: string },
  ): Promise<void>;
  /** The account's document when the key matches and it has not expired; else undefined (a 404). */
  find(accountId: string, id: string, key: string): Promise<DocumentRecord | undefined>;
  /** Removes a translated document and returns its result: only the first of concurrent calls gets it. */
  takeResult(accountId: string, id: string): Promise<Uint8Array | undefined>;
  /** Estimated work queued ahead of a document, in ms, and how many documents that is. */
  queuedAhead(id: string): Promise<{ ms: number; count: number }>;
}

/** Submits a stored document's job, in `transaction` when given (PostgreSQL: the row's). */
export type DocumentSubmit = { submit(transaction?: JobTransaction): Promise<unknown> };

/** A document's id, owner and what its upload (or job) reserved. */
export interface UnfinishedDocument {
  readonly id: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly billed: number;
  readonly day: string;
}

export const hashDocumentKey = (key: string) =>
  createHash('sha256').update(key.toLowerCase(), 'utf8').digest('hex');

export type NewDocument = Omit<DocumentRecord, 'status' | 'errorMessage' | 'startedAt'> & {
  readonly keyHash: string;
};
