/**
 * Quality evaluation at the public description's paths (closed alpha; accounts flagged for it, else 403):
 * `POST /v1/quality-evaluation` accepts `{metadata: {source_language, target_language}, segments: [{source,
 * target}]}` and answers 202 `{job_id, poll_url}`; `GET /v1/quality-evaluation/{job_id}` answers 202
 * `{job_id, status: 'processing'}` (with `Retry-After`) until the checks are done, then 200 with the report
 * (`segments[].errors[]` in the public typology, with spans on both sides, and a `summary`), or 200 with
 * `status: 'error'` when the evaluation failed. The checks are those of `/v3/quality/evaluate` (the
 * synchronous alias). Jobs are kept in the memory of the server that accepted them, for 24 hours after they
 * finish; a poll for another account's job, an unknown or an expired one is a 404.
 */
import { randomUUID } from 'node:crypto';
import {
  canonicalLanguage,
  ENDPOINTS,
  ERROR_CODES,
  type EvaluationSeverity,
  type QualityEvaluationDone,
  type QualityEvaluationFailed,
} from '@glossa/protocol';
import { type DetailedQualityIssue, evaluateSegmentsDetailed } from '@glossa/quality';
import type { ServiceContext } from '@glossa/server/feature';
import { badRequest, defineRoute, notFound, type Route, ServiceError } from '@glossa/server/feature';
import { spellingCheckFor } from './spelling.js';

/** How long a finished job can be polled. */
export const EVALUATION_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Jobs an account may hold at once (running, or finished and not yet expired): they live in memory. */
export const MAX_EVALUATION_JOBS_PER_ACCOUNT = 1000;
/** Seconds the 202 answers suggest waiting before the next poll. */
const RETRY_AFTER_SECONDS = 1;

type Report = QualityEvaluationDone | QualityEvaluationFailed;

interface Job {
  readonly accountId: string;
  report?: Report;
  /** When the job finished (ms since the epoch); it is dropped `EVALUATION_RETENTION_MS` later. */
  finishedAt?: number;
}

const stores = new WeakMap<ServiceContext, Map<string, Job>>();

function jobsOf(context: ServiceContext): Map<string, Job> {
  let jobs = stores.get(context);
  if (!jobs) {
    jobs = new Map();
    stores.set(context, jobs);
  }
  const now = Date.now();
  for (const [id, job] of jobs) {
    if (job.finishedAt !== undefined && now - job.finishedAt > EVALUATION_RETENTION_MS) jobs.delete(id);
  }
  return jobs;
}

export const submitQualityEvaluationRoute: Route = {
  ...defineRoute(ENDPOINTS.submitQualityEvaluation, async ({ body, caller, context, reply }) => {
    const { source_language, target_language } = body.metadata;
    const sourceLang = canonicalLanguage(source_language);
    const targetLang = canonicalLanguage(target_language);
    if (!sourceLang || !targetLang) {
      const which = sourceLang
        ? `target_language '${target_language}'`
        : `source_language '${source_language}'`;
      throw badRequest(
        `The source_language / target_language combination is not supported: unknown metadata.${which}.`,
      );
    }
    const jobs = jobsOf(context);
    let held = 0;
    for (const job of jobs.values()) if (job.accountId === caller.account.id) held++;
    if (held >= MAX_EVALUATION_JOBS_PER_ACCOUNT) {
      throw new ServiceError(
        429,
        `Too many quality-evaluation jobs: an account holds at most ${MAX_EVALUATION_JOBS_PER_ACCOUNT} (a finished job is kept 24 hours).`,
        ERROR_CODES.tooManyRequests,
      );
    }
    const id = randomUUID();
    const job: Job = { accountId: caller.account.id };
    jobs.set(id, job);
    const segments = body.segments.map(({ source, target }) => ({ source, translation: target }));
    // The checks run after the answer: the job is `processing` until then.
    setImmediate(() => {
      evaluate(id, sourceLang, targetLang, segments).then((report) => {
        job.report = report;
        job.finishedAt = Date.now();
      });
    });
    reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return { job_id: id, poll_url: `/v1/quality-evaluation/${id}` };
  }),
  // Up to 500 segments of 2 × 10,000 characters (JSON-escaped): more than the default 1 MiB.
  bodyLimit: 64 * 1024 * 1024,
};

export const pollQualityEvaluationRoute: Route = defineRoute(
  ENDPOINTS.pollQualityEvaluation,
  async ({ params, caller, context, reply }) => {
    const id = params.job_id;
    if (!UUID.test(id)) throw badRequest('job_id must be a valid UUID.');
    const job = jobsOf(context).get(id.toLowerCase());
    if (!job || job.accountId !== caller.account.id) throw notFound('Quality estimation job not found.');
    if (job.report) return job.report;
    return reply
      .code(202)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .send({ job_id: id.toLowerCase(), status: 'processing' });
  },
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function evaluate(
  id: string,
  sourceLang: string,
  targetLang: string,
  segments: { source: string; translation: string }[],
): Promise<Report> {
  try {
    const spelling = await spellingCheckFor(targetLang, segments);
    const results = evaluateSegmentsDetailed(segments, {
      sourceLang,
      targetLang,
      ...(spelling ? { spelling } : {}),
    });
    return { job_id: id, status: 'done', ...reportOf(results) };
  } catch (error) {
    return {
      job_id: id,
      status: 'error',
      error: { code: 'evaluation_failed', message: `The evaluation failed: ${(error as Error).message}` },
    };
  }
}

/** Points a segment loses per issue of each severity (a segment scores at least 0). */
export const SEVERITY_PENALTY: Readonly<Record<EvaluationSeverity, number>> = {
  Critical: 25,
  Major: 10,
  Minor: 2,
};

const PUBLIC_SEVERITY = { critical: 'Critical', major: 'Major', minor: 'Minor' } as const;

/**
 * The report of a job: each segment's errors in the public typology, and the summary: `overall_score` is the
 * mean over segments of 100 minus the segment's penalties (`SEVERITY_PENALTY`, at least 0), rounded;
 * `granular_counts` counts the errors by type, sub-type and severity.
 */
export function reportOf(results: readonly (readonly DetailedQualityIssue[])[]): {
  segments: QualityEvaluationDone['segments'];
  summary: QualityEvaluationDone['summary'];
} {
  const counts: Record<string, Record<string, Record<string, number>>> = {};
  let scores = 0;
  const segments = results.map((issues, index) => {
    let penalty = 0;
    const errors = issues.map((issue) => {
      const severity = PUBLIC_SEVERITY[issue.severity];
      penalty += SEVERITY_PENALTY[severity];
      counts[issue.kind.type] ??= {};
      const byType = counts[issue.kind.type]!;
      byType[issue.kind.subType] ??= {};
      const bySubType = byType[issue.kind.subType]!;
      bySubType[severity] = (bySubType[severity] ?? 0) + 1;
      return {
        type: issue.kind.type,
        sub_type: issue.kind.subType,
        severity,
        explanation: issue.message,
        source_spans: issue.sourceSpans.map(({ start, end }) => ({ start, end })),
        target_spans: issue.targetSpans.map(({ start, end }) => ({ start, end })),
      };
    });
    scores += Math.max(0, 100 - penalty);
    return { segment_index: index, errors };
  });
  return {
    segments,
    summary: {
      overall_score: results.length === 0 ? 100 : Math.round(scores / results.length),
      granular_counts: counts,
    },
  };
}
