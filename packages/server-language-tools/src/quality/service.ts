/**
 * The quality-evaluation jobs of a running server, started by the feature once the service context exists
 * and closed with the server; the routes find them through the context.
 *
 * A job is a record (records.ts: `quality.sqlite` in the data directory, or with `databaseUrl` the fleet's
 * PostgreSQL), which holds its request, its report and the per-account limit, and a job of kind
 * `quality/evaluate` on the server's job runner (`context.jobs`), under the record's id, which runs it:
 * claimed fairly between accounts, taken over from a dead instance, stopped when it is cancelled or its
 * runner closes. A job started `MAX_EVALUATION_ATTEMPTS` times (its process died each time) is not run again
 * but finishes with the abandoned report.
 */
import type { JobQueue, ServiceContext } from '@glossa/server/feature';
import { RunnerClosing, ServiceError } from '@glossa/server/feature';
import { utf8Json } from './evaluate.js';
import { DEFAULT_QUALITY_OPTIONS, type ResolvedQualityOptions } from './options.js';
import { openPgQualityRecords } from './pg-records.js';
import { type EvaluationPool, startEvaluationPool } from './pool.js';
import {
  abandonedReport,
  compressReport,
  EVALUATION_RETENTION_MS,
  MAX_EVALUATION_ATTEMPTS,
  type QualityRecords,
} from './records.js';
import { openSqliteQualityRecords } from './sqlite-records.js';

/** The job kind of quality evaluations on the server's runner. */
export const QUALITY_JOB_KIND = 'quality/evaluate';
/** Jobs one instance evaluates at a time, each on a worker thread (pool.ts). */
const CONCURRENCY = 2;

/**
 * Test hooks of the crash tests (quality-jobs-crash.test.ts), which kill the process there: `evaluating`
 * once a job's evaluation started on its thread; `afterReport` once its report is in its record, before the
 * runner completes the job. Unset in a server.
 */
export const qualityCrashPoints: {
  evaluating?: (id: string, attempt: number) => void;
  afterReport?: (id: string) => void;
} = {};

/** A job's input and result: everything is in its record, under the job's id. */
export type QualityQueue = JobQueue<Record<string, never>, never, null>;

export interface QualityServiceLog {
  warn(detail: Record<string, unknown>, message: string): void;
  error(detail: Record<string, unknown>, message: string): void;
}

interface QualityService {
  readonly records: Promise<QualityRecords>;
  readonly queue: QualityQueue;
  /** The worker threads of the jobs and of the synchronous alias. */
  readonly pool: EvaluationPool;
  readonly options: ResolvedQualityOptions;
}

const services = new WeakMap<ServiceContext, QualityService>();

/**
 * Starts the evaluation threads' pool, opens the records, registers the job kind (records without a job are
 * submitted: on SQLite, a crash may have lost a submit) and adds the gauges to the metrics; `close` stops them.
 */
export function startQualityJobs(
  context: ServiceContext,
  log: QualityServiceLog,
  options: ResolvedQualityOptions = DEFAULT_QUALITY_OPTIONS,
): { close(): Promise<void> } {
  const url = context.options.databaseUrl;
  const pool = startEvaluationPool(options);
  const records =
    url === undefined
      ? Promise.resolve().then(() => openSqliteQualityRecords(context.options.dataDir))
      : openPgQualityRecords(url);
  records.catch((error) => log.error({ err: error }, 'quality job storage could not start'));
  const queue: QualityQueue = context.jobs.register({
    name: QUALITY_JOB_KIND,
    concurrency: CONCURRENCY,
    resultTtlMs: EVALUATION_RETENTION_MS,
    async run(job) {
      const store = await records;
      if (job.attempt > MAX_EVALUATION_ATTEMPTS) {
        await store.finish(job.id, 'error', await compressReport(utf8Json(abandonedReport(job.id))));
        return null;
      }
      const request = await store.request(job.id);
      // Finished already: an attempt killed between the record's report and the job's completion.
      if (request === undefined) return null;
      const evaluation = pool.evaluate(job.id, request, job.signal);
      qualityCrashPoints.evaluating?.(job.id, job.attempt);
      const report = await evaluation;
      // Stopped (cancelled, or the runner closing) or the pool closed: the attempt stores nothing.
      if (!report) throw job.signal.reason ?? new RunnerClosing();
      await store.finish(job.id, report.status, await compressReport(report.json));
      qualityCrashPoints.afterReport?.(job.id);
      return null;
    },
    async forget(job) {
      await (await records).delete(job.id);
    },
  });
  const resubmitted = records.then(async (store) =>
    queue.resubmit(
      (await store.unfinished()).map((record) => ({ ...record, input: {} })),
      (error, id) => log.error({ err: error, job: id }, 'quality job could not be submitted again'),
    ),
  );
  resubmitted.catch(() => {});
  services.set(context, { records, queue, pool, options });
  context.metrics.gauge(
    'glossa_quality_jobs_queued',
    'Quality-evaluation jobs waiting to be evaluated, on every instance that shares the storage.',
    () => context.jobs.count([QUALITY_JOB_KIND], ['queued']),
  );
  context.metrics.gauge(
    'glossa_quality_jobs_running',
    'Quality-evaluation jobs being evaluated, on every instance that shares the storage.',
    () => context.jobs.count([QUALITY_JOB_KIND], ['running']),
  );
  context.metrics.gauge(
    'glossa_quality_threads',
    'Worker threads of quality evaluation alive in this instance (evaluating, or idle for the next one).',
    () => pool.stats().threads,
  );
  context.metrics.gauge(
    'glossa_quality_sync_running',
    'Synchronous quality evaluations (POST /v3/quality/evaluate) being evaluated by this instance.',
    () => pool.stats().syncRunning,
  );
  context.metrics.gauge(
    'glossa_quality_sync_waiting',
    'Synchronous quality evaluations waiting for a thread in this instance.',
    () => pool.stats().syncWaiting,
  );
  return {
    async close() {
      services.delete(context);
      await resubmitted.catch(() => {});
      await pool.close();
      await (await records.catch(() => undefined))?.close();
    },
  };
}

/** The server's job records; a 503 when their storage did not start (a database that does not answer). */
export async function qualityRecordsOf(context: ServiceContext): Promise<QualityRecords> {
  try {
    return await qualityServiceOf(context).records;
  } catch {
    throw new ServiceError(503, 'Quality evaluation is not available: its database does not answer.');
  }
}

/** The server's quality evaluation: its records, its jobs' queue, its threads and its options. */
export function qualityServiceOf(context: ServiceContext): QualityService {
  const service = services.get(context);
  if (!service) throw new Error('The quality-evaluation jobs were not started for this server.');
  return service;
}
