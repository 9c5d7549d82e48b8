/**
 * A document is nothing but its job on the server's runner (document-job.ts): its facts are the job's input
 * (the key's hash, the formats, the parameters, what the upload reserved), its state the job's, what the job
 * reserved itself its checkpoint. Its key is kept only as a SHA-256 hash and compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { DocumentExtension, DocumentKeptSource, DocumentStatus } from '@glossa/protocol';
import type { JobInfo } from '@glossa/server/feature';
import type { DocumentParameters } from './translate.js';

/** What a job is given at upload: the document's facts, and what the upload reserved (refunded if it fails). */
export interface DocumentJobInput {
  readonly keyId: string;
  /** SHA-256 of the document's key (records.ts `hashDocumentKey`); absent in a job of a version before. */
  readonly keyHash: string;
  readonly extension: DocumentExtension;
  readonly outputExtension: DocumentExtension;
  readonly parameters: DocumentParameters;
  readonly billed: number;
  readonly day: string;
  /** The upload's estimate of the translation's time (`seconds_remaining` before the first chunk). */
  readonly estimateMs: number;
  /** A document accepted as failed (its source is its target language): nothing runs, nothing is stored. */
  readonly failedWith?: string;
}

/** Saved after each chunk (and after a reservation): where the job is, and how fast this attempt goes. */
export interface DocumentCheckpoint {
  /**
   * Characters the job is about to reserve (a format read by the job), on `day`: saved before the
   * reservation, so that a job killed between the reservation and `reserved`, that fails for good before
   * it reserves again, still knows what to refund (`settleReservation`).
   */
  readonly reserving?: { readonly units: number; readonly day: string };
  /** Characters the job itself reserved (a format read by the job), on `day`: refunded if it fails. */
  readonly reserved?: { readonly units: number; readonly day: string };
  /** Share of the text translated (0..1), chunks kept by an earlier attempt included. */
  readonly done: number;
  /** `done` when this attempt started, and when: the attempt's throughput is measured from there. */
  readonly attemptDone: number;
  readonly attemptStartedAt: string;
  readonly savedAt: string;
  /**
   * The segments every engine failed (kept in the source language), saved once the document is translated,
   * before its result is written: the status reports them (`glossa_kept_source`).
   */
  readonly kept?: DocumentKeptSource;
  /** The document's failure, saved before its upload goes: an attempt that finds it fails the job with it. */
  readonly failed?: string;
}

export const hashDocumentKey = (key: string) =>
  createHash('sha256').update(key.toLowerCase(), 'utf8').digest('hex');

export type DocumentJobInfo = JobInfo<DocumentJobInput, DocumentCheckpoint, null>;

const STATUS = {
  deferred: 'queued',
  queued: 'queued',
  running: 'translating',
  completed: 'done',
  failed: 'error',
  cancelled: 'error',
  // The route deletes an expired document.
  expired: 'done',
} as const;

export const statusOf = (job: Pick<DocumentJobInfo, 'input' | 'status'>): DocumentStatus =>
  job.input.failedWith === undefined ? STATUS[job.status] : 'error';

/** The `error_message` of a document whose status is `error`. */
export const errorOf = (job: Pick<DocumentJobInfo, 'input' | 'error'>) =>
  job.input.failedWith ?? job.error ?? 'Translation failed.';

/** The document's billed characters: what its job reserved itself (a format it reads), else what the upload did. */
export const billedOf = (job: Pick<DocumentJobInfo, 'input' | 'checkpoint'>) =>
  job.checkpoint?.reserved?.units ?? job.input.billed;

/**
 * Whether `key` is the document's key: never for a job uploaded before the runner held documents (no key
 * hash in its input).
 */
export function isKeyOf(job: DocumentJobInfo, key: string): boolean {
  if (typeof job.input.keyHash !== 'string') return false;
  const given = Buffer.from(hashDocumentKey(key), 'hex');
  const stored = Buffer.from(job.input.keyHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
