/**
 * JavaScript and TypeScript modules, with or without JSX (React, Preact, Solid), parsed with oxc (the
 * parser Vite 8 ships, `parseSync` from `vite`; with Vite 5–7, which have none, the same parser from
 * `oxc-parser`): JSX markup, tagged templates (`` msg`Saved ${n} files` ``) and string literals marked
 * with a `/* @glossa *\/` comment right before them.
 */
import type { parseSync as ParseSync } from 'vite';
import { extractMarkup, type MarkupAttribute, type MarkupNode, type MarkupOptions } from './markup.js';
import { decodeEntities, type Edit, type Piece, type Unit, unitOfPieces, unitOfText } from './units.js';

export interface ScriptOptions extends MarkupOptions {
  /** The tag of translated template literals. */
  readonly tag: string;
}

// oxc's ESTree: plain objects with `type`, `start`, `end`.
// biome-ignore lint/suspicious/noExplicitAny: a generic walk over the parser's ESTree objects
type Node = any;

export class ComponentSyntaxError extends SyntaxError {
  override name = 'ComponentSyntaxError';
  readonly code = 'component_syntax';
  readonly file: string;
  readonly position: { line: number; column: number } | undefined;
  constructor(file: string, message: string, position?: { line: number; column: number }) {
    super(`${file}${position ? `:${position.line}:${position.column}` : ''}: ${message}`);
    this.file = file;
    this.position = position;
  }
}

let parseSync: typeof ParseSync | undefined;
let loading: Promise<unknown> | undefined;

/** Loads the parser: Vite's own (8 and later), else `oxc-parser`. Awaited before `extractScript`. */
export function loadParser(): Promise<unknown> {
  loading ??= (async () => {
    const vite = (await import('vite').catch(() => undefined)) as
      | { parseSync?: typeof ParseSync }
      | undefined;
    parseSync =
      typeof vite?.parseSync === 'function'
        ? vite.parseSync
        : ((await import('oxc-parser')).parseSync as unknown as typeof ParseSync);
  })();
  return loading;
}

/** A built chunk's program (ESTree, UTF-16 offsets), or undefined when it does not parse. */
export function parseChunk(code: string): unknown {
  if (!parseSync) throw new Error('glossaVite: loadParser() was not awaited');
  const result = parseSync('chunk.js', code, { lang: 'js', sourceType: 'module' });
  return result.errors.length > 0 ? undefined : result.program;
}

/** Parses `code` (the `lang` of oxc: js, jsx, ts, tsx) and appends its units, offsets shifted by `base`. */
export function extractScript(
  file: string,
  code: string,
  lang: 'js' | 'jsx' | 'ts' | 'tsx',
  options: ScriptOptions,
  units: Unit[],
  base = 0,
): void {
  if (!parseSync) throw new Error('glossaVite: loadParser() was not awaited');
  const result = parseSync(file, code, { lang, sourceType: 'module' });
  if (result.errors.length > 0) {
    const error = result.errors[0]!;
    const at = error.labels?.[0]?.start;
    throw new ComponentSyntaxError(file, error.message, at === undefined ? undefined : lineColumn(code, at));
  }
  const marked = new Set<number>();
  for (const c of result.comments) if (c.value.trim() === '@glossa') marked.add(c.end);
  const found: Unit[] = [];
  walkScript(code, result.program, options, marked, found);
  for (const u of found) units.push(base === 0 ? u : { ...u, start: u.start + base, end: u.end + base });
}

function walkScript(code: string, program: Node, options: ScriptOptions, marked: Set<number>, units: Unit[]) {
  const isMarked = (node: Node) => {
    let at = node.start;
    while (at > 0 && /\s/.test(code[at - 1]!)) at--;
    return marked.has(at);
  };
  const isTag = (n: Node) =>
    n.type === 'TaggedTemplateExpression' && n.tag.type === 'Identifier' && n.tag.name === options.tag;
  /** Nodes whose subtree holds anything to extract (then it cannot travel inside a code): one pass. */
  const working = new WeakSet<Node>();
  const named = namedItemStrings(program, options);
  const mark = (node: Node): boolean => {
    let found =
      node.type === 'JSXElement' ||
      node.type === 'JSXFragment' ||
      isTag(node) ||
      isTextProperty(node) ||
      named.has(node) ||
      (marked.size > 0 && isString(node) && isMarked(node));
    forEachChild(node, (child) => {
      if (mark(child)) found = true;
    });
    if (found) working.add(node);
    return found;
  };
  mark(program);
  const hasWork = (node: Node) => working.has(node);
  const markupOf = (node: Node): MarkupNode => {
    if (node.type === 'JSXText') {
      return { type: 'text', start: node.start, end: node.end, text: decodeEntities(cleanJsxText(node.raw)) };
    }
    if (node.type === 'JSXExpressionContainer' || node.type === 'JSXSpreadChild') {
      const expression = node.expression;
      const leaves = textLeaves(expression);
      if (leaves.length > 0) {
        // `{open ? 'Close' : 'Open'}`, `{error || 'Saved'}`: each string is a text of its own.
        return {
          type: 'expression',
          start: node.start,
          end: node.end,
          markup: true,
          visit: () => {
            units.push(...leafUnits(leaves));
            walk(expression, new Set(leaves));
          },
        };
      }
      const markup = expression.type !== 'JSXEmptyExpression' && hasWork(expression);
      return {
        type: 'expression',
        start: node.start,
        end: node.end,
        markup,
        ...(markup && { visit: () => walk(expression) }),
      };
    }
    if (node.type === 'JSXFragment') {
      return {
        type: 'element',
        name: '#fragment',
        start: node.start,
        end: node.end,
        openEnd: node.openingFragment.end,
        closeStart: node.closingFragment.start,
        children: node.children.map(markupOf),
        attributes: [],
        ignore: false,
      };
    }
    if (node.type === 'JSXElement') {
      const opening = node.openingElement;
      const attributes: MarkupAttribute[] = [];
      const nested: Node[] = [];
      let ignore = false;
      for (const a of opening.attributes) {
        if (a.type !== 'JSXAttribute') {
          if (hasWork(a.argument)) nested.push(a.argument);
          continue;
        }
        const name = code.slice(a.name.start, a.name.end);
        const value = a.value;
        if (name === 'data-glossa-ignore') ignore = true;
        if (name === 'translate' && value?.type === 'Literal' && value.value === 'no') ignore = true;
        if (!value) continue;
        if (value.type === 'Literal' && typeof value.value === 'string') {
          attributes.push({
            name,
            start: value.start + 1,
            end: value.end - 1,
            value: value.value,
            escape: 'attribute',
          });
          continue;
        }
        const expression = value.type === 'JSXExpressionContainer' ? value.expression : value;
        if (options.attributes.has(name) && isString(expression) && !isMarked(expression)) {
          attributes.push({ name, ...stringRange(expression) });
        } else if (options.attributes.has(name) && textLeaves(expression).length > 0) {
          // `title={open ? 'Close' : 'Open'}`: each string is a value of its own.
          for (const leaf of textLeaves(expression)) attributes.push({ name, ...stringRange(leaf) });
        } else if (expression.type !== 'JSXEmptyExpression' && hasWork(expression)) {
          nested.push(expression);
        }
      }
      const children = node.children.map(markupOf);
      // Markup or marked text inside an attribute (`icon={<Icon />}`): extracted on its own, so the
      // element is a container rather than a code.
      if (nested.length > 0) {
        children.unshift({
          type: 'block',
          start: opening.start,
          end: opening.end,
          visit: () => {
            for (const n of nested) walk(n);
          },
        });
      }
      return {
        type: 'element',
        name: code.slice(opening.name.start, opening.name.end),
        start: node.start,
        end: node.end,
        openEnd: opening.end,
        closeStart: node.closingElement ? node.closingElement.start : node.end,
        children,
        attributes,
        ignore,
      };
    }
    return { type: 'block', start: node.start, end: node.end };
  };

  const walk = (root: Node, done?: Set<Node>) =>
    visit(root, (n) => {
      if (done?.has(n)) return false;
      if (isTextProperty(n)) {
        const r = stringRange(n.value);
        const unit = unitOfText(r.start, r.end, r.value, r.escape, `property ${propertyName(n)}`);
        if (unit) units.push(unit);
        return false;
      }
      if (named.has(n)) {
        const r = stringRange(n);
        const unit = unitOfText(r.start, r.end, r.value, r.escape, `item ${named.get(n)}`);
        if (unit) units.push(unit);
        return false;
      }
      if (n.type === 'JSXElement' || n.type === 'JSXFragment') {
        extractMarkup(code, [markupOf(n)], options, units);
        return false;
      }
      if (isTag(n)) {
        const unit = templateUnit(code, n.quasi);
        if (unit) units.push(unit);
        return false;
      }
      if (isString(n) && marked.size > 0 && isMarked(n)) {
        const r = stringRange(n);
        const unit = unitOfText(r.start, r.end, r.value, r.escape, 'marked string');
        if (unit) units.push(unit);
        return false;
      }
      return true;
    });
  walk(program);

  /** `{ label: 'Home' }`, `{ 'title': "Orders" }`: a property named like UI text with a static string. */
  function isTextProperty(n: Node): boolean {
    if (n.type !== 'Property' || n.computed || n.kind !== 'init' || n.method || !isString(n.value))
      return false;
    const name = propertyName(n);
    return name !== undefined && options.attributes.has(name) && !isMarked(n.value);
  }
}

/**
 * Strings of a data array that the code names as UI text where it renders them:
 * `[['Fast', 'Builds in seconds'], …].map(([title, desc]) => …)` (each tuple's strings at the places the
 * callback's array pattern names like text: `title`, `desc`) and `['Home', 'About'].map((label) => …)`.
 * The array is a literal at the call (`as const` and parentheses aside) or a `const` of the module
 * declared once; the callback is the first argument of `.map`, `.flatMap` or `.forEach`. Strings at places
 * named otherwise (`[['home', '/'], …].map(([id, href]) => …)`) and arrays used any other way are code.
 * And a menu item's `name`: an object literal with a link (`href`, `to`, `path`) or a submenu (`subItems`,
 * `items`…) and none of a route record's keys (`component`, `element`, `children`, `redirect`…: a route
 * record's `name` is an id), as in `{ name: 'Team', href: '/team' }` or TailAdmin's sidebar
 * `{ name: 'Calendar', path: '/calendar', icon }`, `{ name: 'Forms', subItems: […] }`, when it starts with
 * a capital letter or has a space (`{ name: 'github', href }` may be a lookup key).
 * Returns each such string node with the name it goes by.
 */
/** Keys of a menu item (a link, a submenu): its `name` is what the menu shows. */
const MENU_KEYS = ['href', 'to', 'path', 'subItems', 'submenu', 'subMenu', 'items'];
/** Keys of a route record (React Router, Vue Router, TanStack): its `name` is an id, not text. */
const ROUTE_KEYS = [
  'component',
  'components',
  'Component',
  'element',
  'children',
  'lazy',
  'loader',
  'redirect',
  'beforeEnter',
];

function namedItemStrings(program: Node, options: ScriptOptions): Map<Node, string> {
  const out = new Map<Node, string>();
  const consts = new Map<string, Node | null>();
  const calls: Node[] = [];
  visit(program, (n) => {
    if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier') {
      const init = n.init && unwrap(n.init);
      consts.set(n.id.name, consts.has(n.id.name) || init?.type !== 'ArrayExpression' ? null : init);
    }
    if (n.type === 'ObjectExpression') {
      // A link in a data array: `{ name: 'Team', href: '/team' }` (not a route record, whose `name` is an id).
      const byKey = new Map<string, Node>();
      for (const p of n.properties as Node[]) {
        const key = p.type === 'Property' && !p.computed ? propertyName(p) : undefined;
        if (key !== undefined) byKey.set(key, p.value);
      }
      const value = byKey.get('name');
      if (
        value &&
        isString(value) &&
        !options.attributes.has('name') &&
        MENU_KEYS.some((k) => byKey.has(k)) &&
        !ROUTE_KEYS.some((k) => byKey.has(k)) &&
        /^\p{Lu}|\s/u.test(stringRange(value).value.trim())
      ) {
        out.set(value, 'name');
      }
    }
    if (
      n.type === 'CallExpression' &&
      n.callee.type === 'MemberExpression' &&
      !n.callee.computed &&
      ['map', 'flatMap', 'forEach'].includes(n.callee.property.name)
    ) {
      calls.push(n);
    }
    return true;
  });
  const nameOf = (p: Node): string | undefined =>
    p?.type === 'Identifier' ? p.name : p?.type === 'AssignmentPattern' ? nameOf(p.left) : undefined;
  for (const call of calls) {
    const object = unwrap(call.callee.object);
    const array =
      object.type === 'ArrayExpression'
        ? object
        : object.type === 'Identifier'
          ? consts.get(object.name)
          : undefined;
    const callback = call.arguments[0];
    if (!array || !callback || !/^(Arrow)?FunctionExpression$/.test(callback.type)) continue;
    const param = callback.params[0];
    const items = (array.elements as Node[]).filter(Boolean).map(unwrap);
    if (param?.type === 'ArrayPattern') {
      // biome-ignore lint/suspicious/noExplicitAny: oxc's ESTree pattern nodes
      const names = (param.elements as any[]).map(nameOf);
      for (const item of items) {
        if (item.type !== 'ArrayExpression') continue;
        for (const [i, value] of (item.elements as Node[]).entries()) {
          const name = names[i];
          if (value && name !== undefined && options.attributes.has(name) && isString(value))
            out.set(value, name);
        }
      }
    } else {
      const name = nameOf(param);
      if (name === undefined || !options.attributes.has(name)) continue;
      for (const item of items) if (isString(item)) out.set(item, name);
    }
  }
  return out;
}

/** An expression without parentheses and TypeScript's `as …` / `satisfies …` / `!`. */
function unwrap(n: Node): Node {
  while (
    n.type === 'ParenthesizedExpression' ||
    n.type === 'TSAsExpression' ||
    n.type === 'TSSatisfiesExpression' ||
    n.type === 'TSNonNullExpression'
  ) {
    n = n.expression;
  }
  return n;
}

function propertyName(n: Node): string | undefined {
  if (n.key.type === 'Identifier') return n.key.name;
  if (n.key.type === 'Literal' && typeof n.key.value === 'string') return n.key.value;
  return undefined;
}

/**
 * The strings an expression in text renders as a whole: the branches of `a ? 'x' : 'y'`, the right of
 * `a && 'x'`, either side of `a || 'x'` / `a ?? 'x'` (nested). Empty when it is no such expression.
 */
export function textLeaves(n: Node): Node[] {
  const leaves: Node[] = [];
  const collect = (e: Node) => {
    if (e.type === 'ParenthesizedExpression') collect(e.expression);
    else if (isString(e)) leaves.push(e);
    else if (e.type === 'ConditionalExpression') {
      collect(e.consequent);
      collect(e.alternate);
    } else if (e.type === 'LogicalExpression') {
      if (e.operator !== '&&') collect(e.left);
      collect(e.right);
    }
  };
  if (n.type === 'ConditionalExpression' || n.type === 'LogicalExpression') collect(n);
  return leaves;
}

/** The strings of an expression in a template (`{{ a ? 'x' : 'y' }}`), as units; offsets from `base`. */
export function textLeafUnits(expression: string, base: number): Unit[] {
  if (!parseSync || !/['"`]/.test(expression)) return [];
  const result = parseSync('expression.ts', `(${expression}\n)`, { lang: 'ts', sourceType: 'module' });
  const statement = result.errors.length === 0 ? result.program.body[0] : undefined;
  if ((statement as Node)?.type !== 'ExpressionStatement') return [];
  let e: Node = (statement as Node).expression;
  while (e.type === 'ParenthesizedExpression') e = e.expression;
  return leafUnits(textLeaves(e), base - 1);
}

/**
 * `a ? 'x' : 'y'` (a template's expression) → its test's source and the two strings' values; undefined
 * for any other expression.
 */
export function stringConditional(expression: string): { tests: string[]; branches: string[] } | undefined {
  if (!parseSync || !/['"`]/.test(expression)) return undefined;
  const source = `(${expression}\n)`;
  const result = parseSync('expression.ts', source, { lang: 'ts', sourceType: 'module' });
  const statement = result.errors.length === 0 ? result.program.body[0] : undefined;
  if ((statement as Node)?.type !== 'ExpressionStatement') return undefined;
  const chain = stringChain((statement as Node).expression);
  if (!chain || chain.tests.length === 0) return undefined;
  return {
    tests: chain.tests.map((t) => source.slice(t.start, t.end)),
    branches: chain.values.map((v) => stringRange(v).value),
  };
}

/** `a ? 'x' : b ? 'y' : 'z'` → its tests and its strings (one more string than tests). */
function stringChain(e: Node): { tests: Node[]; values: Node[] } | undefined {
  while (e.type === 'ParenthesizedExpression') e = e.expression;
  if (isString(e)) return { tests: [], values: [e] };
  if (e.type !== 'ConditionalExpression' || !isString(e.consequent)) return undefined;
  const rest = stringChain(e.alternate);
  return rest && { tests: [e.test, ...rest.tests], values: [e.consequent, ...rest.values] };
}

/**
 * `<button><Icon /> {fav ? 'Unfavorite' : 'Favorite'} Article</button>` → the element's content once per
 * branch, `{fav ? <><Icon /> Unfavorite Article</> : <><Icon /> Favorite Article</>}`, so that each branch
 * is translated as a sentence with the rest of it (as `splitVueConditionals` does for Vue). Done where
 * the content is text, expressions and inline elements, with one `{test ? 'string' : 'string'}` (or a
 * chain, `a ? 'x' : b ? 'y' : 'z'`, one sentence per string) beside
 * some text, and no line break right beside it (JSX drops such whitespace, text does not). The same
 * markup renders. Returns the edits (none when there is nothing to rewrite).
 */
export function splitJsxConditionals(code: string, lang: 'jsx' | 'tsx', inline: ReadonlySet<string>): Edit[] {
  const edits: Edit[] = [];
  if (!code.includes('?')) return edits;
  if (!parseSync) throw new Error('glossaVite: loadParser() was not awaited');
  const result = parseSync(`module.${lang}`, code, { lang, sourceType: 'module' });
  if (result.errors.length > 0) return edits;
  const nameOf = (n: Node) => code.slice(n.openingElement.name.start, n.openingElement.name.end);
  const phrasing = (n: Node): boolean =>
    n.type === 'JSXText' ||
    n.type === 'JSXExpressionContainer' ||
    (n.type === 'JSXElement' && inline.has(nameOf(n)) && (n.children as Node[]).every(phrasing));
  const conditionalOf = (n: Node) => {
    if (n.type !== 'JSXExpressionContainer') return undefined;
    const chain = stringChain(n.expression);
    return chain && chain.tests.length > 0 ? chain : undefined;
  };
  const split = (children: Node[]): boolean => {
    const conditionals = children.filter(conditionalOf);
    if (conditionals.length !== 1 || !children.every(phrasing)) return false;
    if (!children.some((c) => c.type === 'JSXText' && /\p{L}/u.test(c.value ?? c.raw))) return false;
    const at = conditionals[0]!;
    const chain = conditionalOf(at)!;
    // The content without the whitespace at its ends, which stays where it is.
    let start = children[0]!.start as number;
    let end = children.at(-1)!.end as number;
    while (start < at.start && /\s/.test(code[start]!)) start++;
    while (end > at.end && /\s/.test(code[end - 1]!)) end--;
    const before = code.slice(start, at.start);
    const after = code.slice(at.end, end);
    const values = chain.values.map((v) => stringRange(v).value);
    if (/[\r\n][ \t]*$/.test(before) || /^[ \t]*[\r\n]/.test(after) || values.some((v) => /[\r\n]/.test(v)))
      return false;
    // The first branch stays where the content was (its source map too); the others follow it.
    const tests = chain.tests.map((t) => code.slice(t.start, t.end));
    const others = values
      .slice(1)
      .map(
        (v, i) =>
          `${i + 1 < tests.length ? `${tests[i + 1]} ? ` : ''}<>${before}${escapeJsxText(v)}${after}</>`,
      );
    edits.push(
      { start, end: start, text: `{${tests[0]} ? <>` },
      { start: at.start, end: at.end, text: escapeJsxText(values[0]!) },
      { start: end, end, text: `</> : ${others.join(' : ')}}` },
    );
    return true;
  };
  visit(result.program, (n) => {
    if (n.type === 'JSXElement' || n.type === 'JSXFragment') return !split(n.children as Node[]);
    return true;
  });
  return edits;
}

/**
 * In a locale build, a JSX link to a route of the app, `<a href="/about">` (or `href={'/about'}`), points
 * into the locale's folder: `/es/about` (`prefix` is Vite's base path, `/` or `/app/`; `folder` the
 * locale's, `es/`), as a router link (`<Link to="/about">`, relative to the router's base) already does.
 * Left alone: other elements, hrefs outside the base, protocol-relative and external URLs, anchors,
 * relative paths, links to files (a last segment with an extension other than `.html`) and links already
 * in a locale's folder (`folders`: `es/`, `en-XA/`). Returns the edits (the quoted value only).
 */
/**
 * An href to one of the app's pages under `prefix` (the base): not a file (`/logo.svg`; `.html` is a
 * page), not protocol-relative, not already in a locale folder (`folders`).
 */
export function isRouteLink(href: string, prefix: string, folders: readonly string[]): boolean {
  if (!href.startsWith(prefix) || href.startsWith('//')) return false;
  const path = href.slice(prefix.length).replace(/[?#].*$/s, '');
  if (folders.some((f) => path === f.replace(/\/$/, '') || path.startsWith(f))) return false;
  const last = path.split('/').at(-1) ?? '';
  return !/\.[a-z0-9]+$/i.test(last) || /\.html?$/i.test(last);
}

export function localeLinkEdits(
  code: string,
  lang: 'jsx' | 'tsx',
  prefix: string,
  folder: string,
  folders: readonly string[],
): Edit[] {
  const edits: Edit[] = [];
  if (!code.includes('href')) return edits;
  if (!parseSync) throw new Error('glossaVite: loadParser() was not awaited');
  const result = parseSync(`module.${lang}`, code, { lang, sourceType: 'module' });
  if (result.errors.length > 0) return edits;
  const localized = (href: string) => isRouteLink(href, prefix, folders);
  visit(result.program, (n) => {
    if (n.type !== 'JSXOpeningElement' || n.name.type !== 'JSXIdentifier') return true;
    if (n.name.name !== 'a' && n.name.name !== 'area') return true;
    for (const a of n.attributes as Node[]) {
      if (a.type !== 'JSXAttribute' || a.name.type !== 'JSXIdentifier' || a.name.name !== 'href' || !a.value)
        continue;
      let value = a.value.type === 'JSXExpressionContainer' ? a.value.expression : a.value;
      value = unwrap(value);
      if (value.type !== 'Literal' || typeof value.value !== 'string') continue;
      // The raw text between the quotes, with only the locale's folder inserted after the base.
      const at = value.start + 1 + prefix.length;
      if (localized(value.value) && code.startsWith(prefix, value.start + 1))
        edits.push({ start: at, end: at, text: folder });
    }
    return true;
  });
  return edits;
}

/** A string's value as JSX text. */
const escapeJsxText = (value: string) =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('{', '&#123;')
    .replaceAll('}', '&#125;');

/** Units of string leaves (`textLeaves`), offsets shifted by `shift`. */
export function leafUnits(leaves: readonly Node[], shift = 0): Unit[] {
  const out: Unit[] = [];
  for (const leaf of leaves) {
    const r = stringRange(leaf);
    const unit = unitOfText(r.start + shift, r.end + shift, r.value, r.escape, 'string in text');
    if (unit) out.push(unit);
  }
  return out;
}

const isString = (n: Node) =>
  (n.type === 'Literal' && typeof n.value === 'string') ||
  (n.type === 'TemplateLiteral' && n.expressions.length === 0);

function stringRange(n: Node) {
  if (n.type === 'TemplateLiteral') {
    return {
      start: n.start + 1,
      end: n.end - 1,
      value: n.quasis[0].value.cooked ?? '',
      escape: 'template' as const,
    };
  }
  const quote = n.raw[0] === "'" ? ("string'" as const) : ('string"' as const);
  return { start: n.start + 1, end: n.end - 1, value: n.value as string, escape: quote };
}

/** A tagged template's text with its `${…}` as standalone codes. */
function templateUnit(code: string, quasi: Node): Unit | undefined {
  const pieces: Piece[] = [];
  const quasis = quasi.quasis as Node[];
  // oxc's template elements span their delimiters: `` `…${ ``, `` }…${ ``, `` }…` ``.
  const inner = (q: Node) => ({
    start: q.start + (code[q.start] === '`' || code[q.start] === '}' ? 1 : 0),
    end: q.end - (code[q.end - 1] === '`' ? 1 : code.startsWith('${', q.end - 2) ? 2 : 0),
  });
  for (const [i, q] of quasis.entries()) {
    if (q.value.cooked == null) return undefined; // an invalid escape: left alone
    const range = inner(q);
    pieces.push({ type: 'text', ...range, text: q.value.cooked });
    if (i < quasis.length - 1) pieces.push({ type: 'x', start: range.end, end: inner(quasis[i + 1]).start });
  }
  return unitOfPieces(code, pieces, 'template', 'tagged template');
}

/** Calls `enter` on every node (depth first); `false` skips the node's children. */
function visit(node: Node, enter: (node: Node) => boolean): void {
  if (!enter(node)) return;
  forEachChild(node, (child) => visit(child, enter));
}

function forEachChild(node: Node, each: (child: Node) => void): void {
  for (const key in node) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'range' || key === 'loc') continue;
    const value = node[key];
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item !== null && typeof item === 'object' && typeof item.type === 'string') each(item);
      }
    } else if (typeof value.type === 'string') each(value);
  }
}

/**
 * JSX text as React renders it (Babel's and oxc's rule): lines trimmed where they meet a line break,
 * blank lines dropped, the rest joined with one space.
 */
export function cleanJsxText(raw: string): string {
  const lines = raw.split(/\r\n|\n|\r/);
  let lastNonEmpty = 0;
  for (const [i, line] of lines.entries()) if (/[^ \t]/.test(line)) lastNonEmpty = i;
  let out = '';
  for (const [i, line] of lines.entries()) {
    let text = line.replace(/\t/g, ' ');
    if (i !== 0) text = text.replace(/^ +/, '');
    if (i !== lines.length - 1) text = text.replace(/ +$/, '');
    if (text) {
      if (i !== lastNonEmpty) text += ' ';
      out += text;
    }
  }
  return out;
}

function lineColumn(code: string, offset: number) {
  const before = code.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
