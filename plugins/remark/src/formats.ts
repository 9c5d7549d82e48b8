/**
 * How translated text is written back into each spot of a Markdown file so that it reads back as the
 * same text: escaped Markdown text, a link title, a JSX attribute value, a front-matter string.
 * Only translated segments are written this way; untouched segments keep their original bytes.
 */
import type { SpanFormat } from '@glossa/core';

const oneLine = (text: string) => text.replace(/[ \t]*\r?\n[ \t]*/g, ' ');

/** How a paragraph that was hard-wrapped in the source is wrapped again (see `wrapLines`). */
export interface Wrap {
  /** The longest source line, in characters, container prefix included. */
  readonly width: number;
  /** Where the paragraph's first character sits on its line. */
  readonly firstColumn: number;
  /** What starts each continuation line in the source (`> ` in a quote, indentation in a list item). */
  readonly prefix: string;
}

/**
 * Breaks a one-line paragraph into lines of at most `wrap.width` characters (a longer word stays whole).
 * A line only breaks at a single space before a letter, so the new line cannot start a block (a list
 * marker, `#`, `>`, `<`, a setext underline) and the text reads back the same, soft breaks being spaces;
 * never inside link syntax, inline HTML, code or `$math$`. Display math (`$$ … $$`) starts a line of its own
 * and what follows it starts the next: VitePress (markdown-it-mathjax3) renders `$$` as math only there.
 */
export function wrapLines(line: string, wrap: Wrap): string {
  const chars = [...line];
  const words: string[] = [];
  let start = 0;
  // Inside brackets, parentheses, angle brackets or a code span (a link's text, URL and title, inline
  // HTML, code) the line does not break: the syntax reads the same, but the text would not.
  let depth = 0;
  let code = false;
  let math: '' | '$' | '$$' = '';
  let closedDisplay = -1;
  // Words that must start a line: display math, and what follows it.
  const forced = new Set<number>();
  for (let index = 0; index < chars.length - 1; index++) {
    const char = chars[index]!;
    if (char === '\\') index++;
    else if (char === '`' && !math) code = !code;
    else if (code) continue;
    else if (char === '$') {
      const fence = chars[index + 1] === '$' ? '$$' : '$';
      if (fence === '$$') index++;
      if (!math) math = fence;
      else if (math === fence) {
        math = '';
        if (fence === '$$') closedDisplay = index;
      }
    } else if (math) continue;
    else if (char === '[' || char === '(' || char === '<') depth++;
    else if ((char === ']' || char === ')' || char === '>') && depth > 0) depth--;
    else if (char === ' ' && depth === 0 && index > 0 && chars[index - 1] !== ' ') {
      const display = chars[index + 1] === '$' && chars[index + 2] === '$';
      const afterDisplay = closedDisplay === index - 1;
      if (!display && !afterDisplay && !/\p{L}/u.test(chars[index + 1]!)) continue;
      words.push(chars.slice(start, index).join(''));
      if (display || afterDisplay) forced.add(words.length);
      start = index + 1;
    }
  }
  words.push(chars.slice(start).join(''));
  let out = words[0]!;
  let column = wrap.firstColumn + [...out].length;
  for (const [i, word] of words.slice(1).entries()) {
    const length = [...word].length;
    if (forced.has(i + 1) || column + 1 + length > wrap.width) {
      out += `\n${wrap.prefix}${word}`;
      column = wrap.prefix.length + length;
    } else {
      out += ` ${word}`;
      column += 1 + length;
    }
  }
  return out;
}

/** A `!` that ended a text run (a private-use character never found in Markdown text we write). */
const BANG = '\uE000';
const BANG_BEFORE_BRACKET = /\uE000\[/g;

/** A literal autolink of the source and its URL. */
export interface Autolink {
  readonly text: string;
  readonly url: string;
}

/**
 * Literal autolinks stay as written, unless the translation put a character right against one that
 * would change where GFM ends it (or whether it sees it): that one is written as a link.
 */
function guardAutolinks(rendered: string, autolinks: readonly Autolink[]): string {
  let out = rendered;
  for (const { text, url } of new Set(autolinks)) {
    let from = 0;
    for (let at = out.indexOf(text, from); at !== -1; at = out.indexOf(text, from)) {
      const before = out[at - 1];
      const after = out.slice(at + text.length, at + text.length + 2);
      // `<` too: `<https://a.b/c d>` is text around a literal autolink, as the source has it.
      const safeBefore = before === undefined || /[\s(*_~<]/.test(before);
      const safeAfter = after === '' || /^(\s|[.,:;!?]($|\s))/.test(after);
      if (safeBefore && safeAfter) {
        from = at + text.length;
        continue;
      }
      const link = `[${text.replace(/[[\]\\]/g, '\\$&')}](${/[\s()<>]/.test(url) ? `<${url}>` : url})`;
      out = out.slice(0, at) + link + out.slice(at + text.length);
      from = at + link.length;
    }
  }
  return out;
}

export function markdownText(
  context: { table: boolean; mdx: boolean; math: boolean; directives?: boolean },
  wrap?: Wrap,
  autolinks: readonly Autolink[] = [],
): SpanFormat {
  const special = new RegExp(
    `[\\\\\`*_[\\]<~${context.table ? '|' : ''}${context.mdx ? '{}' : ''}${context.math ? '$' : ''}]`,
    'g',
  );
  return {
    encode: (text) =>
      oneLine(text)
        .replace(special, '\\$&')
        // `!` right before a link's `[` would make it an image: marked here, escaped in `frame`.
        .replace(/!$/, BANG)
        // With remark-directive, `:name` starts a text directive: a colon before a letter is escaped.
        .replace(context.directives ? /:(?=[A-Za-z])/g : /(?!)/g, '\\:')
        .replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;')
        // A tab (from `&#9;`) at a line start would indent: written as a reference.
        .replace(/\t/g, '&#9;'),
    // A segment that now starts like a block marker would change the structure: escape that marker.
    frame: (rendered) => {
      const safe = guardAutolinks(
        rendered.replace(BANG_BEFORE_BRACKET, '\\![').replaceAll(BANG, '!'),
        autolinks,
      )
        .replace(/^(#|>|[+=-](?=\s|$))/, '\\$1')
        .replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2');
      // Codes that hold a line break (a hard break, a link written over two lines) keep the text as it is.
      return wrap && !safe.includes('\n') ? wrapLines(safe, wrap) : safe;
    },
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
