/**
 * Where quality-evaluation jobs live, and what runs them: the interface the routes use, whichever backend
 * holds the jobs (`sqlite-jobs.ts`: one process, `quality.sqlite` in the data directory; `pg-jobs.ts`: a
 * fleet, PostgreSQL and pg-boss at `databaseUrl`).
 *
 * A job is a row: its account, its status (`queued` → `running` → `done` or `error`), what it evaluates
 * (the request, dropped once it is finished), its report, and its times. A finished job is kept
 * `EVALUATION_RETENTION_MS`, then it is a 404 and its row is swept. An account holds at most
 * `MAX_EVALUATION_JOBS_PER_ACCOUNT` jobs (queued, running, or finished and not expired): the check and the
 * insert are one atomic step, so concurrent submissions (through any instances) never overshoot.
 */
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
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

export interface QualityJobs {
  readonly backend: 'sqlite' | 'postgres';
  /**
   * Records a new job (`queued`) of the account and queues it; false, with nothing recorded, when the
   * account already holds `MAX_EVALUATION_JOBS_PER_ACCOUNT` jobs.
   */
  submit(id: string, accountId: string, request: QualityRequest): Promise<boolean>;
  /**
   * The account's job: its report as stored (`compressReport` of the JSON the evaluation wrote), `processing`,
   * or undefined (unknown, another account's, or expired).
   */
  find(accountId: string, id: string): Promise<Buffer | 'processing' | undefined>;
  /** Jobs waiting (`queued`) and being evaluated (`running`): every instance's, on a shared database. */
  counts(): Promise<{ queued: number; running: number }>;
  /**
   * Stops taking jobs and stops the running evaluations (their worker threads), without a report: those
   * jobs run again, at the next start or on another instance, as after a kill.
   */
  close(): Promise<void>;
}
