import type { Segment } from './segment.js';
import type { MergeProblem } from './skeleton.js';

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

/** The part of a vfile the plugins report on (positions as unist points). */
export interface MessageSink {
  message(
    reason: string,
    options: { place: { line: number; column: number } | null; ruleId: string; source: string },
  ): unknown;
}

/** What a plugin did to one file. */
export interface LocalizedFile {
  readonly text: string;
  readonly segments: number;
  readonly translated: number;
  /** Keys of the segments kept in the source language (no target, or a target that could not be merged). */
  readonly kept: readonly string[];
}

/**
 * The shared middle of the remark and rehype plugins: the targets by key, merged into the file's text,
 * and each segment kept in the source language reported on the file with its position.
 */
export function mergeAndReport(
  segments: readonly Segment[],
  targets: TranslateResult,
  caller: string,
  file: MessageSink,
  merge: (targets: ReadonlyMap<string, string>, onProblem: (problem: MergeProblem) => void) => string,
): LocalizedFile {
  const map = targetsByKey(segments, targets, caller);
  const kept = new Set<string>();
  const text = merge(map, (problem) => {
    kept.add(problem.key);
    file.message(`${problem.key}: ${problem.reason}; kept in the source language`, {
      place: segments.find((segment) => segment.key === problem.key)?.position ?? null,
      ruleId: 'merge',
      source: 'glossa',
    });
  });
  for (const segment of segments) {
    if (map.has(segment.key)) continue;
    kept.add(segment.key);
    file.message(`${segment.key}: no translation; kept in the source language`, {
      place: segment.position ?? null,
      ruleId: 'untranslated',
      source: 'glossa',
    });
  }
  return { text, segments: segments.length, translated: segments.length - kept.size, kept: [...kept] };
}
