import {
  type CustomTagUsage,
  type CustomTagUsageResponse,
  checkAnalyticsRange,
  ENDPOINTS,
} from '@glossa/protocol';
import { badRequest } from '../errors.js';
import { defineRoute } from '../http/route.js';
import type { CustomTagUsageRow } from '../storage/storage.js';

/** Usage entries per page (tags for `period`, tag-days for `day`). */
export const ANALYTICS_PAGE_SIZE = 100;

const dateTime = (day: string) => `${day}T00:00:00Z`;

function breakdown(row: CustomTagUsageRow): CustomTagUsage['breakdown'] {
  const translation = Math.round(row.units.translate ?? 0);
  const improvement = Math.round(row.units.write ?? 0);
  return {
    total_characters: translation + improvement,
    text_translation_characters: translation,
    text_improvement_characters: improvement,
    speech_to_text_minutes: row.units.speech_to_text ?? 0,
    speech_to_speech_minutes: row.units.speech_to_speech ?? 0,
  };
}

/**
 * GET /v2/admin/analytics/custom-tags (administrators; the access rule is checked before this runs).
 * Only the caller's own account's tagged usage; `start_date` and `end_date` are both included.
 */
export const analyticsRoute = defineRoute(ENDPOINTS.getCustomTagUsage, async ({ query, caller, context }) => {
  const rangeError = checkAnalyticsRange(query);
  if (rangeError) throw badRequest(rangeError);
  const byDay = query.aggregate_by === 'day';
  const page = query.page ?? 0;
  const rows = await context.storage.customTagUsage({
    accountId: caller.account.id,
    from: query.start_date,
    to: query.end_date,
    byDay,
    offset: page * ANALYTICS_PAGE_SIZE,
    limit: ANALYTICS_PAGE_SIZE + 1,
  });
  // Glossa's additive per-engine characters (protocol `EngineCharacterUsage`): whole, on the first page.
  const engines =
    page === 0
      ? await context.storage.engineUsage({
          accountId: caller.account.id,
          from: query.start_date,
          to: query.end_date,
          byDay,
        })
      : undefined;
  const hasMore = rows.length > ANALYTICS_PAGE_SIZE;
  const response: CustomTagUsageResponse = {
    custom_tag_usage_report: {
      aggregate_by: byDay ? 'day' : 'period',
      start_date: dateTime(query.start_date),
      end_date: dateTime(query.end_date),
      next_page: hasMore ? page + 1 : null,
      usage: rows.slice(0, ANALYTICS_PAGE_SIZE).map((row) => ({
        custom_tag: row.customTag,
        ...(byDay && row.day ? { usage_date: dateTime(row.day) } : {}),
        breakdown: breakdown(row),
      })),
      ...(engines
        ? {
            engine_usage: engines.map((row) => ({
              engine: row.engine,
              ...(byDay && row.day ? { usage_date: dateTime(row.day) } : {}),
              characters: Math.round(row.characters),
              ...(row.tokensIn > 0 || row.tokensOut > 0
                ? { tokens_in: Math.round(row.tokensIn), tokens_out: Math.round(row.tokensOut) }
                : {}),
            })),
          }
        : {}),
    },
  };
  return response;
});
