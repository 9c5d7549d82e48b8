/**
 * The positional skeleton: every segment and every inline code is a byte range of the original text.
 * Merging splices translated segments into the original by position, so bytes outside translated
 * segments (markers, spacing, line breaks, URLs) come out exactly as written. Segments may nest inside
 * codes (an image's alt text inside the paragraph holding the image); a range is rendered with the
 * segments inside it applied, innermost first. Shared by the document adapters (@glossa/remark,
 * @glossa/rehype).
 */
import { readTarget } from './inline-xml.js';

/** Bytes of the original text (`start`…`end`), or literal bytes the adapter wrote itself. */
export type Piece = { readonly start: number; readonly end: number } | { readonly literal: string };

export interface CodeSpan {
  readonly id: string;
  readonly kind: 'g' | 'x';
  /** `g`: the opening markup; `x`: the whole code. */
  readonly open: Piece;
  readonly close?: Piece;
}

export interface SpanFormat {
  /** Escapes translated text so it reads back as the same text in this spot of the file. */
  readonly encode: (text: string) => string;
  /** Wraps the whole rendered target (quotes around an attribute value); identity when absent. */
  readonly frame?: (rendered: string) => string;
}

export interface SegmentSpan {
  readonly key: string;
  readonly start: number;
  readonly end: number;
  /** The segment's source (inline XML), compared with the target to keep untouched segments byte-exact. */
  readonly source: string;
  readonly codes: readonly CodeSpan[];
  readonly format: SpanFormat;
}

/** A problem with one translated segment; the segment is kept in the source language. */
export interface MergeProblem {
  readonly key: string;
  readonly offset: number;
  readonly reason: string;
}

/** An edit the adapter makes outside any segment (the `lang` attribute of `<html>`). */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

interface SpanNode {
  readonly span: SegmentSpan | Edit;
  readonly children: SpanNode[];
}

function contains(outer: SegmentSpan | Edit, inner: SegmentSpan | Edit): boolean {
  return inner.start >= outer.start && inner.end <= outer.end && inner.start < outer.end;
}

function buildTree(spans: readonly (SegmentSpan | Edit)[]): SpanNode[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const roots: SpanNode[] = [];
  const stack: SpanNode[] = [];
  for (const span of sorted) {
    const node: SpanNode = { span, children: [] };
    while (stack.length > 0 && !contains(stack.at(-1)!.span, span)) stack.pop();
    (stack.at(-1)?.children ?? roots).push(node);
    stack.push(node);
  }
  return roots;
}

/** Targets by segment key, as a Map or a plain object (what the adapters' `merge` functions take). */
export type Translations = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

/** `translations` as a Map; a TypeError for anything that is neither a Map nor a plain object. */
export function toTranslationMap(translations: Translations): ReadonlyMap<string, string> {
  if (translations instanceof Map) return translations;
  if (typeof translations !== 'object' || translations === null)
    throw new TypeError(
      `translations must be a Map or a plain object of key → target, got ${typeof translations}`,
    );
  return new Map(Object.entries(translations));
}

/**
 * Renders `text` with each segment replaced by its translation (segments without one, or whose target
 * equals the source, keep their original bytes). Invalid targets are reported and left in the source.
 */
export function spliceTranslations(
  text: string,
  spans: readonly SegmentSpan[],
  translations: ReadonlyMap<string, string>,
  onProblem: (problem: MergeProblem) => void,
  edits: readonly Edit[] = [],
): string {
  const renderRange = (start: number, end: number, candidates: readonly SpanNode[]): string => {
    let out = '';
    let position = start;
    for (const node of candidates) {
      const { span } = node;
      if (span.start < start || span.end > end || span.start < position) continue;
      out += text.slice(position, span.start) + renderNode(node);
      position = span.end;
    }
    return out + text.slice(position, end);
  };
  const renderPiece = (piece: Piece | undefined, children: readonly SpanNode[]): string => {
    if (piece === undefined) return '';
    return 'literal' in piece ? piece.literal : renderRange(piece.start, piece.end, children);
  };
  const renderNode = (node: SpanNode): string => {
    const { span, children } = node;
    if (!('key' in span)) return span.text;
    const target = translations.get(span.key);
    if (target === undefined || target === span.source) return renderRange(span.start, span.end, children);
    const codes = new Map(span.codes.map((code) => [code.id, code]));
    const read = readTarget(target, new Map(span.codes.map((code) => [code.id, code.kind])));
    if ('problem' in read) {
      onProblem({ key: span.key, offset: span.start, reason: read.problem });
      return renderRange(span.start, span.end, children);
    }
    let out = '';
    for (const token of read.tokens) {
      if (token.type === 'text') out += span.format.encode(token.value);
      else if (token.type === 'close') out += renderPiece(codes.get(token.id)?.close, children);
      else out += renderPiece(codes.get(token.id)?.open, children);
    }
    return span.format.frame ? span.format.frame(out) : out;
  };
  return renderRange(0, text.length, buildTree([...spans, ...edits]));
}
