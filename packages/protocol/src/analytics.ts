import { type Static, Type } from '@sinclair/typebox';
import { DateOnly, DateTime, Nullable } from './common.js';
import { MAX_ANALYTICS_RANGE_DAYS } from './limits.js';

/** `aggregate_by` values; an empty value is accepted and means `period`. */
export const AGGREGATE_BY = ['period', 'day'] as const;
export type AggregateBy = (typeof AGGREGATE_BY)[number];

/** GET /v2/admin/analytics/custom-tags query. The range rule is in `checkAnalyticsRange`. */
export const CustomTagUsageQuery = Type.Object(
  {
    start_date: DateOnly,
    end_date: DateOnly,
    aggregate_by: Type.Optional(Type.Union([...AGGREGATE_BY.map((v) => Type.Literal(v)), Type.Literal('')])),
    page: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { $id: 'CustomTagUsageQuery', additionalProperties: false },
);
export type CustomTagUsageQuery = Static<typeof CustomTagUsageQuery>;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The rule a schema cannot say: `end_date` not before `start_date`, and at most 366 days after it
 * (2025-01-01 to 2026-01-02 is 366 days and accepted). Returns the message, or `undefined`.
 */
export function checkAnalyticsRange(
  query: Pick<CustomTagUsageQuery, 'start_date' | 'end_date'>,
): string | undefined {
  const days =
    (Date.parse(`${query.end_date}T00:00:00Z`) - Date.parse(`${query.start_date}T00:00:00Z`)) / DAY_MS;
  if (Number.isNaN(days)) return "Parameters 'start_date' and 'end_date' must be dates (YYYY-MM-DD).";
  if (days < 0) return "Parameter 'end_date' must not be before 'start_date'.";
  if (days > MAX_ANALYTICS_RANGE_DAYS) {
    return `The range from 'start_date' to 'end_date' must not exceed ${MAX_ANALYTICS_RANGE_DAYS} days.`;
  }
  return undefined;
}

export const UsageBreakdown = Type.Object({
  total_characters: Type.Integer({ minimum: 0, description: 'character-based services; excludes voice' }),
  text_translation_characters: Type.Integer({ minimum: 0 }),
  text_improvement_characters: Type.Integer({ minimum: 0 }),
  speech_to_text_minutes: Type.Number({ minimum: 0 }),
  speech_to_speech_minutes: Type.Number({ minimum: 0 }),
});
export type UsageBreakdown = Static<typeof UsageBreakdown>;

export const CustomTagUsage = Type.Object({
  custom_tag: Type.String(),
  usage_date: Type.Optional(DateTime),
  breakdown: UsageBreakdown,
});
export type CustomTagUsage = Static<typeof CustomTagUsage>;

/**
 * Characters one engine (`deepl`, `openai`, `anthropic`, `google`, `libretranslate`, `apertium`,
 * `upstream`, `pseudo`…) was sent for the account: Unicode code points of the texts that reached it without
 * their inline codes, counted for calls that answered; engine outputs the server had cached and
 * translation-memory matches reach no engine and count nothing.
 */
export const EngineCharacterUsage = Type.Object({
  engine: Type.String(),
  usage_date: Type.Optional(DateTime),
  characters: Type.Integer({ minimum: 0 }),
  /** LLM engines: the tokens their calls used, as the provider's answers count them (absent for others). */
  tokens_in: Type.Optional(Type.Integer({ minimum: 0 })),
  tokens_out: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type EngineCharacterUsage = Static<typeof EngineCharacterUsage>;

export const CustomTagUsageReport = Type.Object({
  aggregate_by: Type.Union(AGGREGATE_BY.map((v) => Type.Literal(v))),
  start_date: DateTime,
  end_date: DateTime,
  next_page: Nullable(Type.Integer({ minimum: 0 })),
  usage: Type.Array(CustomTagUsage),
  /**
   * Glossa's own, additive (the interface has no place for it): characters each engine was sent for the
   * account over the range, tagged or not; per engine and day when `aggregate_by` is `day`. On the first
   * page only (`page` 0 or absent), so that a client adding up the pages counts it once.
   */
  engine_usage: Type.Optional(Type.Array(EngineCharacterUsage)),
});
export type CustomTagUsageReport = Static<typeof CustomTagUsageReport>;

export const CustomTagUsageResponse = Type.Object(
  { custom_tag_usage_report: CustomTagUsageReport },
  { $id: 'CustomTagUsageResponse' },
);
export type CustomTagUsageResponse = Static<typeof CustomTagUsageResponse>;
