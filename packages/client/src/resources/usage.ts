/** Usage and quota, and the custom-tag usage analytics (administrators). */
import type { AggregateBy, CustomTagUsage, CustomTagUsageResponse, UsageResponse } from '@glossa/protocol';
import { GlossaError } from '../errors.js';
import type { RequestOptions } from '../options.js';
import { requestOptionsOf } from '../translate.js';
import type { Transport } from '../transport.js';
import { requireString } from '../wire-names.js';

export function getUsage(transport: Transport, options?: RequestOptions): Promise<UsageResponse> {
  return transport.request<UsageResponse>({
    method: 'GET',
    path: '/v2/usage',
    options: requestOptionsOf(options),
  });
}

export interface CustomTagUsageOptions extends RequestOptions {
  /** `YYYY-MM-DD`. */
  startDate: string;
  /** `YYYY-MM-DD`; at most 366 days after `startDate`. */
  endDate: string;
  /** `period` (default: one entry per tag) or `day` (one entry per tag and day). */
  aggregateBy?: AggregateBy | undefined;
  /** A `next_page` value of a previous response. */
  page?: number | undefined;
}

/** One page of `GET /v2/admin/analytics/custom-tags`. */
export function customTagUsagePage(
  transport: Transport,
  options: CustomTagUsageOptions,
): Promise<CustomTagUsageResponse> {
  requireString('startDate', options?.startDate);
  requireString('endDate', options.endDate);
  return transport.request<CustomTagUsageResponse>({
    method: 'GET',
    path: '/v2/admin/analytics/custom-tags',
    query: {
      start_date: options.startDate,
      end_date: options.endDate,
      aggregate_by: options.aggregateBy,
      page: options.page,
    },
    options: requestOptionsOf(options),
  });
}

/** Every usage entry of the range, following `next_page` until it is null. */
export async function* customTagUsage(
  transport: Transport,
  options: CustomTagUsageOptions,
): AsyncGenerator<CustomTagUsage, void, undefined> {
  let page = options.page;
  const seen = new Set<number>();
  for (;;) {
    const response = await customTagUsagePage(transport, page === undefined ? options : { ...options, page });
    const report = response.custom_tag_usage_report;
    yield* report.usage;
    const next = report.next_page;
    if (next === null || next === undefined) return;
    if (seen.has(next))
      throw new GlossaError(`custom-tag analytics returned page ${next} twice`, { code: 'invalid_response' });
    seen.add(next);
    page = next;
  }
}
