export type RequestPart = 'params' | 'query' | 'body';

/** What a rejection case shows: the kinds every endpoint with input must cover. */
export type RejectKind = 'missing' | 'type' | 'enum' | 'limit' | 'format' | 'unknown';

export interface RejectCase {
  readonly kind: RejectKind;
  readonly part: RequestPart;
  /** The whole invalid part (params, query or body), usually the valid one with one change. */
  readonly value: unknown;
  /** The exact message validation must give. */
  readonly message: string;
}

export interface AcceptCase {
  readonly part: RequestPart;
  readonly value: unknown;
  /** Why this is interesting (a bound, a case-insensitive code...). */
  readonly why: string;
  /** Parameters this value holds exactly at a limit (message style: `custom_instructions[0]`). */
  readonly bounds?: readonly string[];
}

export interface EndpointCases {
  /** A valid request from the spec or the wire decisions. */
  readonly valid: Partial<Record<RequestPart, unknown>>;
  /** A valid response. */
  readonly response?: unknown;
  readonly accepts?: readonly AcceptCase[];
  readonly rejects?: readonly RejectCase[];
}

export const G1 = '0b7e5f5a-0000-4000-8000-000000000001';
export const G2 = '0b7e5f5a-0000-4000-8000-000000000002';
export const TIME = '2026-11-22T05:00:00Z';

/** A copy of `value` with `changes` applied; a change to `undefined` removes the key. */
export function edit(value: unknown, changes: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, change] of Object.entries(changes)) {
    if (change === undefined) delete copy[key];
    else copy[key] = change;
  }
  return copy;
}

/** `count` distinct UUIDs. */
export const uuids = (count: number) =>
  Array.from({ length: count }, (_, i) => `0b7e5f5a-0000-4000-8000-${String(i).padStart(12, '0')}`);
