import { DetectRequest, DetectResponse } from '../detect.js';
import type { EndpointDefinition } from '../endpoint.js';
import { MAX_WRITE_REQUEST_BYTES } from '../limits.js';
import { QualityEvaluateRequest, QualityEvaluateResponse } from '../quality.js';
import { CorrectRequest, RephraseRequest, WriteResponse } from '../write.js';

/** Text improvement, language detection and quality evaluation. */
export const LANGUAGE_TOOL_ENDPOINTS = {
  rephraseText: {
    method: 'POST',
    path: '/v2/write/rephrase',
    operationId: 'rephraseText',
    billed: true,
    summary: 'Improve text: fix spelling and grammar, rewrite for clarity, style or tone',
    group: 'write',
    access: 'paid',
    body: RephraseRequest,
    encodings: ['json', 'form'],
    maxBodyBytes: MAX_WRITE_REQUEST_BYTES,
    status: 200,
    response: WriteResponse,
    notes: 'writing_style and tone exclude each other: checkWriteRules.',
  },
  correctText: {
    method: 'POST',
    path: '/v2/write/correct',
    operationId: 'correctText',
    billed: true,
    summary: 'Correct text: spelling and grammar with minimal wording changes',
    group: 'write',
    access: 'paid',
    body: CorrectRequest,
    encodings: ['json', 'form'],
    maxBodyBytes: MAX_WRITE_REQUEST_BYTES,
    status: 200,
    response: WriteResponse,
  },
  detectLanguage: {
    method: 'POST',
    path: '/v3/detect/language',
    operationId: 'detectLanguage',
    summary: 'Detect the language of each text (beta)',
    group: 'detect',
    access: 'detection_beta',
    body: DetectRequest,
    encodings: ['json', 'form'],
    status: 200,
    response: DetectResponse,
  },
  evaluateQuality: {
    method: 'POST',
    path: '/v3/quality/evaluate',
    operationId: 'evaluateQuality',
    summary: 'Find issues in translations, with code-point spans (closed alpha)',
    group: 'quality',
    access: 'quality_alpha',
    body: QualityEvaluateRequest,
    encodings: ['json', 'form'],
    status: 200,
    response: QualityEvaluateResponse,
  },
} as const satisfies Record<string, EndpointDefinition>;
