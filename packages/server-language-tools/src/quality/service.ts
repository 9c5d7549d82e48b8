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
import { startPgQualityJobs } from './pg-jobs.js';
import { openQualityJobs } from './sqlite-jobs.js';
import type { QualityJobs } from './store.js';

export interface QualityServiceLog {
  warn(detail: Record<string, unknown>, message: string): void;
  error(detail: Record<string, unknown>, message: string): void;
}

const services = new WeakMap<ServiceContext, Promise<QualityJobs>>();

/** Opens the jobs' storage, starts running them and adds their gauges to the metrics; `close` stops them. */
export function startQualityJobs(
  context: ServiceContext,
  log: QualityServiceLog,
): { close(): Promise<void> } {
  const url = context.options.databaseUrl;
  const starting =
    url === undefined
      ? Promise.resolve(
          openQualityJobs(context.options.dataDir, (error) =>
            log.error({ err: error }, 'quality job storage failed'),
          ),
        )
      : startPgQualityJobs(url, {
          logWarning: (message, detail) => log.warn(detail ?? {}, message),
        });
  starting.catch((error) => log.error({ err: error }, 'quality job storage could not start'));
  services.set(context, starting);
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
  return {
    async close() {
      services.delete(context);
      const jobs = await starting.catch(() => undefined);
      await jobs?.close();
    },
  };
}

/** The server's jobs; a 503 when their storage did not start (a database that does not answer). */
export async function qualityJobsOf(context: ServiceContext): Promise<QualityJobs> {
  const starting = services.get(context);
  if (!starting) throw new Error('The quality-evaluation jobs were not started for this server.');
  try {
    return await starting;
  } catch {
    throw new ServiceError(503, 'Quality evaluation is not available: its database does not answer.');
  }
}
