/**
 * Heading anchors and `#fragment` links of a page, for frameworks that slug the translated heading and
 * have no explicit heading id (Starlight: Astro's `rehype-heading-ids`). `headingAnchors` lists the ids the
 * framework gives a page's headings; `rewriteLinks` changes link destinations in place (the rest of the
 * text stays byte for byte), so a link written to the English heading's id can be sent to the translated
 * heading's id.
 */
import type { Node, Parent } from 'unist';
import { blankFences, findContainerFences } from './containers.js';
import { type MarkdownOptions, type ResolvedMarkdownOptions, resolveMarkdownOptions } from './options.js';
import { markdownParser } from './parser.js';
import { githubSlug } from './slugs.js';

type Positioned = Node & { position?: { start: { offset?: number }; end: { offset?: number } } };

function parse(text: string, options: ResolvedMarkdownOptions): Parent {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
    lineStarts.push(index + 1);
  const { lineContainers } = options.features;
  const fences =
    lineContainers === 'none' ? [] : findContainerFences(text, lineStarts, lineContainers === 'legacy');
  return markdownParser(options).parse(blankFences(text, fences)) as Parent;
}

function visit(node: Node, visitor: (node: Node) => boolean | undefined): void {
  if (visitor(node) === false) return;
  for (const child of (node as Partial<Parent>).children ?? []) visit(child, visitor);
}

/** A heading's text as Astro reads it: its text, inline code and MDX expressions, without markup. */
function headingText(node: Node): string {
  const value = (node as Node & { value?: unknown }).value;
  if (
    (node.type === 'text' || node.type === 'inlineCode' || node.type === 'mdxTextExpression') &&
    typeof value === 'string'
  )
    return value;
  const children = (node as Partial<Parent>).children;
  return children ? children.map(headingText).join('') : '';
}

/**
 * The ids Astro gives the headings of a page (`rehype-heading-ids`: github-slugger, a repeated slug gets
 * `-1`, `-2`…, then one trailing `-` dropped), in document order.
 */
export function headingAnchors(text: string, options?: MarkdownOptions): string[] {
  return headingOutline(text, options).map((heading) => heading.id);
}

/** The headings of a page in document order: each one's id (as `headingAnchors`) and depth (1–6). */
export function headingOutline(
  text: string,
  options?: MarkdownOptions,
): { readonly id: string; readonly depth: number }[] {
  const resolved = resolveMarkdownOptions(options);
  const seen = new Map<string, number>();
  const ids: { id: string; depth: number }[] = [];
  visit(parse(text, resolved), (node) => {
    if (node.type !== 'heading') return undefined;
    let slug = githubSlug(headingText(node));
    if (seen.has(slug)) {
      let count = seen.get(slug)!;
      let unique: string;
      do unique = `${slug}-${++count}`;
      while (seen.has(unique));
      seen.set(slug, count);
      slug = unique;
    }
    seen.set(slug, 0);
    const depth = (node as Node & { depth?: number }).depth ?? 1;
    ids.push({ id: slug.endsWith('-') ? slug.slice(0, -1) : slug, depth });
    return false;
  });
  return ids;
}

/** Where an inline link's destination is written in `text`: after the `](` that follows its text. */
function inlineDestination(text: string, node: Parent & Positioned): [number, number] | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined || text[start] !== '[' || text[end - 1] !== ')')
    return undefined;
  const last = node.children.at(-1) as Positioned | undefined;
  const from = last?.position?.end.offset ?? start + 1;
  const open = text.indexOf('](', from);
  if (open === -1 || open >= end) return undefined;
  return destinationAt(text, open + 2, end);
}

/** The destination that starts at `from` (after blanks): `<…>`, or up to a blank or the unmatched `)`. */
function destinationAt(text: string, from: number, end: number): [number, number] | undefined {
  let at = from;
  while (at < end && /[ \t\n]/.test(text[at]!)) at++;
  if (text[at] === '<') {
    const close = text.indexOf('>', at);
    return close === -1 || close > end ? undefined : [at + 1, close];
  }
  let depth = 0;
  let stop = at;
  for (; stop < end; stop++) {
    const char = text[stop]!;
    if (char === '\\') stop++;
    else if (/[ \t\n]/.test(char)) break;
    else if (char === '(') depth++;
    else if (char === ')' && depth-- === 0) break;
  }
  return stop > at ? [at, stop] : undefined;
}

type JsxAttribute = Positioned & { name?: unknown; value?: unknown };

/**
 * Where the value of an MDX component's `href="…"` attribute is written in `text` (a quoted string that
 * holds no character reference; an expression `href={…}` is not read).
 */
function hrefValue(text: string, attribute: JsxAttribute): [number, number] | undefined {
  const start = attribute.position?.start.offset;
  const end = attribute.position?.end.offset;
  if (attribute.name !== 'href' || typeof attribute.value !== 'string') return undefined;
  if (start === undefined || end === undefined) return undefined;
  const equals = text.indexOf('=', start);
  if (equals === -1 || equals >= end) return undefined;
  let open = equals + 1;
  while (open < end && /[ \t\n]/.test(text[open]!)) open++;
  const quote = text[open];
  if ((quote !== '"' && quote !== "'") || text[end - 1] !== quote) return undefined;
  return text.slice(open + 1, end - 1) === attribute.value ? [open + 1, end - 1] : undefined;
}

/**
 * `text` with each link destination (inline links, link definitions and MDX components' `href="…"`) that `rewrite` changes replaced,
 * as written (`rewrite` gets and returns the destination's source text; `undefined` keeps it).
 */
export function rewriteLinks(
  text: string,
  options: MarkdownOptions | undefined,
  rewrite: (destination: string) => string | undefined,
): string {
  const resolved = resolveMarkdownOptions(options);
  const edits: [number, number, string][] = [];
  const edit = (range: [number, number]) => {
    const replaced = rewrite(text.slice(...range));
    if (replaced !== undefined && replaced !== text.slice(...range)) edits.push([...range, replaced]);
  };
  visit(parse(text, resolved), (node) => {
    let range: [number, number] | undefined;
    if (node.type === 'link') range = inlineDestination(text, node as Parent & Positioned);
    else if (node.type === 'definition') {
      const { start, end } = (node as Positioned).position ?? {};
      const colon = start?.offset === undefined ? -1 : text.indexOf(']:', start.offset);
      if (colon !== -1 && end?.offset !== undefined && colon < end.offset)
        range = destinationAt(text, colon + 2, end.offset);
    } else if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      for (const attribute of (node as Node & { attributes?: JsxAttribute[] }).attributes ?? []) {
        const at = hrefValue(text, attribute);
        if (at) edit(at);
      }
    }
    if (range) edit(range);
    return undefined;
  });
  let out = text;
  for (const [start, end, value] of edits.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, start) + value + out.slice(end);
  return out;
}
