/** `merge`: splices translated segments into the original HTML by position. */

import {
  type Edit,
  type MergeProblem,
  spliceTranslations,
  type Translations,
  toTranslationMap,
} from '@glossa/core';
import { MergeError } from './errors.js';
import { extract, type HtmlExtraction } from './extract.js';
import { langEdits } from './lang.js';
import { checkLang, type HtmlOptions } from './options.js';

export interface MergeOptions extends HtmlOptions {
  /** The output's language: set as `<html lang>` (and `dir="rtl"` for right-to-left languages). */
  readonly lang?: string;
  /** Called for each unusable target (its segment stays in the source language). Without it, `merge` throws `MergeError`. */
  readonly onProblem?: (problem: MergeProblem) => void;
  /**
   * More byte edits of the original text, e.g. a rewritten link URL (an attribute's range from the
   * extraction's tree); they may lie inside a segment's inline code. Default none.
   */
  readonly edits?: readonly Edit[];
}

export type { Translations };

/**
 * Returns the HTML with each translated segment spliced in (targets use the source's `<g id>` /
 * `<x id/>` codes). Bytes outside translated segments are kept exactly. `input` is the original text
 * (extracted again with `options`) or an extraction from `extract`.
 */
export function merge(
  input: string | HtmlExtraction,
  translations: Translations,
  options: MergeOptions = {},
): string {
  const lang = checkLang(options.lang);
  const extraction = typeof input === 'string' ? extract(input, options) : input;
  const problems: MergeProblem[] = [];
  const onProblem = options.onProblem ?? ((problem: MergeProblem) => problems.push(problem));
  const edits = [...(lang === undefined ? [] : langEdits(extraction.tree, lang)), ...(options.edits ?? [])];
  const text = spliceTranslations(
    extraction.text,
    extraction.spans,
    toTranslationMap(translations),
    onProblem,
    edits,
  );
  if (problems.length > 0) throw new MergeError(problems);
  return text;
}
