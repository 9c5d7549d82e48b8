import type { MergeProblem } from '@glossa/core';

/**
 * Thrown by `merge` when translations are unusable and no `onProblem` handler was given. Every problem
 * is listed (segment key, offset and reason); pass `onProblem` to keep those segments in the source
 * language instead.
 */
export class MergeError extends Error {
  override readonly name = 'MergeError';
  readonly code = 'invalid_translation';
  constructor(readonly problems: readonly MergeProblem[]) {
    super(
      `${problems.length} translation(s) could not be merged: ` +
        problems.map((problem) => `${problem.key} (offset ${problem.offset}): ${problem.reason}`).join('; '),
    );
  }
}
