/** `rehypeGlossa`: the unified plugin. Extracts, calls `translate`, and splices the targets back. */
import { mergeAndReport, type Segment, type TranslateResult } from '@glossa/core';
import type { Root } from 'hast';
import type { Processor } from 'unified';
import type { VFile } from 'vfile';
import { extract, parseHtml } from './extract.js';
import { merge } from './merge.js';
import { checkLang, type HtmlOptions, resolveHtmlOptions } from './options.js';

export interface RehypeGlossaOptions extends HtmlOptions {
  /** The target language: the output's `<html lang>` (and `dir` for right-to-left). */
  readonly lang?: string;
  /**
   * Translates the segments: returns one target per segment, in order (`undefined` keeps that segment in
   * the source language), or a map of key → target.
   */
  readonly translate: (segments: readonly Segment[], file: VFile) => Promise<TranslateResult>;
}

/** What the plugin did to a file, on `file.data.glossa`. */
export interface GlossaFileReport {
  readonly html: string;
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
 * Localizes an HTML file. The file's text is re-read by position, so the output keeps every untouched
 * byte; the tree handed on is parsed from the translated text, and when the plugin is the last one the
 * processor's output is that text.
 */
export function rehypeGlossa(this: Processor, options: RehypeGlossaOptions) {
  if (typeof options?.translate !== 'function')
    throw new TypeError(
      `rehypeGlossa: option \`translate\` must be an async function, got ${typeof options?.translate}`,
    );
  resolveHtmlOptions(options);
  const lang = checkLang(options.lang);
  const { translate } = options;
  this.compiler = (_tree, file) => file.data.glossa?.html ?? String(file.value);

  return async (_tree: Root, file: VFile): Promise<Root> => {
    const settings = { ...options, file: options.file ?? file.path ?? '' };
    const extraction = extract(String(file.value), settings);
    const targets = await translate(extraction.segments, file);
    const { text: html, ...report } = mergeAndReport(
      extraction.segments,
      targets,
      'rehypeGlossa',
      file,
      (map, onProblem) => merge(extraction, map, { ...(lang === undefined ? {} : { lang }), onProblem }),
    );
    file.data.glossa = { html, ...report };
    return parseHtml(html, resolveHtmlOptions(settings));
  };
}
