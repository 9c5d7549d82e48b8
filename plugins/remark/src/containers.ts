/**
 * Custom containers written as fenced lines (`::: tip Title` … `:::`, nested with `::::`), found by the
 * parser VitePress uses: markdown-it with markdown-it-container. The fence lines are hidden from remark
 * (blanked, so offsets stay), which then parses each container's body as the Markdown it is; the
 * title after the type word is a segment of its own. Fences, type words and `{attrs}` stay as written.
 */
import MarkdownIt, { type PluginWithParams } from 'markdown-it';
import container from 'markdown-it-container';

/** One fence line of a container. */
export interface ContainerFence {
  /** Offsets of the fence line's content (from the first colon to the end of the line, no newline). */
  readonly start: number;
  readonly end: number;
  /** Where the title sits (`::: tip Some title {open}` → `Some title`), when there is one with words. */
  readonly title?: { readonly start: number; readonly end: number };
}

/** `tip`, `details`, `code-group`, `note[Title]`, `tip{#id}`: a type word right after the colons. */
const TYPE = /^[ \t]*[A-Za-z][\w-]*/;

let parser: MarkdownIt | undefined;
function containerParser(): MarkdownIt {
  if (!parser) {
    parser = new MarkdownIt('commonmark', { html: true });
    parser.use(container as unknown as PluginWithParams, 'any', {
      validate: (params: string) => TYPE.test(params),
    });
  }
  return parser;
}

/**
 * Where the title of an opening fence is: after the type word, `[label]` (directive style) or the rest
 * of the line, without a trailing `{…}` attribute block.
 */
function titleOf(text: string, lineStart: number, lineEnd: number, colonsEnd: number) {
  const type = TYPE.exec(text.slice(colonsEnd, lineEnd));
  if (!type) return undefined;
  let start = colonsEnd + type[0].length;
  let end = lineEnd;
  if (text[start] === '[') {
    let depth = 0;
    for (let index = start; index < lineEnd; index++) {
      const char = text[index];
      if (char === '\\') index++;
      else if (char === '[') depth++;
      else if (char === ']' && --depth === 0) {
        end = index;
        break;
      }
    }
    start++;
  } else {
    const attributes = /[ \t]*\{[^{}]*\}[ \t]*$/.exec(text.slice(start, end));
    if (attributes) end -= attributes[0].length;
  }
  while (start < end && /[ \t]/.test(text[start]!)) start++;
  while (end > start && /[ \t\r]/.test(text[end - 1]!)) end--;
  if (lineStart > start || !/\p{L}/u.test(text.slice(start, end))) return undefined;
  return { start, end };
}

/**
 * The fence lines of every container in `text`, opening and closing, in document order. With
 * `legacyOnly`, only containers whose opening line is not directive syntax (`:::tip Some title`, which
 * Docusaurus rewrites itself before parsing; `:::tip[Title]{attrs}` is left to remark-directive).
 */
export function findContainerFences(
  text: string,
  lineStarts: readonly number[],
  legacyOnly = false,
): ContainerFence[] {
  if (!text.includes(':::')) return [];
  const fences: ContainerFence[] = [];
  const lineEnd = (line: number) => {
    const next = lineStarts[line + 1];
    let end = next === undefined ? text.length : next - 1;
    if (text[end - 1] === '\r') end--;
    return end;
  };
  const fenceAt = (line: number): { start: number; end: number; colons: number } | undefined => {
    const start = lineStarts[line];
    if (start === undefined) return undefined;
    const end = lineEnd(line);
    const colon = text.indexOf(':::', start);
    if (colon === -1 || colon >= end) return undefined;
    let colons = colon;
    while (text[colons] === ':') colons++;
    return { start: colon, end, colons };
  };
  for (const token of containerParser().parse(text, {})) {
    if (token.type !== 'container_any_open' || !token.map) continue;
    const [open, close] = token.map;
    const opening = fenceAt(open);
    if (!opening) continue;
    if (legacyOnly && !/^[A-Za-z][\w-]*[ \t]+[^\s[{]/.test(text.slice(opening.colons, opening.end))) continue;
    const title = titleOf(text, opening.start, opening.end, opening.colons);
    fences.push({ start: opening.start, end: opening.end, ...(title && { title }) });
    const closing = fenceAt(close);
    if (
      closing &&
      /^:+[ \t]*$/.test(text.slice(closing.start, closing.end)) &&
      closing.colons - closing.start >= opening.colons - opening.start
    )
      fences.push({ start: closing.start, end: closing.end });
  }
  return fences.sort((a, b) => a.start - b.start);
}

/** `text` with each fence line blanked (spaces; line breaks and offsets kept). */
export function blankFences(text: string, fences: readonly ContainerFence[]): string {
  if (fences.length === 0) return text;
  let out = '';
  let at = 0;
  for (const fence of fences) {
    out += text.slice(at, fence.start) + ' '.repeat(fence.end - fence.start);
    at = fence.end;
  }
  return out + text.slice(at);
}
