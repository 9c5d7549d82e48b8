/** `merge`: splices translated segments into the original Markdown by position. */

import { type MergeProblem, spliceTranslations, type Translations, toTranslationMap } from '@glossa/core';
import { MergeError } from './errors.js';
import { extract, type MarkdownExtraction } from './extract.js';
import type { MarkdownOptions } from './options.js';

export interface MergeOptions extends MarkdownOptions {
  /** Called for each unusable target (its segment stays in the source language). Without it, `merge` throws `MergeError`. */
  readonly onProblem?: (problem: MergeProblem) => void;
}

export type { Translations };

/**
 * Returns the Markdown with each translated segment spliced in (targets use the source's `<g id>` /
 * `<x id/>` codes). Bytes outside translated segments are kept exactly. `input` is the original text
 * (extracted again with `options`) or an extraction from `extract`.
 */
export function merge(
  input: string | MarkdownExtraction,
  translations: Translations,
  options: MergeOptions = {},
): string {
  const extraction = typeof input === 'string' ? extract(input, options) : input;
  const problems: MergeProblem[] = [];
  const onProblem = options.onProblem ?? ((problem: MergeProblem) => problems.push(problem));
  const text = spliceTranslations(
    extraction.text,
    extraction.spans,
    toTranslationMap(translations),
    onProblem,
  );
  if (problems.length > 0) throw new MergeError(problems);
  return text;
}
