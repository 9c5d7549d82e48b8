/**
 * The part of extraction every framework shares: a component's markup, as a small tree each parser's
 * adapter builds (JSX, Vue templates, Svelte), cut into units. A run of text, expressions and inline
 * elements becomes one unit (the sentence stays whole: an expression is a standalone code, an inline
 * element a paired code); any other element, component or control-flow block ends the run and is a
 * container of its own. Selected attributes with static values are units of their own.
 */
import { type Escape, type Piece, type Unit, unitOfPieces, unitOfText } from './units.js';

export type MarkupNode =
  /** Text as rendered (entities decoded, whitespace as the framework keeps it). */
  | { readonly type: 'text'; readonly start: number; readonly end: number; readonly text: string }
  /** An expression in text (`{name}`, `{{ count }}`); `visit` walks markup nested inside it, if any. */
  | {
      readonly type: 'expression';
      readonly start: number;
      readonly end: number;
      /** Whether it holds markup (then it ends the run and `visit` extracts from it). */
      readonly markup: boolean;
      readonly visit?: () => void;
    }
  | MarkupElement
  /** A control-flow block (`{#if}`, `{#each}`), a comment or anything else that ends a run. */
  | { readonly type: 'block'; readonly start: number; readonly end: number; readonly visit?: () => void };

export interface MarkupElement {
  readonly type: 'element';
  /** Tag or component name as written (`p`, `Link`, `motion.div`). */
  readonly name: string;
  readonly start: number;
  readonly end: number;
  /** End of the opening tag and start of the closing tag; both `end` for a self-closing element. */
  readonly openEnd: number;
  readonly closeStart: number;
  readonly children: readonly MarkupNode[];
  readonly attributes: readonly MarkupAttribute[];
  /** `translate="no"` or `data-glossa-ignore`: nothing inside is extracted. */
  readonly ignore: boolean;
}

/** A static attribute value: the range inside its quotes and its rendered text. */
export interface MarkupAttribute {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly value: string;
  readonly escape: Escape;
}

/** Names of attributes, props and object properties whose static string values are translated. */
export interface NameMatcher {
  has(name: string): boolean;
}

/** A matcher of names and patterns (`/Text$/`); its `toJSON` is part of the unit cache's salt. */
export function nameMatcher(names: readonly (string | RegExp)[]): NameMatcher {
  const exact = new Set(names.filter((n): n is string => typeof n === 'string'));
  const patterns = names.filter((n): n is RegExp => n instanceof RegExp);
  return {
    has: (name) => exact.has(name) || patterns.some((p) => p.test(name)),
    toJSON: () => [...[...exact].sort(), ...patterns.map(String)],
  } as NameMatcher;
}

export interface MarkupOptions {
  /** Attributes and props whose static values are translated. */
  readonly attributes: NameMatcher;
  /** Elements that stay inside a sentence as paired codes. */
  readonly inline: ReadonlySet<string>;
}

/** The words UI text goes by, as a name and as a suffix (`linkText`, `pageTitle`, `link-text`). */
const TEXT_WORDS = [
  'text',
  'label',
  'title',
  'message',
  'msg',
  'description',
  'placeholder',
  'hint',
  'tooltip',
  'caption',
  'heading',
  'subtitle',
];
const capitalized = TEXT_WORDS.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('|');
export const DEFAULT_ATTRIBUTES: readonly (string | RegExp)[] = [
  'alt',
  ...TEXT_WORDS,
  'desc',
  'summary',
  'subTitle',
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  new RegExp(`^[a-z][a-zA-Z0-9]*(${capitalized})$`),
  new RegExp(`^[a-z][a-z0-9]*(-[a-z0-9]+)*-(${TEXT_WORDS.join('|')})$`),
];
export const DEFAULT_INLINE = [
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
  'Link',
  'NavLink',
  'RouterLink',
];

/** Content never translated: code, preformatted text, scripts, styles, drawings. */
const OPAQUE = new Set(['code', 'kbd', 'samp', 'var', 'pre', 'script', 'style', 'svg', 'math']);
/** Inline elements without content: standalone codes. */
const VOID_INLINE = new Set(['br', 'wbr']);

export function extractMarkup(
  code: string,
  roots: readonly MarkupNode[],
  options: MarkupOptions,
  units: Unit[],
): void {
  const inlineable = (node: MarkupNode): boolean => {
    if (node.type === 'text') return true;
    if (node.type === 'expression') return !node.markup;
    if (node.type === 'block') return false;
    if (!options.inline.has(node.name) || node.ignore) return false;
    if (OPAQUE.has(node.name) || VOID_INLINE.has(node.name)) return true;
    // Inside a sentence its attributes are part of the code's bytes: one with a translatable
    // attribute (`<a title>`) is a container of its own, so the attribute is translated.
    if (node.attributes.some((a) => options.attributes.has(a.name))) return false;
    return node.children.every(inlineable);
  };

  const element = (el: MarkupElement) => {
    if (el.ignore) return;
    for (const a of el.attributes) {
      if (!options.attributes.has(a.name)) continue;
      const unit = unitOfText(a.start, a.end, a.value, a.escape, `attribute ${a.name}`);
      if (unit) units.push(unit);
    }
    if (!OPAQUE.has(el.name)) container(el.children);
  };

  const container = (children: readonly MarkupNode[]) => {
    let run: MarkupNode[] = [];
    const flush = () => {
      // Elements side by side with no text between them (`<nav><a>Home</a> <a>Shop</a></nav>`) are
      // items, each its own unit, not the words of one sentence.
      const elements = run.filter((n) => n.type === 'element');
      const items =
        elements.length >= 2 &&
        run.every((n) => n.type === 'element' || (n.type === 'text' && /^[ \t\n\r\f]*$/.test(n.text)));
      if (items) {
        for (const el of elements) if (el.type === 'element') element(el);
      } else {
        const pieces: Piece[] = [];
        for (const node of run) inline(node, pieces);
        const unit = pieces.length > 0 ? unitOfPieces(code, pieces, 'text', 'text') : undefined;
        if (unit) units.push(unit);
      }
      run = [];
    };
    const inline = (node: MarkupNode, pieces: Piece[]) => {
      if (node.type === 'text') pieces.push(node);
      else if (node.type === 'expression') pieces.push({ type: 'x', start: node.start, end: node.end });
      else if (node.type === 'element') {
        if (OPAQUE.has(node.name) || VOID_INLINE.has(node.name) || node.openEnd === node.end) {
          pieces.push({ type: 'x', start: node.start, end: node.end });
        } else {
          pieces.push({ type: 'open', start: node.start, end: node.openEnd });
          for (const child of node.children) inline(child, pieces);
          pieces.push({ type: 'close', start: node.closeStart, end: node.end });
        }
      }
    };
    for (const child of children) {
      if (inlineable(child)) {
        run.push(child);
        continue;
      }
      flush();
      if (child.type === 'element') element(child);
      else if (child.type !== 'text') child.visit?.();
    }
    flush();
  };

  container(roots);
}
