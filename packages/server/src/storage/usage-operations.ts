import type { Storage } from './storage.js';

/**
 * How long before the oldest record that can still apply one of a feature's usage operations its ids are
 * kept: a day. It covers the clocks (a row's time and `applied_at` may come from different machines) and
 * an attempt still running on a row that no longer holds it, which may apply its id once more.
 */
export const USAGE_OPERATION_MARGIN_MS = 24 * 60 * 60 * 1000;

/**
 * Forgets the usage operation ids under `prefix` that nothing can apply again (`Storage.pruneUsageOperations`);
 * how many. `oldestLive` is when the oldest record that can still apply one of them was created (none:
 * undefined): the ids recorded more than `USAGE_OPERATION_MARGIN_MS` before it (or before now) go. The
 * feature that owns the prefix says, next to its call, why its records cannot apply an id recorded before
 * their own creation.
 */
export function forgetUsageOperations(
  storage: Storage,
  prefix: string,
  oldestLive: Date | undefined,
  now = new Date(),
): Promise<number> {
  const from = oldestLive && oldestLive < now ? oldestLive : now;
  return storage.pruneUsageOperations(prefix, new Date(from.getTime() - USAGE_OPERATION_MARGIN_MS));
}
