/**
 * Turns one request text into engine units and back. Plain text is split into sentences; with
 * `tag_handling`, the caller's XML or HTML becomes the engine's codes (`<g id>` around inline markup,
 * `<x id/>` for standalone and ignored parts), structural elements split the text into separate units, and
 * the translated units are put back into the original markup. Whitespace around units never reaches the
 * engine, and units without a letter are not sent at all.
 */

import { type CodeTable, codeIds, restoreCodes } from './codes.js';
import { escapeText, HTML_RAW_TEXT, hasDirectText, type MarkupNode, parseMarkup } from './markup-parse.js';
import { type SplitMode, splitSentences } from './sentences.js';

export interface PrepareOptions {
  readonly tagHandling: 'xml' | 'html' | undefined;
  readonly splitSentences: SplitMode;
  readonly splittingTags: ReadonlySet<string>;
  readonly nonSplittingTags: ReadonlySet<string>;
  readonly ignoreTags: ReadonlySet<string>;
  readonly preserveFormatting: boolean;
}

export interface PreparedText {
  /** What the engine translates, in order. */
  readonly units: readonly string[];
  /** Characters billed: code points of the text, without markup. */
  readonly billed: number;
  /** The translated text from the engine's outputs for `units`. */
  assemble(outputs: readonly string[]): string;
}

type Part = string | number;

export const HTML_BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header',
  'hgroup', 'html', 'legend', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'title', 'tr', 'ul',
]); // biome-ignore format: a word list

const LETTER = /\p{L}/u;
const LOW_SURROGATE = /[\udc00-\udfff]/;
const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;
/** Code points: UTF-16 units less one per surrogate pair (most texts have none: one native scan). */
export const codePoints = (text: string) =>
  LOW_SURROGATE.test(text) ? text.length - (text.match(SURROGATE_PAIR)?.length ?? 0) : text.length;

function addUnit(parts: Part[], units: string[], piece: string, literal?: (text: string) => string): void {
  const core = piece.trim();
  // In code form, tags and entities are not letters of the text.
  const letters = literal ? core.replace(/<[^>]*>|&[a-z]+;/g, '') : core;
  if (core === '' || !LETTER.test(letters)) {
    parts.push(literal ? literal(piece) : piece);
    return;
  }
  const start = piece.length - piece.trimStart().length;
  if (start > 0) parts.push(piece.slice(0, start));
  parts.push(units.length);
  units.push(core);
  if (start + core.length < piece.length) parts.push(piece.slice(start + core.length));
}

/**
 * A prepared text: the template (literal strings and unit indexes) and how to restore each unit's output.
 * A class rather than closures: one is made per text of every request.
 */
class Prepared implements PreparedText {
  constructor(
    readonly units: readonly string[],
    readonly billed: number,
    private readonly parts: readonly Part[],
    private readonly restore: 'plain' | 'preserve' | 'codes',
    private readonly codes?: CodeTable,
  ) {}

  assemble(outputs: readonly string[]): string {
    let result = '';
    for (const part of this.parts) {
      if (typeof part === 'string') result += part;
      else result += this.unitOutput(outputs[part] ?? '', part);
    }
    return result;
  }

  private unitOutput(output: string, unit: number): string {
    if (this.restore === 'plain') return output;
    const source = this.units[unit]!;
    if (this.restore === 'preserve') return keepFormatting(source, output);
    return restoreCodes(output, this.codes!, codeIds(source));
  }
}

/** Targets whose nouns are capitalized: a capital at the start of a translation may be the noun's own. */
const CAPITALIZED_NOUNS = new Set(['de', 'lb']);

/**
 * A unit that starts in lower case translates to a unit that starts in lower case: Apertium writes every
 * segment in sentence case, and many units are not sentences (a table cell "black" came back "Negro", a line
 * continuing a paragraph "and the garden …" capitalized). `markup`: the units are in code form. Without a
 * `target`, no exception for languages that capitalize their nouns.
 */
export function keepInitialCase(source: string, output: string, markup: boolean, target?: string): string {
  if (target && CAPITALIZED_NOUNS.has(target.split('-')[0]!.toLowerCase())) return output;
  // In code form, tags and entities are not text: blanked out (same length) to find the first letter.
  const text = (form: string) =>
    markup ? form.replace(/<[^>]*>|&[#\w]+;/g, (part) => ' '.repeat(part.length)) : form;
  const first = /\p{L}/u.exec(text(source))?.[0];
  const out = /\p{L}/u.exec(text(output));
  if (!first || !out || first !== first.toLowerCase() || first === first.toUpperCase()) return output;
  if (out[0] === out[0].toLowerCase()) return output;
  return output.slice(0, out.index) + out[0].toLowerCase() + output.slice(out.index + out[0].length);
}

/** With `preserve_formatting`, the output keeps the source's initial case and its final punctuation. */
function keepFormatting(source: string, output: string): string {
  let result = keepInitialCase(source, output, false);
  const end = /[.!?…。]$/u;
  if (!end.test(source) && end.test(result)) result = result.replace(/[.!?…。]+$/u, '');
  return result;
}

function preparePlain(text: string, options: PrepareOptions): PreparedText {
  const parts: Part[] = [];
  const units: string[] = [];
  for (const piece of splitSentences(text, options.splitSentences, false)) addUnit(parts, units, piece);
  return new Prepared(units, codePoints(text), parts, options.preserveFormatting ? 'preserve' : 'plain');
}

const TRANSLATE_NO = /\stranslate\s*=\s*(?:"\s*no\s*"|'\s*no\s*'|no(?=[\s/>]))/i;
const CLASS_ATTRIBUTE = /\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;

/**
 * An HTML element its author marked as not to be translated: `translate="no"` or the `notranslate` class
 * (kept as written with `tag_handling=html`, like an element of `ignore_tags`).
 */
export function markedNoTranslate(open: string): boolean {
  if (TRANSLATE_NO.test(open)) return true;
  const match = CLASS_ATTRIBUTE.exec(open);
  const classes = match?.[1] ?? match?.[2] ?? match?.[3];
  return classes?.split(/\s+/).includes('notranslate') === true;
}

function prepareMarkup(text: string, options: PrepareOptions): PreparedText {
  const html = options.tagHandling === 'html';
  const nodes = parseMarkup(text, html);
  const codes: CodeTable = new Map();
  const parts: Part[] = [];
  const units: string[] = [];
  let billed = 0;

  const isIgnored = (node: Extract<MarkupNode, { kind: 'element' }>) =>
    options.ignoreTags.has(node.name) || (html && markedNoTranslate(node.open));
  const splits = new WeakMap<MarkupNode, boolean>();
  const forcesSplit = (node: MarkupNode): boolean => {
    let result = splits.get(node);
    if (result === undefined) {
      result =
        node.kind === 'element' &&
        !options.nonSplittingTags.has(node.name) &&
        !isIgnored(node) &&
        (options.splittingTags.has(node.name) ||
          (html && HTML_BLOCKS.has(node.name)) ||
          node.children.some(forcesSplit));
      splits.set(node, result);
    }
    return result;
  };
  const isSplitting = (node: Extract<MarkupNode, { kind: 'element' }>) => {
    if (options.nonSplittingTags.has(node.name)) return false;
    // A splitting tag, or an element that holds one, splits wherever it is.
    if (forcesSplit(node)) return true;
    // Outline detection: an element holding only elements (and whitespace) is structure, not a phrase,
    // unless it only wraps one element that is a phrase itself (`<g><g>user guide</g></g>` in a sentence).
    if (html || hasDirectText(node)) return false;
    const elements = node.children.filter((child) => child.kind === 'element');
    return elements.length > 1 || elements.some(isSplitting);
  };
  const serialize = (list: readonly MarkupNode[]): string =>
    list
      .map((node) =>
        node.kind === 'text'
          ? node.raw
          : node.kind === 'standalone'
            ? node.raw
            : node.raw || node.open + serialize(node.children) + node.close,
      )
      .join('');
  const codeForm = (list: readonly MarkupNode[]): string =>
    list
      .map((node) => {
        if (node.kind === 'text') {
          billed += codePoints(node.text);
          return escapeText(node.text);
        }
        const id = codes.size + 1;
        if (node.kind === 'standalone') {
          codes.set(id, { kind: 'x', text: node.raw });
          return `<x id="${id}"/>`;
        }
        if (isIgnored(node) || (html && HTML_RAW_TEXT.has(node.name))) {
          billed += isIgnored(node) ? codePoints(textOf(node.children)) : 0;
          codes.set(id, { kind: 'x', text: node.raw || node.open + serialize(node.children) + node.close });
          return `<x id="${id}"/>`;
        }
        codes.set(id, { kind: 'g', open: node.open, close: node.close });
        return `<g id="${id}">${codeForm(node.children)}</g>`;
      })
      .join('');
  const flushRun = (run: MarkupNode[]) => {
    if (run.length === 0) return;
    const form = codeForm(run);
    const literal = (piece: string) => restoreCodes(piece, codes, codeIds(piece));
    for (const piece of splitSentences(form, options.splitSentences, true))
      addUnit(parts, units, piece, literal);
    run.length = 0;
  };
  const walkBlock = (list: readonly MarkupNode[]) => {
    const run: MarkupNode[] = [];
    for (const node of list) {
      if (node.kind === 'element' && !isIgnored(node) && isSplitting(node)) {
        flushRun(run);
        if (html && HTML_RAW_TEXT.has(node.name)) parts.push(node.raw);
        else {
          parts.push(node.open);
          walkBlock(node.children);
          parts.push(node.close);
        }
      } else run.push(node);
    }
    flushRun(run);
  };
  walkBlock(nodes);

  return new Prepared(units, billed, parts, 'codes', codes);
}

function textOf(list: readonly MarkupNode[]): string {
  return list
    .map((node) => (node.kind === 'text' ? node.text : node.kind === 'element' ? textOf(node.children) : ''))
    .join('');
}

export function prepareText(text: string, options: PrepareOptions): PreparedText {
  return options.tagHandling ? prepareMarkup(text, options) : preparePlain(text, options);
}
