/**
 * The records of quality-evaluation jobs, whichever backend holds them (`sqlite-records.ts`: `quality.sqlite`
 * in the data directory; `pg-records.ts`: the `quality_jobs` table of the fleet's PostgreSQL). The jobs
 * themselves run on the server's job runner (`service.ts`, kind `quality/evaluate`): a record is what the
 * runner's rows should not carry, the request (gzip-compressed, up to 10 MB of JSON) and the report
 * (gzip-compressed, up to 80 MB of JSON), and the per-account limit.
 *
 * A record is inserted `queued` (its request), then finished `done` or `error` (its report, the request
 * dropped) by the job that evaluates it. A finished record can be read `EVALUATION_RETENTION_MS`, then it
 * is a 404; it is deleted with its job. An account holds at most `MAX_EVALUATION_JOBS_PER_ACCOUNT` records
 * (unfinished, or finished and not expired): the check and the insert are one atomic step, so concurrent
 * submissions (through any instances) never overshoot.
 */
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { JobTransaction } from '@glossa/server/feature';
import { failedReport, type QualityReport, type QualityRequest } from './evaluate.js';

/** How long a finished job can be polled. */
export const EVALUATION_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Jobs an account may hold at once (queued, running, or finished and not yet expired). */
export const MAX_EVALUATION_JOBS_PER_ACCOUNT = 1000;
/**
 * Runs of a job at most: a job whose process died this many times while running it (a restart, or a kill
 * on a fleet) is not run again but fails, so that a job which kills its process cannot kill every instance.
 */
export const MAX_EVALUATION_ATTEMPTS = 3;

/** The report of a job interrupted `MAX_EVALUATION_ATTEMPTS` times. */
export function abandonedReport(id: string): QualityReport {
  return failedReport(id, `the server running it stopped ${MAX_EVALUATION_ATTEMPTS} times.`);
}

/**
 * Reports are stored gzip-compressed: one at the input limits is some 80 MB of JSON, about 4 MB compressed.
 * Both run on libuv's thread pool, not on the event loop.
 */
export const compressReport: (json: Uint8Array) => Promise<Buffer> = promisify(gzip);
export const decompressReport: (stored: Uint8Array) => Promise<Buffer> = promisify(gunzip);

/** What a job evaluates: its request as first stored (JSON), or gzip-compressed. */
export type StoredRequest = QualityRequest | Uint8Array;

export interface QualityRecords {
  readonly backend: 'sqlite' | 'postgres';
  /**
   * Records a new job (`queued`, its request gzip-compressed) of the account and `submit`s its runner job:
   * on PostgreSQL in the record's transaction (they commit together), on SQLite after it (the record is in
   * its own file; `unfinished` gives back at start a record whose submit a crash lost). False, with nothing
   * recorded, when the account already holds `MAX_EVALUATION_JOBS_PER_ACCOUNT` jobs; a throw of `submit`
   * records nothing either.
   */
  insert(
    id: string,
    accountId: string,
    requestGzip: Buffer,
    submit: (transaction?: JobTransaction) => Promise<unknown>,
  ): Promise<boolean>;
  /** The request of an unfinished record; undefined when it is finished or gone. */
  request(id: string): Promise<StoredRequest | undefined>;
  /**
   * Finishes the record with its report (`compressReport` of the JSON), kept `EVALUATION_RETENTION_MS`. A
   * record finished already is left as is (an attempt redone after a kill writes nothing new).
   */
  finish(id: string, status: QualityReport['status'], reportGzip: Buffer): Promise<void>;
  /**
   * The account's record: its report as stored, `processing` when it has none yet, undefined when unknown,
   * another account's, or expired.
   */
  find(accountId: string, id: string): Promise<Buffer | 'processing' | undefined>;
  /**
   * Unfinished records, their jobs submitted again at start (idempotent): on SQLite a crash may have lost a
   * submit; on PostgreSQL, records of a version that submitted after the record's transaction.
   */
  unfinished(): Promise<{ id: string; accountId: string }[]>;
  /** Deletes the record (its job was deleted). */
  delete(id: string): Promise<void>;
  close(): Promise<void>;
}
