/**
 * The work of a quality-evaluation job, whichever backend holds it: the checks of `@glossa/quality` with the
 * target language's spelling check, and the report in the public typology.
 */
import type {
  EvaluationSeverity,
  QualityEvaluateResponse,
  QualityEvaluationDone,
  QualityEvaluationFailed,
} from '@glossa/protocol';
import {
  type DetailedQualityIssue,
  evaluateSegments,
  evaluateSegmentsDetailed,
  type GlossaryTerm,
} from '@glossa/quality';
import { type HunspellCheck, spellingCheckFor } from './spelling.js';

/** What a job's report is: done (the errors and a summary) or failed. */
export type QualityReport = QualityEvaluationDone | QualityEvaluationFailed;

/** What a job evaluates (stored with the job, so that any instance, or this one restarted, can run it). */
export interface QualityRequest {
  readonly sourceLang: string;
  readonly targetLang: string;
  readonly segments: readonly { readonly source: string; readonly translation: string }[];
}

/**
 * Runs the checks of a job; a failure is a report too (`status: 'error'`), never a rejection. The jobs run
 * it in a worker thread (pool.ts), whose Hunspell words are checked by the main thread's processes.
 */
export async function evaluate(
  id: string,
  request: QualityRequest,
  hunspell?: HunspellCheck,
): Promise<QualityReport> {
  const { sourceLang, targetLang, segments } = request;
  try {
    const spelling = await spellingCheckFor(targetLang, segments, hunspell);
    const results = evaluateSegmentsDetailed(segments, {
      sourceLang,
      targetLang,
      ...(spelling ? { spelling } : {}),
    });
    return { job_id: id, status: 'done', ...reportOf(results) };
  } catch (error) {
    return failedReport(id, (error as Error).message);
  }
}

/** What the synchronous alias (`POST /v3/quality/evaluate`) evaluates: a job's request and a glossary's terms. */
export interface SyncQualityRequest extends QualityRequest {
  readonly glossary?: readonly GlossaryTerm[];
}

/** The spelling check of a synchronous evaluation could not be had (a Hunspell process failed): a 503. */
export class SpellingCheckFailed extends Error {}

/**
 * The checks of the synchronous alias: each segment's issues, as its answer has them. Run on a worker thread
 * (pool.ts), or on the event loop with `syncOnEventLoop`.
 */
export async function evaluateSync(
  request: SyncQualityRequest,
  hunspell?: HunspellCheck,
): Promise<QualityEvaluateResponse> {
  const { sourceLang, targetLang, segments, glossary } = request;
  let spelling: Awaited<ReturnType<typeof spellingCheckFor>>;
  try {
    spelling = await spellingCheckFor(targetLang, segments, hunspell);
  } catch (error) {
    throw new SpellingCheckFailed((error as Error).message, { cause: error });
  }
  const results = evaluateSegments(segments, {
    sourceLang,
    targetLang,
    ...(glossary ? { glossary } : {}),
    ...(spelling ? { spelling } : {}),
  });
  return {
    segments: results.map((issues) => ({
      issues: issues.map(({ category, severity, message, start, end, check }) => ({
        category,
        severity,
        message,
        start,
        end,
        check,
      })),
    })),
  };
}

/** The report of a job whose evaluation failed, saying why. */
export function failedReport(id: string, reason: string): QualityEvaluationFailed {
  return {
    job_id: id,
    status: 'error',
    error: { code: 'evaluation_failed', message: `The evaluation failed: ${reason}` },
  };
}

/** A report as the jobs store it: JSON, in UTF-8. */
export function utf8Json(report: QualityReport): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(report));
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
