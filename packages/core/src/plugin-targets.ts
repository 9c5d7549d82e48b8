import type { Segment } from './segment.js';

/** What a plugin's `translate` option returns: one target per segment in order (`undefined` keeps it), or a map. */
export type TranslateResult = readonly (string | undefined)[] | ReadonlyMap<string, string>;

/**
 * The targets a plugin's `translate` option returned, by segment key. Throws a `TypeError` naming `caller`
 * when it returned neither a map nor exactly one entry per segment.
 */
export function targetsByKey(
  segments: readonly Segment[],
  targets: TranslateResult,
  caller: string,
): ReadonlyMap<string, string> {
  if (targets instanceof Map) return targets;
  if (!Array.isArray(targets) || targets.length !== segments.length) {
    const got = Array.isArray(targets) ? targets.length : typeof targets;
    throw new TypeError(`${caller}: translate() must return ${segments.length} targets or a Map, got ${got}`);
  }
  const map = new Map<string, string>();
  segments.forEach((segment, index) => {
    const target = (targets as readonly (string | undefined)[])[index];
    if (target !== undefined) map.set(segment.key, target);
  });
  return map;
}
