import { ENDPOINTS, type PaidUsageResponse, PRODUCT_TYPES } from '@glossa/protocol';
import { defineRoute } from '../http/route.js';
import { CHARACTER_PRODUCTS } from '../storage/storage.js';
import { currentBillingPeriod } from '../translate/billing-period.js';

/** GET /v2/usage: the current calendar month (UTC); paid plans add products, per-key counts and the period. */
export const usageRoute = defineRoute(ENDPOINTS.getUsage, async ({ caller, context }) => {
  const period = currentBillingPeriod();
  const totals = await context.storage.usageTotals(
    caller.account.id,
    caller.key.id,
    period.fromDay,
    period.toDay,
  );
  const sum = (field: 'accountUnits' | 'keyUnits') =>
    Math.round(
      totals
        .filter((total) => CHARACTER_PRODUCTS.includes(total.product))
        .reduce((n, total) => n + total[field], 0),
    );
  const characterCount = sum('accountUnits');
  const limit = caller.account.characterLimit;
  if (caller.account.plan === 'free') return { character_count: characterCount, character_limit: limit };
  const response: PaidUsageResponse = {
    character_count: characterCount,
    character_limit: limit,
    products: PRODUCT_TYPES.map((product) => {
      const total = totals.find((entry) => entry.product === product);
      return {
        product_type: product,
        billing_unit: product === 'speech_to_text' ? 'minutes' : 'characters',
        api_key_unit_count: total?.keyUnits ?? 0,
        account_unit_count: total?.accountUnits ?? 0,
      };
    }),
    api_key_character_count: sum('keyUnits'),
    api_key_character_limit: limit,
    start_time: period.start.toISOString(),
    end_time: period.end.toISOString(),
  };
  return response;
});
