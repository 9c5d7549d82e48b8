/** `extract`: the segments of an HTML file, each with the byte ranges of its text and codes. */
import type { CodeMap, CodeSpan, Piece, Segment, SegmentSpan, SpanFormat } from '@glossa/core';
import { escapeXmlText } from '@glossa/core';
import type { Comment, Element, ElementContent, Root, RootContent, Text } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import type { Position } from 'unist';
import { INLINE, translatableAttributes, translateState, UNTOUCHED, VOID } from './elements.js';
import { attributeValue, htmlText } from './formats.js';
import { type HtmlOptions, type ResolvedHtmlOptions, resolveHtmlOptions } from './options.js';

export interface HtmlExtraction {
  readonly text: string;
  readonly options: ResolvedHtmlOptions;
  readonly segments: readonly Segment[];
  /** The original bytes of each segment's inline codes, by segment key. */
  readonly codes: Readonly<Record<string, CodeMap>>;
  /** The skeleton: byte ranges of every segment and code, used by `merge`. */
  readonly spans: readonly SegmentSpan[];
  /** The parsed tree (with opening/closing tag and attribute positions). */
  readonly tree: Root;
}

type Node = Root | RootContent;
type Positions = {
  opening?: Position;
  closing?: Position;
  properties?: Record<string, Position | undefined>;
};

const start = (node: { position?: Position | undefined }) => node.position?.start.offset;
const end = (node: { position?: Position | undefined }) => node.position?.end.offset;
export const tagPositions = (element: Element) =>
  (element.data as { position?: Positions } | undefined)?.position;
const WHITESPACE = /^[ \t\n\r\f]*$/;

function isInline(node: Node): boolean {
  if (node.type === 'text' || node.type === 'comment') return true;
  if (node.type !== 'element' || !INLINE.has(node.tagName) || start(node) === undefined) return false;
  return UNTOUCHED.has(node.tagName) || node.children.every(isInline);
}

class Extractor {
  readonly spans: SegmentSpan[] = [];
  readonly segments: Segment[] = [];
  readonly codes: Record<string, CodeMap> = {};
  readonly #counters = new Map<string, number>();

  constructor(
    readonly text: string,
    readonly options: ResolvedHtmlOptions,
  ) {}

  #add(
    kind: string,
    at: Position['start'],
    range: [number, number],
    source: string,
    codes: readonly CodeSpan[],
    format: SpanFormat,
  ) {
    const count = (this.#counters.get(kind) ?? 0) + 1;
    this.#counters.set(kind, count);
    const key = this.options.file ? `${this.options.file}#${kind}-${count}` : `${kind}-${count}`;
    this.spans.push({ key, start: range[0], end: range[1], source, codes, format });
    this.segments.push({ key, source, position: { line: at.line, column: at.column, offset: range[0] } });
    const bytes = (piece: Piece) =>
      'literal' in piece ? piece.literal : this.text.slice(piece.start, piece.end);
    const map: Record<string, { kind: 'g' | 'x'; open?: string; close?: string; text?: string }> = {};
    for (const code of codes)
      map[code.id] =
        code.kind === 'x'
          ? { kind: 'x', text: bytes(code.open) }
          : { kind: 'g', open: bytes(code.open), close: bytes(code.close!) };
    if (codes.length > 0) this.codes[key] = map;
  }

  /** Block-level content: runs of inline children become segments, other elements are walked. */
  container(parent: Root | Element, translatable: boolean): void {
    let run: (Text | Comment | Element)[] = [];
    for (const child of parent.children) {
      if (isInline(child)) {
        run.push(child as Text | Comment | Element);
        continue;
      }
      this.#run(run, translatable, parent);
      run = [];
      if (child.type === 'element') this.#block(child, translatable);
    }
    this.#run(run, translatable, parent);
  }

  #block(element: Element, inherited: boolean): void {
    if (UNTOUCHED.has(element.tagName)) return;
    const translatable = translateState(element, inherited);
    if (translatable) this.#attributes(element);
    this.container(element, translatable);
  }

  #attributes(element: Element): void {
    const positions = tagPositions(element)?.properties ?? {};
    for (const [property, name] of translatableAttributes(element)) {
      const position = positions[property];
      const value = element.properties[property] as string;
      if (!position || !/\p{L}/u.test(value)) continue;
      const raw = this.text.slice(start({ position })!, end({ position })!);
      const equals = raw.indexOf('=');
      if (equals === -1) continue;
      let valueStart = start({ position })! + equals + 1;
      while (/\s/.test(this.text[valueStart] ?? '')) valueStart++;
      const quote = /["']/.test(this.text[valueStart] ?? '') ? this.text[valueStart]! : '';
      const range: [number, number] = quote
        ? [valueStart + 1, end({ position })! - 1]
        : [valueStart, end({ position })!];
      this.#add(
        `${element.tagName}.${name}`,
        position.start,
        range,
        escapeXmlText(value),
        [],
        attributeValue(quote),
      );
    }
  }

  /** Attributes inside a run, and `translate="yes"` islands inside untranslatable runs. */
  #inlineAttributes(node: Text | Comment | Element, translatable: boolean): void {
    if (node.type !== 'element' || UNTOUCHED.has(node.tagName)) return;
    const inner = translateState(node, translatable);
    if (!translatable && inner) {
      this.container(node, true);
      return;
    }
    if (inner) this.#attributes(node);
    for (const child of node.children) if (isInline(child)) this.#inlineAttributes(child as Element, inner);
  }

  #run(run: (Text | Comment | Element)[], translatable: boolean, parent: Root | Element): void {
    for (const node of run) this.#inlineAttributes(node, translatable);
    if (!translatable) return;
    let first = 0;
    let last = run.length - 1;
    const blank = (node: Node) =>
      node.type === 'comment' || (node.type === 'text' && WHITESPACE.test(node.value));
    while (first <= last && blank(run[first]!)) first++;
    while (last >= first && blank(run[last]!)) last--;
    if (first > last) return;
    const nodes = run.slice(first, last + 1);
    const builder = new RunBuilder(this.options.interpolation);
    for (const node of nodes) builder.add(node, translatable);
    if (!builder.hasText) return;
    // Leading and trailing whitespace stays outside the segment, as written.
    let rangeStart = start(nodes[0]!)!;
    let rangeEnd = end(nodes.at(-1)!)!;
    while (/[ \t\n\r\f]/.test(this.text[rangeStart] ?? '')) rangeStart++;
    while (/[ \t\n\r\f]/.test(this.text[rangeEnd - 1] ?? '')) rangeEnd--;
    const kind = parent.type === 'root' ? 'root' : parent.tagName;
    const at = this.#point(rangeStart, nodes[0]!);
    this.#add(kind, at, [rangeStart, rangeEnd], builder.source.trim(), builder.codes, htmlText);
  }

  #point(offset: number, node: Node) {
    const position = node.position!.start;
    const before = this.text.slice(position.offset!, offset);
    const lines = before.split('\n');
    return lines.length === 1
      ? { line: position.line, column: position.column + before.length, offset }
      : { line: position.line + lines.length - 1, column: lines.at(-1)!.length + 1, offset };
  }
}

/** Builds one segment's inline XML from a run of inline nodes. */
class RunBuilder {
  source = '';
  readonly codes: CodeSpan[] = [];
  hasText = false;
  #next = 1;

  /** `interpolation`: Vue's `{{ … }}` in text is a standalone code. */
  constructor(private readonly interpolation = false) {}

  #text(value: string): void {
    this.source += escapeXmlText(value.replace(/[ \t\n\r\f]+/g, ' '));
    if (/\p{L}/u.test(value)) this.hasText = true;
  }

  add(node: Text | Comment | Element | ElementContent, translatable: boolean): void {
    if (node.type === 'text') {
      if (!this.interpolation || !node.value.includes('{{')) {
        this.#text(node.value);
        return;
      }
      let at = 0;
      for (const match of node.value.matchAll(/\{\{[\s\S]*?\}\}/g)) {
        this.#text(node.value.slice(at, match.index));
        this.#standalone({ literal: match[0] });
        at = match.index + match[0].length;
      }
      this.#text(node.value.slice(at));
      return;
    }
    const whole = { start: start(node)!, end: end(node)! };
    if (node.type !== 'element') {
      this.#standalone(whole);
      return;
    }
    const inner = translateState(node, translatable);
    const tags = tagPositions(node);
    if (
      !inner ||
      UNTOUCHED.has(node.tagName) ||
      VOID.has(node.tagName) ||
      node.children.length === 0 ||
      !tags?.opening
    ) {
      this.#standalone(whole);
      return;
    }
    const openEnd = end({ position: tags.opening })!;
    const close = tags.closing
      ? { start: start({ position: tags.closing })!, end: whole.end }
      : { start: whole.end, end: whole.end };
    const id = String(this.#next++);
    this.codes.push({ id, kind: 'g', open: { start: whole.start, end: openEnd }, close });
    this.source += `<g id="${id}">`;
    for (const child of node.children) this.add(child, inner);
    this.source += '</g>';
  }

  #standalone(open: Piece): void {
    const id = String(this.#next++);
    this.codes.push({ id, kind: 'x', open });
    this.source += `<x id="${id}"/>`;
  }
}

const documentPattern = /^\s*(<!--[\s\S]*?-->\s*)*(<!doctype|<html)/i;

export function parseHtml(text: string, options: ResolvedHtmlOptions): Root {
  const fragment = options.fragment ?? !documentPattern.test(text);
  return unified().use(rehypeParse, { fragment, verbose: true }).parse(text);
}

/** Extracts the segments of an HTML text. */
export function extract(text: string, options?: HtmlOptions): HtmlExtraction {
  if (typeof text !== 'string')
    throw new TypeError(`extract() expects the file's text as a string, got ${typeof text}`);
  const resolved = resolveHtmlOptions(options);
  const tree = parseHtml(text, resolved);
  const extractor = new Extractor(text, resolved);
  extractor.container(tree, true);
  const { segments, codes, spans } = extractor;
  // Nested segments (an alt text, a link title) are found before the sentence around them: list in document order.
  segments.sort((a, b) => (a.position?.offset ?? 0) - (b.position?.offset ?? 0));
  return { text, options: resolved, segments, codes, spans, tree };
}
