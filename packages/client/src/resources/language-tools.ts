/** Text improvement (rephrase, correct), language detection and quality evaluation. */

import type { DetectResponse, QualityEvaluateResponse, WriteResponse } from '@glossa/protocol';
import type { RequestOptions } from '../options.js';
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
