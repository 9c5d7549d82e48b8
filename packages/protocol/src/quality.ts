import { type Static, Type } from '@sinclair/typebox';
import { LanguageCode, StringEnum, Uuid } from './common.js';

/** Issue categories of quality evaluation. */
export const QUALITY_CATEGORIES = [
  'accuracy',
  'untranslated',
  'terminology',
  'markup',
  'placeholder',
  'number',
  'punctuation',
  'whitespace',
  'spelling',
  'grammar',
  'length',
] as const;
export type QualityCategory = (typeof QUALITY_CATEGORIES)[number];

export const QUALITY_SEVERITIES = ['minor', 'major', 'critical'] as const;
export type QualitySeverity = (typeof QUALITY_SEVERITIES)[number];

/** POST /v3/quality/evaluate body. */
export const QualityEvaluateRequest = Type.Object(
  {
    source_lang: LanguageCode,
    target_lang: LanguageCode,
    segments: Type.Array(
      Type.Object({ source: Type.String(), translation: Type.String() }, { additionalProperties: false }),
      { minItems: 1 },
    ),
    glossary_id: Type.Optional(Uuid),
  },
  { $id: 'QualityEvaluateRequest', additionalProperties: false },
);
export type QualityEvaluateRequest = Static<typeof QualityEvaluateRequest>;

/**
 * An issue; `start`/`end` are code-point offsets into the translation (end exclusive); `check` names the
 * check that found it (`missing_tag`, `spelling`: the names of `@glossa/quality`, more may be added).
 */
export const QualityIssue = Type.Object({
  category: StringEnum(QUALITY_CATEGORIES),
  severity: StringEnum(QUALITY_SEVERITIES),
  message: Type.String(),
  start: Type.Integer({ minimum: 0 }),
  end: Type.Integer({ minimum: 0 }),
  check: Type.String({
    description: 'The check that found the issue, e.g. missing_tag (more may be added).',
  }),
});
export type QualityIssue = Static<typeof QualityIssue>;

/** One entry per request segment, in order. */
export const QualityEvaluateResponse = Type.Object(
  { segments: Type.Array(Type.Object({ issues: Type.Array(QualityIssue) })) },
  { $id: 'QualityEvaluateResponse' },
);
export type QualityEvaluateResponse = Static<typeof QualityEvaluateResponse>;

/** Limits the public description sets on a quality-evaluation job. */
export const MAX_EVALUATION_SEGMENTS = 500;
export const MAX_EVALUATION_SEGMENT_LENGTH = 10_000;

const NonEmpty = Type.String({ minLength: 1 });
const SegmentText = Type.String({ maxLength: MAX_EVALUATION_SEGMENT_LENGTH });

/** POST /v1/quality-evaluation body (the public description's shape). */
export const QualityEvaluationRequest = Type.Object(
  {
    metadata: Type.Object({ source_language: NonEmpty, target_language: NonEmpty }),
    segments: Type.Array(Type.Object({ source: SegmentText, target: SegmentText }), {
      minItems: 1,
      maxItems: MAX_EVALUATION_SEGMENTS,
    }),
  },
  { $id: 'QualityEvaluationRequest' },
);
export type QualityEvaluationRequest = Static<typeof QualityEvaluationRequest>;

const JobId = Type.String({ format: 'uuid' });
const Span = Type.Object({ start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }) });

/** Severities in the public typology. */
export const EVALUATION_SEVERITIES = ['Critical', 'Major', 'Minor'] as const;
export type EvaluationSeverity = (typeof EVALUATION_SEVERITIES)[number];

/** The 202 answer to a submitted job. */
export const QualityEvaluationJobCreated = Type.Object(
  { job_id: JobId, poll_url: Type.String() },
  { $id: 'QualityEvaluationJobCreated' },
);
export type QualityEvaluationJobCreated = Static<typeof QualityEvaluationJobCreated>;

const QualityEvaluationProcessing = Type.Object({ job_id: JobId, status: Type.Literal('processing') });
const QualityEvaluationIssue = Type.Object({
  type: Type.String(),
  sub_type: Type.String(),
  severity: Type.Union(EVALUATION_SEVERITIES.map((severity) => Type.Literal(severity))),
  explanation: Type.String(),
  source_spans: Type.Array(Span),
  target_spans: Type.Array(Span),
});
const QualityEvaluationDone = Type.Object({
  job_id: JobId,
  status: Type.Literal('done'),
  segments: Type.Array(
    Type.Object({ segment_index: Type.Integer({ minimum: 0 }), errors: Type.Array(QualityEvaluationIssue) }),
  ),
  summary: Type.Object({
    overall_score: Type.Integer({ minimum: 0, maximum: 100 }),
    granular_counts: Type.Record(
      Type.String(),
      Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer())),
    ),
  }),
});
export type QualityEvaluationDone = Static<typeof QualityEvaluationDone>;
const QualityEvaluationFailed = Type.Object({
  job_id: JobId,
  status: Type.Literal('error'),
  error: Type.Object({ code: Type.Literal('evaluation_failed'), message: Type.String() }),
});
export type QualityEvaluationFailed = Static<typeof QualityEvaluationFailed>;

/** GET /v1/quality-evaluation/{job_id}: still processing (202), the report, or the evaluation's failure. */
export const QualityEvaluationPoll = Type.Union(
  [QualityEvaluationDone, QualityEvaluationFailed, QualityEvaluationProcessing],
  { $id: 'QualityEvaluationPoll' },
);
export type QualityEvaluationPoll = Static<typeof QualityEvaluationPoll>;
