/** `remarkGlossa`: the unified plugin. Extracts, calls `translate`, and splices the targets back. */

import { mergeAndReport, type Segment, type TranslateResult } from '@glossa/core';
import type { Root } from 'mdast';
import type { Processor } from 'unified';
import type { VFile } from 'vfile';
import { extract } from './extract.js';
import { merge } from './merge.js';
import { type MarkdownOptions, resolveMarkdownOptions } from './options.js';
import { markdownParser } from './parser.js';

export interface RemarkGlossaOptions extends MarkdownOptions {
  /**
   * Translates the segments: returns one target per segment, in order (`undefined` keeps that segment in
   * the source language), or a map of key → target.
   */
  readonly translate: (segments: readonly Segment[], file: VFile) => Promise<TranslateResult>;
}

/** What the plugin did to a file, on `file.data.glossa`. */
export interface GlossaFileReport {
  readonly markdown: string;
  readonly segments: number;
  readonly translated: number;
  readonly kept: readonly string[];
}

// The same declaration in @glossa/remark and @glossa/rehype: a program importing both must see one type.
declare module 'vfile' {
  interface DataMap {
    /** Set by remarkGlossa (`markdown`) or rehypeGlossa (`html`): see their `GlossaFileReport`. */
    glossa: {
      readonly markdown?: string;
      readonly html?: string;
      readonly segments: number;
      readonly translated: number;
      readonly kept: readonly string[];
    };
  }
}

/**
 * Localizes a Markdown or MDX file. The file's text is re-read by position, so the output keeps every
 * untouched byte; the tree handed on is parsed from the translated text, and when the plugin is the
 * last one the processor's output is that text.
 */
export function remarkGlossa(this: Processor, options: RemarkGlossaOptions) {
  if (typeof options?.translate !== 'function')
    throw new TypeError(
      `remarkGlossa: option \`translate\` must be an async function, got ${typeof options?.translate}`,
    );
  resolveMarkdownOptions(options);
  const { translate } = options;
  this.compiler = (_tree, file) => file.data.glossa?.markdown ?? String(file.value);

  return async (_tree: Root, file: VFile): Promise<Root> => {
    const settings = { ...options, file: options.file ?? file.path ?? '' };
    const extraction = extract(String(file.value), settings);
    for (const message of extraction.messages)
      file.message(message.reason, { place: message, ruleId: 'extract', source: 'glossa' });
    const targets = await translate(extraction.segments, file);
    const { text: markdown, ...report } = mergeAndReport(
      extraction.segments,
      targets,
      'remarkGlossa',
      file,
      (map, onProblem) => merge(extraction, map, { onProblem }),
    );
    file.data.glossa = { markdown, ...report };
    return markdownParser(resolveMarkdownOptions(settings)).parse(markdown) as Root;
  };
}
