/** `extract`: the segments of a Markdown or MDX file, each with the byte ranges of its text and codes. */

import type { CodeMap, CodeSpan, Piece, Segment, SegmentSpan, SpanFormat } from '@glossa/core';
import { escapeXmlText } from '@glossa/core';
import { extract as extractHtml } from '@glossa/rehype';
import type { Node, Parent } from 'unist';
import { blankFences, findContainerFences } from './containers.js';
import { jsxAttribute, markdownText, markdownTitle, quotedScalar, type Wrap } from './formats.js';
import { tomlFields, yamlFields } from './frontmatter.js';
import { type MarkdownOptions, type ResolvedMarkdownOptions, resolveMarkdownOptions } from './options.js';
import { markdownParser } from './parser.js';
import { endOf, PhrasingBuilder, positioned, startOf } from './phrasing.js';
import { createSlugger } from './slugs.js';

/** A content problem found while extracting (reported on the file by the plugin). */
export interface ExtractMessage {
  readonly reason: string;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export interface MarkdownExtraction {
  readonly text: string;
  readonly options: ResolvedMarkdownOptions;
  readonly segments: readonly Segment[];
  /** The original bytes of each segment's inline codes, by segment key. */
  readonly codes: Readonly<Record<string, CodeMap>>;
  /** The skeleton: byte ranges of every segment and code, used by `merge`. */
  readonly spans: readonly SegmentSpan[];
  readonly messages: readonly ExtractMessage[];
}

const IGNORE_HTML = /^<!--\s*glossa-ignore-(start|end)\s*-->$/;
const IGNORE_MDX = /^\s*\/\*\s*glossa-ignore-(start|end)\s*\*\/\s*$/;

class Extractor {
  readonly spans: SegmentSpan[] = [];
  readonly segments: Segment[] = [];
  readonly codes: Record<string, CodeMap> = {};
  readonly messages: ExtractMessage[] = [];
  readonly #counters = new Map<string, number>();
  /** Heading ids of this file, as its framework computes them (see `headingSlugs`). */
  #slugger: ((text: string) => string) | undefined;
  readonly lineStarts: number[] = [0];
  #ignoreStart: number | undefined;

  constructor(
    readonly text: string,
    readonly options: ResolvedMarkdownOptions,
  ) {
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
      this.lineStarts.push(index + 1);
  }

  locate(offset: number) {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - this.lineStarts[low]! + 1, offset };
  }

  message(offset: number, reason: string): void {
    this.messages.push({ reason, ...this.locate(offset) });
  }

  #key(kind: string, counted = true): string {
    let local = kind;
    if (counted) {
      const count = (this.#counters.get(kind) ?? 0) + 1;
      this.#counters.set(kind, count);
      local = `${kind}-${count}`;
    }
    return this.options.file ? `${this.options.file}#${local}` : local;
  }

  #add(
    key: string,
    start: number,
    end: number,
    source: string,
    codes: readonly CodeSpan[],
    format: SpanFormat,
  ) {
    this.spans.push({ key, start, end, source, codes, format });
    this.segments.push({ key, source, position: this.locate(start) });
    const map: Record<string, { kind: 'g' | 'x'; open?: string; close?: string; text?: string }> = {};
    const bytes = (piece: CodeSpan['open']) =>
      'literal' in piece ? piece.literal : this.text.slice(piece.start, piece.end);
    for (const code of codes)
      map[code.id] =
        code.kind === 'x'
          ? { kind: 'x', text: bytes(code.open) }
          : { kind: 'g', open: bytes(code.open), close: bytes(code.close!) };
    if (codes.length > 0) this.codes[key] = map;
  }

  #plain(kind: string, start: number, end: number, value: string, format: SpanFormat, counted = true) {
    if (start >= end || !/\p{L}/u.test(value)) return;
    this.#add(this.#key(kind, counted), start, end, escapeXmlText(value), [], format);
  }

  flow(parent: Parent): void {
    for (const node of parent.children) {
      const marker = this.#ignoreMarker(node);
      if (marker === 'start') this.#ignoreStart ??= startOf(node);
      else if (marker === 'end') this.#ignoreStart = undefined;
      if (marker || this.#ignoreStart !== undefined) continue;
      this.#block(node);
    }
  }

  finish(): void {
    if (this.#ignoreStart !== undefined)
      this.message(
        this.#ignoreStart,
        'glossa-ignore-start has no glossa-ignore-end: ignored to the end of the file',
      );
  }

  #ignoreMarker(node: Node): 'start' | 'end' | undefined {
    const value = (node as Node & { value?: unknown }).value;
    if (typeof value !== 'string') return undefined;
    const match =
      node.type === 'html'
        ? IGNORE_HTML.exec(value.trim())
        : node.type === 'mdxFlowExpression'
          ? IGNORE_MDX.exec(value)
          : null;
    return match?.[1] as 'start' | 'end' | undefined;
  }

  #block(node: Node): void {
    switch (node.type) {
      case 'paragraph':
        if (this.options.features.toc && this.#source(node).trim() === '[[toc]]') return;
        if (this.options.features.snippets && /^<<<[ \t]/.test(this.#source(node))) return;
        this.#phrasing(node as Parent, node.type, false);
        return;
      case 'heading': {
        const explicit = this.options.features.headingIds && this.#dropHeadingId(node as Parent);
        const slugs = this.options.features.headingSlugs;
        const before = this.spans.length;
        this.#phrasing(node as Parent, node.type, false);
        if (slugs === 'none' || explicit) return;
        // Docusaurus finds `{#id}` on ATX heading lines only (not in a quote or list item, not setext).
        const lineStart = this.text.lastIndexOf('\n', startOf(node) - 1) + 1;
        const atx = /^[ \t]{0,3}#/.test(this.text.slice(lineStart, endOf(node)));
        this.#slugger ??= createSlugger(slugs);
        const slug = this.#slugger(headingText(node as Parent));
        if (slugs === 'github' && !atx) return;
        const span = this.spans[before];
        if (span && this.spans.length === before + 1 && slug !== '') {
          // Keeps the source's id on the translated heading: `## Título {#title}`.
          const frame = span.format.frame ?? ((rendered: string) => rendered);
          this.spans[before] = {
            ...span,
            format: { ...span.format, frame: (rendered) => `${frame(rendered)} {#${slug}}` },
          };
        }
        return;
      }
      case 'blockquote':
        if (this.options.features.alerts) this.#dropAlertMarker(node as Parent);
        this.flow(node as Parent);
        return;
      case 'containerDirective': {
        const [label, ...body] = (node as Parent).children;
        if (label && (label.data as { directiveLabel?: boolean } | undefined)?.directiveLabel) {
          this.#phrasing(label as Parent, 'directive-label', false);
          this.flow({ ...(node as Parent), children: body });
        } else this.flow(node as Parent);
        return;
      }
      case 'leafDirective':
        this.#phrasing(node as Parent, 'directive-label', false);
        return;
      case 'tableCell':
        this.#phrasing(node as Parent, 'cell', true);
        return;
      case 'yaml':
      case 'toml':
        this.#frontmatter(node as Node & { value: string });
        return;
      case 'definition':
        this.#title(node, 'definition-title');
        return;
      case 'mdxJsxFlowElement':
        this.#jsxAttributes(node);
        this.flow(node as Parent);
        return;
      case 'html':
        this.#html(node as Node & { value: string });
        return;
      default:
        if ('children' in node && Array.isArray(node.children)) this.flow(node as Parent);
    }
  }

  #source(node: Node): string {
    return node.position ? this.text.slice(startOf(node), endOf(node)) : '';
  }

  /**
   * `## Title {#id}`: the anchor is not part of the text (the heading's last text node is cut short).
   * Whether the heading has one (in MDX, the parser saw spaces there: read from the source line).
   */
  #dropHeadingId(heading: Parent): boolean {
    if (this.options.mdx) {
      // In MDX, Docusaurus also reads the comment `{/* #id */}` as the heading's id: it stays out of the text.
      const comment = heading.children.at(-1);
      if (
        comment?.type === 'mdxTextExpression' &&
        /^\{\/\*[ \t]*#[^{}\s]+[ \t]*\*\/\}$/.test(this.#source(comment))
      ) {
        heading.children.pop();
        const last = heading.children.at(-1) as (Node & { value?: string }) | undefined;
        if (last?.type === 'text' && last.position && typeof last.value === 'string') {
          const trimmed = last.value.trimEnd();
          last.position = {
            start: last.position.start,
            end: { ...last.position.end, offset: endOf(last) - (last.value.length - trimmed.length) },
          };
          last.value = trimmed;
          if (trimmed === '') heading.children.pop();
        }
        return true;
      }
      return /\{#[^{}\s]+\}[ \t]*$/.test(this.text.slice(startOf(heading), endOf(heading)));
    }
    const last = heading.children.at(-1) as (Node & { value?: string }) | undefined;
    if (last?.type !== 'text' || !last.position || typeof last.value !== 'string') return false;
    const anchor = /[ \t]*\{#[^{}\s]+\}[ \t]*$/.exec(this.#source(last));
    if (!anchor || !last.value.endsWith(anchor[0].trim())) return false;
    const cut = last.value.length - last.value.trimEnd().length + anchor[0].trim().length;
    last.value = last.value.slice(0, last.value.length - cut).trimEnd();
    last.position = {
      start: last.position.start,
      end: { ...last.position.end, offset: endOf(last) - anchor[0].length },
    };
    if (last.value === '') heading.children.pop();
    return true;
  }

  /** `> [!NOTE]`: a GitHub alert's marker line is not part of the text. */
  #dropAlertMarker(quote: Parent): void {
    const paragraph = quote.children[0] as Parent | undefined;
    if (paragraph?.type !== 'paragraph') return;
    const first = paragraph.children[0] as (Node & { value?: string }) | undefined;
    if (first?.type !== 'text' || !first.position) return;
    const marker = /^\[![A-Za-z]+\][ \t]*(?:\r?\n|$)/.exec(this.#source(first));
    if (!marker || typeof first.value !== 'string') return;
    const rest = first.value.replace(/^\[![A-Za-z]+\][ \t]*(?:\r?\n)?/, '');
    if (rest === '') {
      paragraph.children.shift();
      return;
    }
    // The rest of the text starts after the marker line's newline and the next line's `> ` prefix.
    let start = startOf(first) + marker[0].length;
    const prefix = /^[ \t]*(?:>[ \t]?)?[ \t]*/.exec(this.text.slice(start, endOf(first)))!;
    start += prefix[0].length;
    first.value = rest;
    first.position = { start: { ...first.position.start, offset: start }, end: first.position.end };
  }

  /** The title on a container's opening fence line (`::: tip Title`), read as a paragraph of its own. */
  containerTitle(start: number, end: number): void {
    const parsed = markdownParser({ ...this.options, features: { directives: false } }).parse(
      this.text.slice(start, end),
    ) as Parent;
    const [paragraph] = parsed.children;
    if (parsed.children.length !== 1 || paragraph?.type !== 'paragraph') {
      this.message(start, 'a container title that does not read as one line of text: left as is');
      return;
    }
    const shift = (node: Node) => {
      if (node.position)
        node.position = {
          start: { ...node.position.start, offset: node.position.start.offset! + start },
          end: { ...node.position.end, offset: node.position.end.offset! + start },
        };
      for (const child of (node as Partial<Parent>).children ?? []) shift(child);
    };
    shift(paragraph);
    this.#phrasing(paragraph as Parent, 'container-title', false, false);
  }

  #phrasing(node: Parent, kind: string, table: boolean, wrapped = true): void {
    const first = node.children[0];
    const last = node.children.at(-1);
    if (!first || !last) return;
    if (!positioned(node)) {
      this.message(startOf(node), `a ${node.type} whose inline nodes have no source position: left as is`);
      return;
    }
    const builder = new PhrasingBuilder((inline) => this.#nested(inline), this.text, this.options.features);
    builder.addChildren(node);
    if (!builder.hasText) return;
    const { mdx, math } = this.options;
    const directives = this.options.features.directives;
    const wrap =
      wrapped && kind === 'paragraph' && !mdx ? this.#wrapOf(startOf(first), endOf(last)) : undefined;
    this.#add(
      this.#key(kind),
      startOf(first),
      endOf(last),
      builder.source,
      builder.codes,
      markdownText({ table, mdx, math, directives }, wrap, builder.autolinks),
    );
  }

  /** A paragraph written over several lines is wrapped again at its longest line (MDX: left on one line). */
  #wrapOf(start: number, end: number): Wrap | undefined {
    const firstBreak = this.text.indexOf('\n', start);
    if (firstBreak === -1 || firstBreak >= end) return undefined;
    const lineStart = this.text.lastIndexOf('\n', start - 1) + 1;
    let lineEnd = this.text.indexOf('\n', end);
    if (lineEnd === -1) lineEnd = this.text.length;
    const lines = this.text.slice(lineStart, lineEnd).split(/\r?\n/);
    const width = Math.max(...lines.map((line) => [...line].length));
    const prefix = /^[ \t>]*/.exec(lines[1]!)![0];
    return { width, firstColumn: [...this.text.slice(lineStart, start)].length, prefix };
  }

  #nested(node: Node): void {
    if (node.type === 'image' || node.type === 'imageReference') this.#alt(node);
    if (node.type === 'image' || node.type === 'link') this.#title(node, `${node.type}-title`);
    if (node.type === 'mdxJsxTextElement') this.#jsxAttributes(node);
  }

  #alt(node: Node): void {
    const { alt, referenceType } = node as Node & { alt?: string | null; referenceType?: string };
    if (!alt || (node.type === 'imageReference' && referenceType !== 'full')) return;
    const start = startOf(node) + 2;
    let depth = 0;
    for (let index = start; index < endOf(node); index++) {
      const char = this.text[index];
      if (char === '\\') index++;
      else if (char === '[') depth++;
      else if (char === ']' && depth-- === 0) {
        const { mdx, math, features } = this.options;
        const context = { table: false, mdx, math, directives: features.directives };
        this.#plain('image-alt', start, index, alt, markdownText(context));
        return;
      }
    }
  }

  #title(node: Node, kind: string): void {
    const title = (node as Node & { title?: string | null }).title;
    if (!title) return;
    let close = endOf(node) - 1;
    if (node.type !== 'definition') close--; // the `)` ending a link or image
    while (/\s/.test(this.text[close] ?? '')) close--;
    const delimiter = this.text[close];
    const opener = delimiter === ')' ? '(' : delimiter;
    let open = close - 1;
    while (open > startOf(node) && !(this.text[open] === opener && this.text[open - 1] !== '\\')) open--;
    if (this.text[open] !== opener) {
      this.message(startOf(node), `could not locate the ${kind} in the source`);
      return;
    }
    this.#plain(kind, open + 1, close, title, markdownTitle);
  }

  #jsxAttributes(node: Node): void {
    const { name, attributes } = node as Node & { name: string | null; attributes: readonly Node[] };
    for (const attribute of attributes) {
      const { name: attributeName, value } = attribute as Node & { name?: string; value?: unknown };
      if (attribute.type !== 'mdxJsxAttribute' || typeof value !== 'string' || !attribute.position) continue;
      const wanted = this.options.mdxAttributes;
      if (!wanted.includes(attributeName!) && !wanted.includes(`${name}.${attributeName}`)) continue;
      const raw = this.text.slice(startOf(attribute), endOf(attribute));
      const quoteAt = raw.search(/["']/);
      if (quoteAt === -1) continue;
      const start = startOf(attribute) + quoteAt + 1;
      this.#plain(
        `jsx-${name ?? 'fragment'}.${attributeName}`,
        start,
        endOf(attribute) - 1,
        value,
        jsxAttribute(raw[quoteAt]!),
      );
    }
  }

  /**
   * A block of raw HTML: its text runs and translatable attributes are segments, found by the HTML
   * adapter (so `translate="no"` and the other HTML rules apply), at their offsets in the Markdown.
   */
  #html(node: Node & { value: string }): void {
    const offset = startOf(node);
    // Inside a container (`> `, list indentation) the value lacks the prefixes: offsets would not map.
    if (this.text.slice(offset, endOf(node)) !== node.value) {
      if (/\p{L}/u.test(node.value.replace(/<[^>]*>/g, '')))
        this.message(offset, 'HTML inside a blockquote or list item is not translated; left as is');
      return;
    }
    const shift = (piece: Piece): Piece =>
      'literal' in piece ? piece : { start: piece.start + offset, end: piece.end + offset };
    const interpolation = this.options.features.interpolation;
    for (const whole of extractHtml(node.value, { fragment: true, interpolation }).spans) {
      const span = withoutOuterPair(whole, node.value);
      const codes = span.codes.map((code) => ({
        ...code,
        open: shift(code.open),
        ...(code.close ? { close: shift(code.close) } : {}),
      }));
      this.#add(this.#key('html'), span.start + offset, span.end + offset, span.source, codes, span.format);
    }
  }

  #frontmatter(node: Node & { value: string }): void {
    const newline = this.text.indexOf('\n', startOf(node));
    const offset = newline + 1;
    if (this.text.slice(offset, offset + node.value.length) !== node.value) {
      this.message(startOf(node), 'front matter could not be located in the source; left as is');
      return;
    }
    const { ranges, problems } = (node.type === 'yaml' ? yamlFields : tomlFields)(
      node.value,
      offset,
      this.options.frontmatter,
    );
    for (const problem of problems) this.message(problem.offset, problem.reason);
    for (const range of ranges)
      this.#plain(`frontmatter/${range.path}`, range.start, range.end, range.value, quotedScalar, false);
  }
}

/**
 * A span of an HTML block wrapped whole in one element (`<a href="…">\n*bar*\n</a>`): the element's
 * tags are left out of the segment, so the block still starts with its tag whatever the translation
 * puts first (else the block could read as a paragraph).
 */
function withoutOuterPair<
  T extends { start: number; end: number; source: string; codes: readonly CodeSpan[] },
>(span: T, html: string): T {
  const outer = span.codes[0];
  const head = outer && new RegExp(`^<g id="${outer.id}">`).exec(span.source);
  if (!outer?.close || !head || !span.source.endsWith('</g>')) return span;
  if ('literal' in outer.open || 'literal' in outer.close) return span;
  if (outer.open.start !== span.start || outer.close.end !== span.end) return span;
  // The first `<g>` must be the one closed last.
  let depth = 0;
  const tags = [...span.source.matchAll(/<g id="[^"]*">|<\/g>/g)];
  for (const [index, tag] of tags.entries()) {
    depth += tag[0] === '</g>' ? -1 : 1;
    if (depth === 0 && index < tags.length - 1) return span;
  }
  // The line breaks around the text stay too: a block's opening tag must end its line.
  let start = outer.open.end;
  let end = outer.close.start;
  while (start < end && /\s/.test(html[start]!)) start++;
  while (end > start && /\s/.test(html[end - 1]!)) end--;
  const source = span.source.slice(head[0].length, -'</g>'.length).trim();
  if (start === end || source === '') return span;
  return { ...span, start, end, source, codes: span.codes.slice(1) };
}

/** A heading's text as the frameworks slug it: its text and inline code, without markup. */
function headingText(node: Node): string {
  if (node.type === 'text' || node.type === 'inlineCode') return (node as Node & { value: string }).value;
  const children = (node as Partial<Parent>).children;
  return children ? children.map(headingText).join('') : '';
}

/** `## Title {#id}` → `## Title       ` (same length, so every offset holds). */
function blankHeadingIds(text: string): string {
  return text.replace(
    /^([ \t]{0,3}#{1,6}[ \t].*?)([ \t]*\{#[^{}\s]+\})([ \t]*)$/gm,
    (_, head, id, tail) => `${head}${' '.repeat(id.length)}${tail}`,
  );
}

/** Extracts the segments of a Markdown (or MDX) text. Content problems are listed in `messages`. */
export function extract(text: string, options?: MarkdownOptions): MarkdownExtraction {
  if (typeof text !== 'string')
    throw new TypeError(`extract() expects the file's text as a string, got ${typeof text}`);
  const resolved = resolveMarkdownOptions(options);
  const extractor = new Extractor(text, resolved);
  const { lineContainers } = resolved.features;
  const fences =
    lineContainers === 'none'
      ? []
      : findContainerFences(text, extractor.lineStarts, lineContainers === 'legacy');
  let parsed = blankFences(text, fences);
  // MDX would read `{#id}` as an expression (Docusaurus strips heading ids before MDX does): the parser
  // sees spaces there, the bytes stay as written.
  if (resolved.mdx && resolved.features.headingIds) parsed = blankHeadingIds(parsed);
  extractor.flow(markdownParser(resolved).parse(parsed) as Parent);
  for (const fence of fences) if (fence.title) extractor.containerTitle(fence.title.start, fence.title.end);
  extractor.finish();
  const { segments, codes, spans, messages } = extractor;
  // Nested segments (an alt text, a link title) are found before the sentence around them: list in document order.
  segments.sort((a, b) => (a.position?.offset ?? 0) - (b.position?.offset ?? 0));
  return { text, options: resolved, segments, codes, spans, messages };
}
