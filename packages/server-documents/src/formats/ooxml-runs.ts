/**
 * OOXML paragraphs (WordprocessingML `w:p`, DrawingML `a:p`, SpreadsheetML `si`/`is`) as one text each:
 * runs are merged into the segment; the formatting most of the text has is the paragraph's base, and runs
 * formatted otherwise become `<g>` codes (hyperlinks too); tabs, breaks, fields, drawings and bookmarks
 * become `<x/>` codes. The translation is written back as runs with the formatting of its codes.
 */
import { decodeEntities } from '@glossa/server/feature';
import { escapeXml, parseInline } from './inline.js';
import { childNodes, type XmlNode } from './xml-scan.js';

export interface RunDialect {
  /** Element prefix with its colon: `w:`, `a:` or `''`. */
  readonly prefix: string;
  /** Elements inside a run that stand alone in the text (a tab, a line break). */
  readonly standalone: ReadonlySet<string>;
  /** Elements dropped wherever they are (spell-check marks, rendering hints). */
  readonly dropped: ReadonlySet<string>;
  /** Paragraph-level elements whose content is runs, kept around them (`hyperlink`). */
  readonly wrappers: ReadonlySet<string>;
  /** Paragraph-level elements kept in place before the text (`pPr`) and after it (`endParaRPr`). */
  readonly leading: ReadonlySet<string>;
  readonly trailing: ReadonlySet<string>;
  /** `xml:space="preserve"` on the text element. */
  readonly preserveSpace: boolean;
  /** Local names of the run, its text and its properties (default `r`, `t`, `rPr`). */
  readonly names?: { readonly run: string; readonly text: string; readonly props: string };
  /** The run's start tag carries formatting too (IDML `CharacterStyleRange`): it is part of the format. */
  readonly propsInOpenTag?: boolean;
}

const DEFAULT_NAMES = { run: 'r', text: 't', props: 'rPr' };

/** How a run of some formatting is written: its start tag and properties, then the text, then the end tag. */
interface RunShape {
  readonly open: string;
  readonly close: string;
}

type Item =
  | { readonly kind: 'text'; readonly props: string; readonly shape: RunShape; readonly text: string }
  | { readonly kind: 'x'; readonly xml: string }
  | { readonly kind: 'open'; readonly open: string; readonly close: string }
  | { readonly kind: 'close' };

/**
 * A `<g>` is a span of text in one formatting inside the same wrappers (a hyperlink's runs): one code for
 * both, never a `<g>` inside a `<g>`, so a link inside a sentence is one inline code of the sentence (the
 * engines translate the words around nested codes as separate pieces).
 */
type Code =
  | { readonly kind: 'span'; readonly props: string; readonly wrappers: readonly Wrapper[] }
  | { readonly kind: 'x'; readonly xml: string };

interface Wrapper {
  readonly open: string;
  readonly close: string;
}

export interface EncodedParagraph {
  /** Kept before and after the text. */
  readonly leading: string;
  readonly trailing: string;
  /** The text in code form. */
  readonly form: string;
  /** The paragraph content for a translation of `form`. */
  decode(output: string): string;
}

const local = (node: XmlNode, prefix: string) =>
  node.name.startsWith(prefix) ? node.name.slice(prefix.length) : '';

function runItems(run: XmlNode, d: RunDialect): Item[] {
  const names = d.names ?? DEFAULT_NAMES;
  const children = childNodes(run.inner).filter((node) => node.kind === 'element');
  const propsXml = children.find((node) => local(node, d.prefix) === names.props)?.raw ?? '';
  const props = d.propsInOpenTag ? run.open + propsXml : propsXml;
  const shape = {
    open: (d.propsInOpenTag ? run.open : `<${d.prefix}${names.run}>`) + propsXml,
    close: run.close,
  };
  const items: Item[] = [];
  for (const child of children) {
    const name = local(child, d.prefix);
    if (name === names.props || d.dropped.has(name)) continue;
    if (name === names.text) items.push({ kind: 'text', props, shape, text: decodeEntities(child.inner) });
    else if (d.standalone.has(name))
      items.push({ kind: 'x', xml: `${shape.open}${child.raw}${shape.close}` });
    // Anything else (a field, a drawing, an embedded object): the whole run is kept as it is.
    else return [{ kind: 'x', xml: run.raw }];
  }
  return items;
}

function paragraphItems(nodes: readonly XmlNode[], d: RunDialect, items: Item[]): void {
  for (const node of nodes) {
    if (node.kind !== 'element') {
      if (node.kind === 'other') items.push({ kind: 'x', xml: node.raw });
      continue;
    }
    const name = local(node, d.prefix);
    if (d.dropped.has(name)) continue;
    if (name === (d.names ?? DEFAULT_NAMES).run) items.push(...runItems(node, d));
    else if (name === 't' && d.prefix === '')
      items.push({
        kind: 'text',
        props: '',
        shape: { open: '<r>', close: '</r>' },
        text: decodeEntities(node.inner),
      });
    else if (d.wrappers.has(name) && node.close !== '') {
      items.push({ kind: 'open', open: node.open, close: node.close });
      paragraphItems(childNodes(node.inner), d, items);
      items.push({ kind: 'close' });
    } else items.push({ kind: 'x', xml: node.raw });
  }
}

const FIELD_CHAR = /<w:fldChar\b[^>]*w:fldCharType="(begin|separate|end)"/;

/** An item's XML as it stands in the paragraph. */
function itemXml(item: Item, d: RunDialect): string {
  if (item.kind === 'x') return item.xml;
  if (item.kind === 'open') return item.open;
  if (item.kind === 'close') return '';
  const name = (d.names ?? DEFAULT_NAMES).text;
  const space = d.preserveSpace ? ' xml:space="preserve"' : '';
  return `${item.shape.open}<${d.prefix}${name}${space}>${escapeXml(item.text)}</${d.prefix}${name}>${item.shape.close}`;
}

/**
 * Word's complex fields (`fldChar` begin, instruction, separate, result, end) inside the paragraph: a
 * HYPERLINK field is a span around its result (the link text, translated in its sentence); any other
 * field (PAGE, REF, DATE …) is one standalone code with its result, which Word computes. A field that does
 * not end in the paragraph is left as it is.
 */
function groupFields(items: Item[], d: RunDialect): void {
  const kindOf = (item: Item) => (item.kind === 'x' ? FIELD_CHAR.exec(item.xml)?.[1] : undefined);
  for (let begin = 0; begin < items.length; begin++) {
    if (kindOf(items[begin]!) !== 'begin') continue;
    let depth = 0;
    let separate = -1;
    let end = -1;
    for (let at = begin; at < items.length && end < 0; at++) {
      const kind = kindOf(items[at]!);
      if (kind === 'begin') depth++;
      else if (kind === 'separate' && depth === 1 && separate < 0) separate = at;
      else if (kind === 'end' && --depth === 0) end = at;
    }
    if (end < 0) return;
    const instruction = items
      .slice(begin, separate < 0 ? end : separate)
      .map((item) => (item.kind === 'x' ? (/<w:instrText\b[^>]*>([^<]*)</.exec(item.xml)?.[1] ?? '') : ''))
      .join('');
    const result = separate < 0 ? [] : items.slice(separate + 1, end);
    const balanced = result.every((item) => item.kind === 'text' || item.kind === 'x');
    const xml = (from: number, to: number) =>
      items
        .slice(from, to)
        .map((item) => itemXml(item, d))
        .join('');
    if (/^\s*HYPERLINK\b/.test(instruction) && separate >= 0 && balanced) {
      const open = xml(begin, separate + 1);
      const close = xml(end, end + 1);
      items.splice(begin, end - begin + 1, { kind: 'open', open, close }, ...result, { kind: 'close' });
      begin += result.length + 1;
    } else if (balanced) items.splice(begin, end - begin + 1, { kind: 'x', xml: xml(begin, end + 1) });
  }
}

/** The paragraph content as a text in code form, or undefined when it has nothing to translate. */
export function encodeParagraph(inner: string, d: RunDialect): EncodedParagraph | undefined {
  const nodes = childNodes(inner);
  let first = 0;
  while (
    first < nodes.length &&
    (nodes[first]!.kind === 'text' || d.leading.has(local(nodes[first]!, d.prefix)))
  )
    first++;
  let last = nodes.length;
  while (
    last > first &&
    (nodes[last - 1]!.kind === 'text' || d.trailing.has(local(nodes[last - 1]!, d.prefix)))
  )
    last--;
  const items: Item[] = [];
  paragraphItems(nodes.slice(first, last), d, items);
  if (d.prefix === 'w:') groupFields(items, d);
  const lengths = new Map<string, number>();
  const shapes = new Map<string, RunShape>();
  for (const item of items) {
    if (item.kind !== 'text') continue;
    lengths.set(item.props, (lengths.get(item.props) ?? 0) + item.text.length);
    if (!shapes.has(item.props)) shapes.set(item.props, item.shape);
  }
  if (![...items].some((item) => item.kind === 'text' && /\p{L}/u.test(item.text))) return undefined;
  const base = [...lengths].sort((a, b) => b[1] - a[1])[0]![0];
  const onlyPlainText =
    items.every((item) => item.kind === 'text' && item.props === '') &&
    nodes.some((node) => local(node, d.prefix) === 't');

  const codes = new Map<number, Code>();
  let form = '';
  const wrappers: Wrapper[] = [];
  /** The span `<g>` open in `form`, if any. */
  let open: { props: string; wrappers: readonly Wrapper[] } | undefined;
  const closeSpan = () => {
    if (open !== undefined) form += '</g>';
    open = undefined;
  };
  const newCode = (code: Code) => {
    codes.set(codes.size + 1, code);
    return codes.size;
  };
  const sameWrappers = (a: readonly Wrapper[], b: readonly Wrapper[]) =>
    a.length === b.length && a.every((wrapper, i) => wrapper === b[i]);
  for (const item of items) {
    if (item.kind === 'text') {
      if (item.props === base && wrappers.length === 0) closeSpan();
      else if (!(open && open.props === item.props && sameWrappers(open.wrappers, wrappers))) {
        closeSpan();
        open = { props: item.props, wrappers: [...wrappers] };
        form += `<g id="${newCode({ kind: 'span', ...open })}">`;
      }
      form += escapeXml(item.text);
    } else if (item.kind === 'x') {
      // A standalone part inside a link stays inside its span; elsewhere it ends the span.
      if (!(open && open.wrappers.length > 0 && sameWrappers(open.wrappers, wrappers))) closeSpan();
      form += `<x id="${newCode({ kind: 'x', xml: item.xml })}"/>`;
    } else if (item.kind === 'open') {
      closeSpan();
      wrappers.push({ open: item.open, close: item.close });
    } else {
      closeSpan();
      wrappers.pop();
    }
  }
  closeSpan();

  const p = d.prefix;
  const space = d.preserveSpace ? ' xml:space="preserve"' : '';
  const textName = (d.names ?? DEFAULT_NAMES).text;
  const run = (props: string, text: string) => {
    const shape = shapes.get(props) ?? { open: `<${p}r>${props}`, close: `</${p}r>` };
    return text === ''
      ? ''
      : `${shape.open}<${p}${textName}${space}>${escapeXml(text)}</${p}${textName}>${shape.close}`;
  };
  const leading = nodes
    .slice(0, first)
    .map((node) => node.raw)
    .join('');
  const trailing = nodes
    .slice(last)
    .map((node) => node.raw)
    .join('');
  return {
    leading,
    trailing,
    form,
    decode(output) {
      const pieces = parseInline(output);
      if (onlyPlainText && pieces.every((piece) => piece.kind === 'text'))
        return `<${p}t${space}>${escapeXml(pieces.map((piece) => (piece.kind === 'text' ? piece.text : '')).join(''))}</${p}t>`;
      // Wrappers (links) are written as the text needs them: two spans in the same link with only
      // whitespace between them (a bold word and the rest of a link's text) stay in one link.
      const stack: (Code | undefined)[] = [];
      let xml = '';
      let current: readonly Wrapper[] = [];
      let pending = '';
      const moveTo = (target: readonly Wrapper[]) => {
        let common = 0;
        while (common < current.length && common < target.length && current[common] === target[common])
          common++;
        for (const wrapper of current.slice(common).toReversed()) xml += wrapper.close;
        if (common < current.length || common < target.length) {
          xml += pending;
          pending = '';
        }
        for (const wrapper of target.slice(common)) xml += wrapper.open;
        current = target;
      };
      const emit = (target: readonly Wrapper[], content: string) => {
        moveTo(target);
        xml += pending + content;
        pending = '';
      };
      const top = () => stack.findLast((code) => code?.kind === 'span');
      for (const piece of pieces) {
        if (piece.kind === 'text') {
          const span = top();
          const wrappers = span?.kind === 'span' ? span.wrappers : [];
          const text = run(span?.kind === 'span' ? span.props : base, piece.text);
          if (wrappers.length === 0 && current.length > 0 && piece.text.trim() === '') pending += text;
          else emit(wrappers, text);
        } else if (piece.kind === 'open') stack.push(codes.get(piece.id));
        else if (piece.kind === 'close') stack.pop();
        else {
          const code = codes.get(piece.id);
          const span = top();
          if (code?.kind === 'x') emit(span?.kind === 'span' ? span.wrappers : [], code.xml);
        }
      }
      moveTo([]);
      xml += pending;
      return xml;
    },
  };
}
