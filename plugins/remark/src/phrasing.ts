/**
 * One segment from a run of phrasing content (a paragraph, heading or table cell): text stays text,
 * inline syntax becomes codes (`<g>` around emphasis, strong, links; `<x/>` for inline code, math,
 * inline HTML, images, breaks), so a sentence travels whole.
 */

import type { CodeSpan, Piece } from '@glossa/core';
import { escapeXmlText } from '@glossa/core';
import type { Node, Parent } from 'unist';
import type { DialectFeatures } from './options.js';

export const startOf = (node: Node) => node.position!.start.offset!;
export const endOf = (node: Node) => node.position!.end.offset!;

/** Whether every node under `node` knows its offsets (plugins such as GFM autolink literals may add nodes without). */
export function positioned(node: Node): boolean {
  if (node.position?.start.offset === undefined || node.position.end.offset === undefined) return false;
  const children = (node as Partial<Parent>).children;
  return !children || children.every(positioned);
}

/** Called for the parts of inline nodes that are segments of their own (alt text, titles, JSX attributes). */
export type NestedSpans = (node: Node) => void;

/** A link whose text is its own URL (`[example.org](https://example.org)`) has nothing to translate. */
function showsItsUrl(link: Parent & { url: string }): boolean {
  const [only] = link.children;
  if (link.children.length !== 1 || only?.type !== 'text') return false;
  const shown = (only as Node & { value: string }).value;
  return link.url === shown || link.url.replace(/^[a-z]+:(\/\/)?/i, '') === shown;
}

export class PhrasingBuilder {
  source = '';
  readonly codes: CodeSpan[] = [];
  hasText = false;
  /** Literal autolinks (`https://…`, `www.…`, addresses) in this run, kept as written (see `markdownText`). */
  readonly autolinks: { readonly text: string; readonly url: string }[] = [];
  #next = 1;

  constructor(
    private readonly nested: NestedSpans,
    private readonly text: string,
    /** Vue's `{{ … }}`, inline footnotes and emoji shortcodes in text (by dialect). */
    private readonly features: Pick<DialectFeatures, 'interpolation' | 'inlineFootnotes' | 'emoji'> = {
      interpolation: false,
      inlineFootnotes: false,
      emoji: false,
    },
  ) {}

  private source0(node: Node): string {
    return this.text[startOf(node)] ?? '';
  }

  addText(value: string): void {
    this.source += escapeXmlText(value.replace(/[ \t]*\r?\n[ \t]*/g, ' '));
    if (/\p{L}/u.test(value)) this.hasText = true;
  }

  standalone(open: Piece): void {
    const id = String(this.#next++);
    this.codes.push({ id, kind: 'x', open });
    this.source += `<x id="${id}"/>`;
  }

  paired(open: Piece, close: Piece, inner: () => void): void {
    const id = String(this.#next++);
    this.codes.push({ id, kind: 'g', open, close });
    this.source += `<g id="${id}">`;
    inner();
    this.source += '</g>';
  }

  /**
   * A text node's value: plain text, with Vue's `{{ … }}` and emoji shortcodes as standalone codes and
   * an inline footnote's `^[` … `]` as a pair around its note.
   */
  #textValue(value: string): void {
    const patterns: string[] = [];
    if (this.features.interpolation) patterns.push('\\{\\{[\\s\\S]*?\\}\\}');
    if (this.features.emoji) patterns.push(':[a-z0-9_+-]*[a-z][a-z0-9_+-]*:');
    if (this.features.inlineFootnotes) patterns.push('\\^\\[[^\\[\\]]*\\]');
    if (patterns.length === 0) {
      this.addText(value);
      return;
    }
    let at = 0;
    for (const match of value.matchAll(new RegExp(patterns.join('|'), 'g'))) {
      this.addText(value.slice(at, match.index));
      const found = match[0];
      if (found.startsWith('^[') && /\p{L}/u.test(found)) {
        this.paired({ literal: '^[' }, { literal: ']' }, () => this.addText(found.slice(2, -1)));
      } else this.standalone({ literal: found });
      at = match.index + found.length;
    }
    this.addText(value.slice(at));
  }

  /** Adds the phrasing children of `parent`, in order. */
  addChildren(parent: Parent): void {
    const children = parent.children;
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      // Inline HTML with Vue's `v-pre` (`<span v-pre>{{ raw }}</span>`): shown as written, one code.
      const vPre =
        child.type === 'html'
          ? /^<([A-Za-z][\w-]*)\b[^>]*\sv-pre\b/.exec((child as Node & { value: string }).value)
          : null;
      if (vPre) {
        const closing = `</${vPre[1]!.toLowerCase()}>`;
        const end = children.findIndex(
          (c, i) =>
            i > index &&
            c.type === 'html' &&
            (c as Node & { value: string }).value.toLowerCase().replace(/\s+/g, '') === closing,
        );
        if (end !== -1) {
          this.standalone({ start: startOf(child), end: endOf(children[end]!) });
          index = end;
          continue;
        }
      }
      const nextStart = index + 1 < children.length ? startOf(children[index + 1]!) : endOf(parent);
      this.addNode(child, nextStart);
    }
  }

  private wrap(node: Parent, close?: Piece): void {
    const first = node.children[0];
    const last = node.children.at(-1);
    if (!first || !last) {
      this.standalone({ start: startOf(node), end: endOf(node) });
      return;
    }
    this.paired(
      { start: startOf(node), end: startOf(first) },
      close ?? { start: endOf(last), end: endOf(node) },
      () => this.addChildren(node),
    );
  }

  private addNode(node: Node, nextStart: number): void {
    const whole = { start: startOf(node), end: endOf(node) };
    switch (node.type) {
      case 'text':
        this.#textValue((node as Node & { value: string }).value);
        return;
      case 'emphasis':
      case 'strong':
      case 'delete':
        this.wrap(node as Parent);
        return;
      case 'link':
        // An autolink (`<https://…>`, `www.…`) shows its URL: never translated.
        if (this.source0(node) === '<') {
          this.standalone(whole);
          return;
        }
        if (this.source0(node) !== '[') {
          // A literal autolink (`https://…`, `www.…`, an address): its bytes stay as written.
          const { url } = node as Node & { url: string };
          this.autolinks.push({ text: this.text.slice(whole.start, whole.end), url });
          this.standalone(whole);
          return;
        }
        if (
          showsItsUrl(node as Parent & { url: string }) ||
          // `[http://localhost:3000/](http://localhost:3000/)` (how a literal autolink is written when a
          // translation puts a character against it), whatever the label parses into (`:3000`).
          this.text.slice(whole.start, whole.end) ===
            `[${(node as Node & { url: string }).url}](${(node as Node & { url: string }).url})`
        ) {
          this.standalone(whole);
          return;
        }
        this.nested(node);
        this.wrap(node as Parent);
        return;
      case 'linkReference': {
        const reference = node as Parent & { referenceType: string; label?: string };
        // `[text]` and `[text][]` use the text as the label: a translation keeps the label explicitly.
        if (reference.referenceType === 'full' || reference.label == null) {
          this.wrap(reference);
          return;
        }
        // The label as written (escapes and all): `[Foo*bar\]]` → `][Foo*bar\]]`.
        const raw = this.text.slice(
          startOf(reference) + 1,
          endOf(reference) - (reference.referenceType === 'collapsed' ? 3 : 1),
        );
        this.wrap(reference, { literal: `][${raw}]` });
        return;
      }
      case 'textDirective':
        // `:abbr[label]{title="…"}`: the label is text, name and attributes stay as written.
        this.wrap(node as Parent);
        return;
      case 'mdxJsxTextElement':
        this.nested(node);
        this.wrap(node as Parent);
        return;
      case 'image':
      case 'imageReference':
        this.nested(node);
        this.standalone(whole);
        return;
      case 'break':
        // The break's bytes run up to the next node: the newline and any container prefix (`> `).
        this.standalone({ start: whole.start, end: Math.max(whole.end, nextStart) });
        return;
      default:
        if ('children' in node && Array.isArray(node.children)) {
          this.addChildren(node as Parent);
          return;
        }
        this.standalone(whole);
        return;
    }
  }
}
