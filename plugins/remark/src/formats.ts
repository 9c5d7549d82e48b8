/**
 * How translated text is written back into each spot of a Markdown file so that it reads back as the
 * same text: escaped Markdown text, a link title, a JSX attribute value, a front-matter string.
 * Only translated segments are written this way; untouched segments keep their original bytes.
 */
import type { SpanFormat } from '@glossa/core';

const oneLine = (text: string) => text.replace(/[ \t]*\r?\n[ \t]*/g, ' ');

export function markdownText(context: { table: boolean; mdx: boolean; math: boolean }): SpanFormat {
  const special = new RegExp(
    `[\\\\\`*_[\\]<~${context.table ? '|' : ''}${context.mdx ? '{}' : ''}${context.math ? '$' : ''}]`,
    'g',
  );
  return {
    encode: (text) =>
      oneLine(text)
        .replace(special, '\\$&')
        .replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;'),
    // A segment that now starts like a block marker would change the structure: escape that marker.
    frame: (rendered) =>
      rendered.replace(/^(#|>|[+=-](?=\s|$))/, '\\$1').replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2'),
  };
}

/** A link, image or definition title between `"…"`, `'…'` or `(…)`. */
export const markdownTitle: SpanFormat = { encode: (text) => oneLine(text).replace(/[\\"'()]/g, '\\$&') };

/** A JSX attribute value between the given quotes (character references are decoded by MDX). */
export function jsxAttribute(quote: string): SpanFormat {
  return {
    encode: (text) =>
      text.replace(/&/g, '&amp;').replace(quote === '"' ? /"/g : /'/g, quote === '"' ? '&quot;' : '&#39;'),
  };
}

/** A YAML or TOML string scalar: written as a double-quoted string (valid in both). */
export const quotedScalar: SpanFormat = {
  encode: (text) => text,
  frame: (rendered) => JSON.stringify(rendered),
};
