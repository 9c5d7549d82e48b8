/**
 * A document as the routes and its job see it: nothing but its job on the server's runner (document-job.ts),
 * read back. Its facts are the job's input (the key's hash, the formats, the parameters, what the upload
 * reserved), its state the job's, what the job reserved itself its checkpoint. Its key is kept only as a
 * SHA-256 hash and compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { DocumentExtension, DocumentStatus } from '@glossa/protocol';
import type { JobInfo } from '@glossa/server/feature';
import type { DocumentCheckpoint, DocumentJobInput } from './document-job.js';
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
}

export const hashDocumentKey = (key: string) =>
  createHash('sha256').update(key.toLowerCase(), 'utf8').digest('hex');

type DocumentJobInfo = JobInfo<DocumentJobInput, DocumentCheckpoint, null>;

const STATUS = {
  deferred: 'queued',
  queued: 'queued',
  running: 'translating',
  completed: 'done',
  failed: 'error',
  cancelled: 'error',
} as const;

/** The document a job is (of this version's: `documentOf` checks `input.keyHash`), whatever its key. */
export function recordOf(
  job: Pick<DocumentJobInfo, 'id' | 'accountId' | 'input' | 'checkpoint' | 'status' | 'error'>,
): DocumentRecord {
  const { input, checkpoint } = job;
  const status =
    input.failedWith === undefined ? STATUS[job.status === 'expired' ? 'completed' : job.status] : 'error';
  return {
    id: job.id,
    accountId: job.accountId,
    keyId: input.keyId,
    extension: input.extension,
    outputExtension: input.outputExtension,
    parameters: input.parameters,
    status,
    // What the job reserved itself (a format it reads), else what the upload did.
    billedCharacters: checkpoint?.reserved?.units ?? input.billed,
    usageDay: checkpoint?.reserved?.day ?? input.day,
    errorMessage: status === 'error' ? (input.failedWith ?? job.error ?? 'Translation failed.') : undefined,
    estimateMs: input.estimateMs,
  };
}

/**
 * The document of a job when `key` is its key, else undefined: none of a job uploaded before the runner held
 * documents (no key hash in its input). An expired job's is `done` (the route deletes it).
 */
export function documentOf(job: DocumentJobInfo, key: string): DocumentRecord | undefined {
  if (typeof job.input.keyHash !== 'string') return undefined;
  const given = Buffer.from(hashDocumentKey(key), 'hex');
  const stored = Buffer.from(job.input.keyHash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return undefined;
  return recordOf(job);
}
