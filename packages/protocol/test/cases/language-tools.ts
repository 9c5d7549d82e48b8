import { type EndpointCases, edit, G1 } from './types.js';

const rephrase = { text: ["We don't think it's ready."], target_lang: 'en-US', writing_style: 'academic' };
const correct = { text: ['This are a example.'], target_lang: 'EN-gb' };
const detect = { text: ['Das ist ein ganz normaler deutscher Satz.', 'Buenos días a todos'] };
const quality = {
  source_lang: 'en',
  target_lang: 'es',
  segments: [
    {
      source: 'Click <b>Save</b> to keep 25 files.',
      translation: 'Haga clic en Guardar para conservar 52 archivos.',
    },
  ],
  glossary_id: G1,
};
const evaluation = {
  metadata: { source_language: 'en', target_language: 'es' },
  segments: [{ source: 'Keep 25 files.', target: 'Conserve 52 archivos.' }],
};
const JOB = '6f1c2b3a-0000-4000-8000-000000000007';
const improvements = {
  improvements: [
    { text: 'We do not think it is ready.', detected_source_language: 'en', target_language: 'en-US' },
  ],
};
const writeTargets =
  "'de', 'en-GB', 'en-US', 'es', 'fr', 'it', 'ja', 'ko', 'pt-BR', 'pt-PT', 'zh', 'zh-Hans'";

export const LANGUAGE_TOOL_CASES = {
  rephraseText: {
    valid: { body: rephrase },
    response: improvements,
    accepts: [
      {
        part: 'body',
        value: edit(rephrase, { writing_style: undefined, tone: 'prefer_friendly' }),
        why: 'a prefer_ tone',
      },
      { part: 'body', value: edit(rephrase, { target_lang: 'ZH-hans' }), why: 'target in any case' },
    ],
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(rephrase, { text: undefined }),
        message: "Missing required parameter 'text'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(rephrase, { text: [42] }),
        message: "Parameter 'text[0]' must be a string.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(rephrase, { target_lang: 'xx' }),
        message: `Value for 'target_lang' not supported. Expected one of: ${writeTargets}.`,
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(rephrase, { writing_style: 'poetic' }),
        message:
          "Value for 'writing_style' not supported. Expected one of: 'default', 'simple', 'business', 'academic', 'casual', 'prefer_simple', 'prefer_business', 'prefer_academic', 'prefer_casual'.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(rephrase, { writing_style: undefined, tone: 'angry' }),
        message:
          "Value for 'tone' not supported. Expected one of: 'default', 'enthusiastic', 'friendly', 'confident', 'diplomatic', 'prefer_enthusiastic', 'prefer_friendly', 'prefer_confident', 'prefer_diplomatic'.",
      },
    ],
  },
  correctText: {
    valid: { body: correct },
    response: improvements,
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(correct, { target_lang: undefined }),
        message: "Missing required parameter 'target_lang'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(correct, { target_lang: 7 }),
        message: "Parameter 'target_lang' must be a string.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(correct, { target_lang: 'en' }),
        message: `Value for 'target_lang' not supported. Expected one of: ${writeTargets}.`,
      },
      {
        kind: 'unknown',
        part: 'body',
        value: edit(correct, { tone: 'friendly' }),
        message: "Unknown parameter 'tone'.",
      },
    ],
  },
  detectLanguage: {
    valid: { body: detect },
    response: {
      results: [
        { detection_status: 'success', detected_language: 'de' },
        { detection_status: 'insufficient_confidence' },
      ],
    },
    accepts: [
      {
        part: 'body',
        value: { text: Array(50).fill('hello world') },
        why: '50 texts (the bound)',
        bounds: ['text'],
      },
    ],
    rejects: [
      { kind: 'missing', part: 'body', value: {}, message: "Missing required parameter 'text'." },
      { kind: 'type', part: 'body', value: { text: 'hello' }, message: "Parameter 'text' must be an array." },
      {
        kind: 'limit',
        part: 'body',
        value: { text: Array(51).fill('hello world') },
        message: "Parameter 'text' has too many items (at most 50).",
      },
      { kind: 'limit', part: 'body', value: { text: [] }, message: "Parameter 'text' must not be empty." },
    ],
  },
  evaluateQuality: {
    valid: { body: quality },
    response: {
      segments: [
        {
          issues: [
            {
              category: 'markup',
              severity: 'major',
              message: 'Tag <b> is missing.',
              start: 13,
              end: 20,
              check: 'missing_tag',
            },
            {
              category: 'number',
              severity: 'critical',
              message: '25 became 52.',
              start: 36,
              end: 38,
              check: 'number_mismatch',
            },
          ],
        },
      ],
    },
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(quality, { segments: undefined }),
        message: "Missing required parameter 'segments'.",
      },
      {
        kind: 'missing',
        part: 'body',
        value: edit(quality, { segments: [{ source: 'a' }] }),
        message: "Missing required parameter 'segments[0].translation'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(quality, { segments: { source: 'a', translation: 'b' } }),
        message: "Parameter 'segments' must be an array.",
      },
      {
        kind: 'format',
        part: 'body',
        value: edit(quality, { glossary_id: 'g1' }),
        message: "Parameter 'glossary_id' must be a UUID.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(quality, { segments: [] }),
        message: "Parameter 'segments' must not be empty.",
      },
    ],
  },
  submitQualityEvaluation: {
    valid: { body: evaluation },
    response: { job_id: JOB, poll_url: `/v1/quality-evaluation/${JOB}` },
    accepts: [
      {
        part: 'body',
        value: edit(evaluation, {
          segments: Array.from({ length: 500 }, () => ({
            source: 'a'.repeat(10_000),
            target: 'b'.repeat(10_000),
          })),
        }),
        why: "the description's limits, exactly",
        bounds: ['segments', 'segments[0].source', 'segments[0].target'],
      },
    ],
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(evaluation, { metadata: undefined }),
        message: "Missing required parameter 'metadata'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(evaluation, { segments: { source: 'a', target: 'b' } }),
        message: "Parameter 'segments' must be an array.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(evaluation, {
          segments: Array.from({ length: 501 }, () => ({ source: 'a', target: 'b' })),
        }),
        message: "Parameter 'segments' has too many items (at most 500).",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(evaluation, { segments: [{ source: 'a'.repeat(10_001), target: 'b' }] }),
        message: "Parameter 'segments[0].source' is too long (at most 10000 characters).",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(evaluation, { segments: [{ source: 'a', target: 'b'.repeat(10_001) }] }),
        message: "Parameter 'segments[0].target' is too long (at most 10000 characters).",
      },
    ],
  },
  pollQualityEvaluation: {
    valid: { params: { job_id: JOB } },
    rejects: [
      { kind: 'missing', part: 'params', value: {}, message: "Missing required parameter 'job_id'." },
      { kind: 'type', part: 'params', value: { job_id: 3 }, message: "Parameter 'job_id' must be a string." },
    ],
    response: {
      job_id: JOB,
      status: 'done',
      segments: [
        {
          segment_index: 0,
          errors: [
            {
              type: 'accuracy',
              sub_type: 'number',
              severity: 'Critical',
              explanation: '25 became 52.',
              source_spans: [{ start: 5, end: 7 }],
              target_spans: [{ start: 9, end: 11 }],
            },
          ],
        },
      ],
      summary: { overall_score: 75, granular_counts: { accuracy: { number: { Critical: 1 } } } },
    },
  },
} satisfies Record<string, EndpointCases>;
