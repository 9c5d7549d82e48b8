/** Text improvement (rephrase, correct), language detection and quality evaluation. */

import type {
  DetectResponse,
  QualityEvaluateResponse,
  QualityEvaluationDone,
  QualityEvaluationJobCreated,
  QualityEvaluationPoll,
  WriteResponse,
} from '@glossa/protocol';
import { JobFailedError } from '../errors.js';
import type { RequestOptions } from '../options.js';
import { type PollOptions, pollUntilDone } from '../polling.js';
import { requestOptionsOf } from '../translate.js';
import type { Transport } from '../transport.js';
import { requireString, textList, toWire } from '../wire-names.js';

export interface RephraseOptions extends RequestOptions {
  /** The text's own language (or a variant of it): `de`, `en-GB`, `en-US`, ... */
  targetLang: string;
  /** `business`, `academic`, `casual`, `simple`, or `prefer_*`. Not together with `tone`. */
  writingStyle?: string | undefined;
  /** `friendly`, `confident`, `diplomatic`, `enthusiastic`, or `prefer_*`. Not together with `writingStyle`. */
  tone?: string | undefined;
}

export interface CorrectOptions extends RequestOptions {
  targetLang: string;
}

export async function improveText(
  transport: Transport,
  mode: 'rephrase' | 'correct',
  texts: string | readonly string[],
  options: RephraseOptions | CorrectOptions,
): Promise<WriteResponse> {
  const text = textList('texts', texts);
  requireString('targetLang', options?.targetLang);
  const names =
    mode === 'rephrase' ? (['targetLang', 'writingStyle', 'tone'] as const) : (['targetLang'] as const);
  const body: Record<string, unknown> = { text, ...toWire(options, names) };
  if (body['writing_style'] !== undefined && body['tone'] !== undefined) {
    throw new TypeError('Expected either `writingStyle` or `tone`, not both');
  }
  return transport.request<WriteResponse>({
    method: 'POST',
    path: `/v2/write/${mode}`,
    json: body,
    options: requestOptionsOf(options),
  });
}

export function detectLanguage(
  transport: Transport,
  texts: string | readonly string[],
  options?: RequestOptions,
): Promise<DetectResponse> {
  return transport.request<DetectResponse>({
    method: 'POST',
    path: '/v3/detect/language',
    json: { text: textList('texts', texts) },
    options: requestOptionsOf(options),
  });
}

export interface QualitySegment {
  source: string;
  translation: string;
}

export interface EvaluateQualityOptions extends RequestOptions {
  sourceLang: string;
  targetLang: string;
  segments: QualitySegment[];
  glossaryId?: string | undefined;
}

export function evaluateQuality(
  transport: Transport,
  options: EvaluateQualityOptions,
): Promise<QualityEvaluateResponse> {
  requireString('sourceLang', options?.sourceLang);
  requireString('targetLang', options.targetLang);
  if (!Array.isArray(options.segments) || options.segments.length === 0) {
    throw new TypeError('Expected `segments` to be a non-empty array of {source, translation}');
  }
  return transport.request<QualityEvaluateResponse>({
    method: 'POST',
    path: '/v3/quality/evaluate',
    json: toWire(options, ['sourceLang', 'targetLang', 'segments', 'glossaryId']),
    options: requestOptionsOf(options),
  });
}

export interface QualityEvaluationSegment {
  source: string;
  /** The translation to evaluate. */
  target: string;
}

export interface QualityEvaluationOptions extends RequestOptions {
  sourceLang: string;
  targetLang: string;
  /** At most 500 segments, each side at most 10,000 characters. */
  segments: QualityEvaluationSegment[];
}

/** POST /v1/quality-evaluation: submits a job (closed alpha); poll it with `getQualityEvaluation`. */
export function submitQualityEvaluation(
  transport: Transport,
  options: QualityEvaluationOptions,
): Promise<QualityEvaluationJobCreated> {
  requireString('sourceLang', options?.sourceLang);
  requireString('targetLang', options.targetLang);
  if (!Array.isArray(options.segments) || options.segments.length === 0) {
    throw new TypeError('Expected `segments` to be a non-empty array of {source, target}');
  }
  return transport.request<QualityEvaluationJobCreated>({
    method: 'POST',
    path: '/v1/quality-evaluation',
    json: {
      metadata: { source_language: options.sourceLang, target_language: options.targetLang },
      segments: options.segments.map(({ source, target }) => ({ source, target })),
    },
    options: requestOptionsOf(options),
  });
}

/** GET /v1/quality-evaluation/{job_id}: `processing`, the report (`done`), or the evaluation's `error`. */
export function getQualityEvaluation(
  transport: Transport,
  jobId: string,
  options?: RequestOptions,
): Promise<QualityEvaluationPoll> {
  requireString('jobId', jobId);
  return transport.request<QualityEvaluationPoll>({
    method: 'GET',
    path: `/v1/quality-evaluation/${encodeURIComponent(jobId)}`,
    options: requestOptionsOf(options),
  });
}

/** Submits a quality-evaluation job and polls it until it is done; a failed evaluation is a `JobFailedError`. */
export async function runQualityEvaluation(
  transport: Transport,
  options: QualityEvaluationOptions & Omit<PollOptions, 'signal'>,
): Promise<QualityEvaluationDone> {
  const { job_id: jobId } = await submitQualityEvaluation(transport, options);
  const result = await pollUntilDone(`Quality evaluation ${jobId}`, options, async () => {
    const current = await getQualityEvaluation(transport, jobId, requestOptionsOf(options));
    return { done: current.status !== 'processing', value: current };
  });
  if (result.status === 'error') {
    throw new JobFailedError(`Quality evaluation ${jobId} failed: ${result.error.message}`, jobId);
  }
  if (result.status === 'processing')
    throw new Error('unreachable: polling ends when the job is not processing');
  return result;
}
