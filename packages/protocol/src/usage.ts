import { type Static, Type } from '@sinclair/typebox';
import { DateTime } from './common.js';

export const PRODUCT_TYPES = ['translate', 'write', 'speech_to_text'] as const;
export const BILLING_UNITS = ['characters', 'minutes'] as const;

/** GET /v2/usage on the free plan: `{character_count, character_limit}`. */
export const FreeUsageResponse = Type.Object(
  {
    character_count: Type.Integer({ minimum: 0 }),
    character_limit: Type.Integer({ minimum: 0 }),
  },
  { $id: 'FreeUsageResponse' },
);
export type FreeUsageResponse = Static<typeof FreeUsageResponse>;

export const UsageProduct = Type.Object({
  product_type: Type.Union(PRODUCT_TYPES.map((value) => Type.Literal(value))),
  billing_unit: Type.Union(BILLING_UNITS.map((value) => Type.Literal(value))),
  api_key_unit_count: Type.Number({ minimum: 0 }),
  account_unit_count: Type.Number({ minimum: 0 }),
});
export type UsageProduct = Static<typeof UsageProduct>;

/** GET /v2/usage on a paid plan: the free fields plus per-product and per-key counts and the period. */
export const PaidUsageResponse = Type.Object(
  {
    character_count: Type.Integer({ minimum: 0 }),
    character_limit: Type.Integer({ minimum: 0 }),
    products: Type.Array(UsageProduct),
    api_key_character_count: Type.Integer({ minimum: 0 }),
    api_key_character_limit: Type.Integer({ minimum: 0 }),
    start_time: DateTime,
    end_time: DateTime,
  },
  { $id: 'PaidUsageResponse' },
);
export type PaidUsageResponse = Static<typeof PaidUsageResponse>;

export const UsageResponse = Type.Union([PaidUsageResponse, FreeUsageResponse], { $id: 'UsageResponse' });
export type UsageResponse = Static<typeof UsageResponse>;
