/**
 * A small, safe parser for the XML or HTML fragments of `tag_handling`: no DTDs, no external entities, no
 * entity expansion beyond the predefined ones and character references. Never throws: a stray `<` or `&`
 * is text, an end tag without its start is a standalone code, an unclosed start tag is a standalone code.
 */

export type MarkupNode =
  /** `text` is decoded; `raw` is as written. */
  | { readonly kind: 'text'; readonly text: string; readonly raw: string }
  /** A tag-like thing that stands alone: self-closing or void element, comment, CDATA, PI, doctype, stray end tag. */
  | { readonly kind: 'standalone'; readonly raw: string; readonly name?: string }
  | {
      readonly kind: 'element';
      readonly name: string;
      readonly open: string;
      close: string;
      readonly children: MarkupNode[];
      /** The original bytes of the whole element (for ignored and raw-text elements). */
      raw: string;
    };

/** Deeper elements are kept as standalone codes, which bounds every recursive walk over the tree. */
export const MAX_MARKUP_DEPTH = 100;

export const HTML_VOID = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]); // biome-ignore format: a word list
/** HTML elements whose content is not markup (kept whole, never translated). */
export const HTML_RAW_TEXT = new Set(['script', 'style', 'template']);

/** The tokens as the parser reads them (sticky: set `lastIndex`, then `exec`); also read by the documents' HTML parts. */
export const START_TAG =
  /<([A-Za-z_][-\w:.]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
export const END_TAG = /<\/([A-Za-z_][-\w:.]*)\s*>/y;
export const SPECIALS: readonly [RegExp, string][] = [
  [/<!--[\s\S]*?-->/y, 'comment'],
  // Never ended: a comment to the end of the input (as HTML reads it), kept as written rather than as text.
  [/<!--[\s\S]*/y, 'unended comment'],
  [/<!\[CDATA\[[\s\S]*?\]\]>/y, 'cdata'],
  [/<\?[\s\S]*?\?>/y, 'pi'],
  [/<![A-Za-z][^>]*>/y, 'doctype'],
];

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** Decodes the predefined entities and character references; anything else stays as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9A-Fa-f]{1,6}|#\d{1,7}|[A-Za-z]{2,8});/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

type Element = Extract<MarkupNode, { kind: 'element' }>;

/** The end-tag pattern of each raw-text element name, compiled once (global: a search starts at `lastIndex`). */
const RAW_TEXT_ENDS = new Map<string, RegExp>();

/**
 * Where the end tag `</name` of a raw-text element (`HTML_RAW_TEXT`) starts, from `from`, or -1. Searched
 * case-insensitively in place: lower-casing the source would cost its length per element and shift every
 * offset after a character whose lower case is longer ("İ" → "i̇").
 */
export function rawTextEnd(source: string, name: string, from: number): number {
  let endTag = RAW_TEXT_ENDS.get(name);
  if (!endTag) {
    endTag = new RegExp(`</${name}`, 'gi');
    RAW_TEXT_ENDS.set(name, endTag);
  }
  endTag.lastIndex = from;
  return endTag.exec(source)?.index ?? -1;
}

/** Parses a fragment into nodes. `html` adds void elements, raw-text elements and case-insensitive names. */
export function parseMarkup(source: string, html: boolean): MarkupNode[] {
  const root: MarkupNode[] = [];
  const stack: { element: Element; start: number; siblings: MarkupNode[] }[] = [];
  const current = () => stack.at(-1)?.element.children ?? root;
  let text = '';
  const flush = () => {
    if (text) current().push({ kind: 'text', text: decodeEntities(text), raw: text });
    text = '';
  };
  const norm = (name: string) => (html ? name.toLowerCase() : name);
  let i = 0;
  outer: while (i < source.length) {
    const lt = source.indexOf('<', i);
    if (lt === -1) {
      text += source.slice(i);
      break;
    }
    text += source.slice(i, lt);
    i = lt;
    for (const [pattern] of SPECIALS) {
      pattern.lastIndex = i;
      const match = pattern.exec(source);
      if (match) {
        flush();
        current().push({ kind: 'standalone', raw: match[0] });
        i = pattern.lastIndex;
        continue outer;
      }
    }
    END_TAG.lastIndex = i;
    const end = END_TAG.exec(source);
    if (end) {
      flush();
      const name = norm(end[1]!);
      const depth = stack.findLastIndex((entry) => entry.element.name === name);
      if (depth === -1) current().push({ kind: 'standalone', raw: end[0], name });
      else {
        while (stack.length > depth + 1) unclose(stack.pop()!);
        const entry = stack.pop()!;
        entry.element.close = end[0];
        entry.element.raw = source.slice(entry.start, END_TAG.lastIndex);
      }
      i = END_TAG.lastIndex;
      continue;
    }
    START_TAG.lastIndex = i;
    const start = START_TAG.exec(source);
    if (start) {
      flush();
      const name = norm(start[1]!);
      i = START_TAG.lastIndex;
      if (start[3] === '/' || (html && HTML_VOID.has(name)) || stack.length >= MAX_MARKUP_DEPTH) {
        current().push({ kind: 'standalone', raw: start[0], name });
        continue;
      }
      if (html && HTML_RAW_TEXT.has(name)) {
        const closeAt = rawTextEnd(source, name, i);
        const closeEnd = closeAt === -1 ? -1 : source.indexOf('>', closeAt);
        const stop = closeEnd === -1 ? source.length : closeEnd + 1;
        const element: Element = {
          kind: 'element',
          name,
          open: start[0],
          close: closeEnd === -1 ? '' : source.slice(closeAt, stop),
          children: [],
          raw: source.slice(lt, stop),
        };
        current().push(element);
        i = stop;
        continue;
      }
      const element: Element = { kind: 'element', name, open: start[0], close: '', children: [], raw: '' };
      current().push(element);
      stack.push({ element, start: lt, siblings: current() });
      continue;
    }
    text += '<';
    i += 1;
  }
  flush();
  while (stack.length > 0) unclose(stack.pop()!);
  return root;
}

/** An element never closed: its start tag becomes a standalone code and its children its following siblings. */
function unclose(entry: { element: Element; siblings: MarkupNode[] }): void {
  const index = entry.siblings.indexOf(entry.element);
  entry.siblings.splice(
    index,
    1,
    { kind: 'standalone', raw: entry.element.open, name: entry.element.name },
    ...entry.element.children,
  );
}

/** Whether the element has non-whitespace text as a direct child. */
export function hasDirectText(element: Element): boolean {
  return element.children.some((child) => child.kind === 'text' && child.text.trim() !== '');
}
