/**
 * The quality-evaluation jobs of a running server, started by the feature once the service context exists
 * and closed with the server; the routes find them through the context.
 *
 * Without `databaseUrl` (the embedded default): `quality.sqlite` in the data directory, run by this process
 * (sqlite-jobs.ts). With `databaseUrl` (a fleet): PostgreSQL and pg-boss (pg-jobs.ts), so that a job
 * submitted through one instance is polled through any, and outlives the instance that runs it.
 */
import type { ServiceContext } from '@glossa/server/feature';
import { ServiceError } from '@glossa/server/feature';
import { DEFAULT_QUALITY_OPTIONS, type ResolvedQualityOptions } from './options.js';
import { startPgQualityJobs } from './pg-jobs.js';
import { type EvaluationPool, startEvaluationPool } from './pool.js';
import { openQualityJobs } from './sqlite-jobs.js';
import type { QualityJobs } from './store.js';

export interface QualityServiceLog {
  warn(detail: Record<string, unknown>, message: string): void;
  error(detail: Record<string, unknown>, message: string): void;
}

interface QualityService {
  readonly jobs: Promise<QualityJobs>;
  /** The worker threads of the jobs and of the synchronous alias. */
  readonly pool: EvaluationPool;
  readonly options: ResolvedQualityOptions;
}

const services = new WeakMap<ServiceContext, QualityService>();

/**
 * Starts the evaluation threads' pool, opens the jobs' storage, starts running them and adds their gauges to
 * the metrics; `close` stops them.
 */
export function startQualityJobs(
  context: ServiceContext,
  log: QualityServiceLog,
  options: ResolvedQualityOptions = DEFAULT_QUALITY_OPTIONS,
): { close(): Promise<void> } {
  const url = context.options.databaseUrl;
  const pool = startEvaluationPool(options);
  const starting =
    url === undefined
      ? Promise.resolve(
          openQualityJobs(
            context.options.dataDir,
            (error) => log.error({ err: error }, 'quality job storage failed'),
            pool,
          ),
        )
      : startPgQualityJobs(url, {
          logWarning: (message, detail) => log.warn(detail ?? {}, message),
          evaluations: pool,
        });
  starting.catch((error) => log.error({ err: error }, 'quality job storage could not start'));
  services.set(context, { jobs: starting, pool, options });
  const counts = async () => (await qualityJobsOf(context)).counts();
  context.metrics.gauge(
    'glossa_quality_jobs_queued',
    'Quality-evaluation jobs waiting to be evaluated, on every instance that shares the storage.',
    async () => (await counts()).queued,
  );
  context.metrics.gauge(
    'glossa_quality_jobs_running',
    'Quality-evaluation jobs being evaluated, on every instance that shares the storage.',
    async () => (await counts()).running,
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
      const jobs = await starting.catch(() => undefined);
      await jobs?.close();
      await pool.close();
    },
  };
}

/** The server's jobs; a 503 when their storage did not start (a database that does not answer). */
export async function qualityJobsOf(context: ServiceContext): Promise<QualityJobs> {
  try {
    return await qualityServiceOf(context).jobs;
  } catch {
    throw new ServiceError(503, 'Quality evaluation is not available: its database does not answer.');
  }
}

/** The server's quality evaluation: its jobs, its threads and its options. */
export function qualityServiceOf(context: ServiceContext): QualityService {
  const service = services.get(context);
  if (!service) throw new Error('The quality-evaluation jobs were not started for this server.');
  return service;
}
