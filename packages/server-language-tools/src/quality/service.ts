/**
 * The quality-evaluation jobs of a running server, started by the feature once the service context exists
 * and closed with the server; the routes find them through the context.
 *
 * A job is a job of kind `quality/evaluate` on the server's job runner (`context.jobs`), which holds its
 * request and its report as job files and enforces the per-account limit: claimed fairly between accounts,
 * taken over from a dead instance, stopped when it is cancelled or its runner closes.
 */
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { JobQueue, ServiceContext } from '@glossa/server/feature';
import { JobFailed, RunnerClosing } from '@glossa/server/feature';
import { failedReport, utf8Json } from './evaluate.js';
import { DEFAULT_QUALITY_OPTIONS, type ResolvedQualityOptions } from './options.js';
import { type EvaluationPool, startEvaluationPool } from './pool.js';

/** The job kind of quality evaluations on the server's runner. */
export const QUALITY_JOB_KIND = 'quality/evaluate';
/** Jobs one instance evaluates at a time, each on a worker thread (pool.ts). */
const CONCURRENCY = 2;
/** How long a finished job can be polled. */
const EVALUATION_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Jobs an account may hold at once (queued, running, or finished and not yet expired). */
const MAX_EVALUATION_JOBS_PER_ACCOUNT = 1000;
/**
 * Runs of a job at most: a job whose process died this many times while running it (a restart, or a kill
 * on a fleet) is not run again but fails, so that a job which kills its process cannot kill every instance.
 */
export const MAX_EVALUATION_ATTEMPTS = 3;

/**
 * Requests and reports are stored gzip-compressed: at the input limits a request is 10 MB of JSON, a report
 * some 80 MB, about 4 MB compressed. Both run on libuv's thread pool, not on the event loop.
 */
export const compressReport: (json: Uint8Array) => Promise<Buffer> = promisify(gzip);
export const decompressReport: (stored: Uint8Array) => Promise<Buffer> = promisify(gunzip);

/** The job files: what to evaluate, and the report. */
export const REQUEST_FILE = 'request';
export const REPORT_FILE = 'report';

/**
 * Test hooks of the crash tests (quality-jobs-crash.test.ts), which kill the process there: `evaluating`
 * once a job's evaluation started on its thread; `afterReport` once its report is stored, before the
 * runner completes the job. Unset in a server.
 */
export const qualityCrashPoints: {
  evaluating?: (id: string, attempt: number) => void;
  afterReport?: (id: string) => void;
} = {};

/**
 * A job's input: its segments' characters (both sides), for the memory its evaluation reserves (absent in
 * jobs of earlier versions: the most a job may have). The request and the report are in its files.
 */
type QualityQueue = JobQueue<{ readonly characters?: number }, never, null>;

/** The server's quality evaluation: the jobs' queue, the threads (jobs and synchronous alias), options. */
type QualityService = { queue: QualityQueue; pool: EvaluationPool; options: ResolvedQualityOptions };
const services = new WeakMap<ServiceContext, QualityService>();

/**
 * Starts the evaluation threads' pool, registers the job kind and adds the gauges to the metrics; `close`
 * stops them.
 */
export function startQualityJobs(
  context: ServiceContext,
  options: ResolvedQualityOptions = DEFAULT_QUALITY_OPTIONS,
): { close(): Promise<void> } {
  const pool = startEvaluationPool(options);
  const queue: QualityQueue = context.jobs.register({
    name: QUALITY_JOB_KIND,
    concurrency: CONCURRENCY,
    resultTtlMs: EVALUATION_RETENTION_MS,
    maxPerAccount: MAX_EVALUATION_JOBS_PER_ACCOUNT,
    async run(job) {
      // Stored already: an attempt killed between its report and the job's completion.
      if (await job.file(REPORT_FILE)) return null;
      if (job.attempt > MAX_EVALUATION_ATTEMPTS) {
        const abandoned = failedReport(
          job.id,
          `the server running it stopped ${MAX_EVALUATION_ATTEMPTS} times.`,
        );
        await job.writeFile(REPORT_FILE, await compressReport(utf8Json(abandoned)));
        return null;
      }
      const request = await job.file(REQUEST_FILE);
      // A job of a record unfinished when its server was upgraded to job files.
      if (!request) throw new JobFailed('its request was not kept across an upgrade of the server.');
      const evaluation = pool.evaluate(job.id, request, job.signal, job.input.characters);
      qualityCrashPoints.evaluating?.(job.id, job.attempt);
      const report = await evaluation;
      // Stopped (cancelled, or the runner closing) or the pool closed: the attempt stores nothing.
      if (!report) throw job.signal.reason ?? new RunnerClosing();
      await job.writeFile(REPORT_FILE, await compressReport(report.json));
      qualityCrashPoints.afterReport?.(job.id);
      return null;
    },
  });
  services.set(context, { queue, pool, options });
  for (const [name, help, state] of [
    ['glossa_quality_jobs_queued', 'Quality-evaluation jobs waiting to be evaluated', 'queued'],
    ['glossa_quality_jobs_running', 'Quality-evaluation jobs being evaluated', 'running'],
  ] as const)
    context.metrics.gauge(name, `${help}, on every instance that shares the storage.`, () =>
      context.jobs.count([QUALITY_JOB_KIND], [state]),
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
      await pool.close();
    },
  };
}

export function qualityServiceOf(context: ServiceContext): QualityService {
  const service = services.get(context);
  if (!service) throw new Error('The quality-evaluation jobs were not started for this server.');
  return service;
}
