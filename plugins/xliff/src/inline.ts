/**
 * Inline content: XLIFF 1.2 (`g`, `x`, `bx`/`ex`, `bpt`/`ept`, `ph`, `it`, `mrk`) and XLIFF 2
 * (`pc`, `ph`, `sc`/`ec`, `mrk`, `sm`/`em`, `cp`) read into Glossa inline XML (`<g id>`, `<x id/>`), and
 * Glossa inline XML written back. Each code also keeps the XLIFF markup it was read from, so a target
 * written into a file in place reuses the source's own tags.
 */
import type { InlineCode } from '@glossa/core';
import { XliffError } from './errors.js';
import { escapeAttribute, escapeText, localName, textOf, type XmlElement } from './xml.js';

export interface ReadInline {
  /** Glossa inline XML. */
  readonly xml: string;
  /** Original data of the codes found (native content of `ph`, `bpt`, …; 2.x `originalData`). */
  readonly codes: Record<string, InlineCode>;
  /** The XLIFF markup of each code as written in the file: `open` (and `close` for pairs). */
  readonly markup: Record<string, { kind: 'g' | 'x'; open: string; close?: string }>;
}

const attributeId = (element: XmlElement, ...names: string[]) => {
  for (const name of names) if (element.attributes[name] !== undefined) return element.attributes[name]!;
  return undefined;
};

/** Reads the inline content of a `source`/`target` (or `mrk`) element. `data`: 2.x originalData by id. */
export function readInline(
  container: XmlElement,
  text: string,
  data: ReadonlyMap<string, string> = new Map(),
): ReadInline {
  const codes: Record<string, InlineCode> = {};
  const markup: ReadInline['markup'] = {};
  const raw = (element: XmlElement) => text.slice(element.start, element.end);
  const rawOpen = (element: XmlElement) => text.slice(element.start, element.openEnd);
  const rawClose = (element: XmlElement) => text.slice(element.closeStart, element.end);
  const used = new Set<string>();
  const claim = (id: string | undefined, element: XmlElement) => {
    if (id === undefined || id === '')
      throw new XliffError(`<${element.name}> has no id`, 'invalid_xliff', element.line, element.column);
    if (used.has(id))
      throw new XliffError(`inline id "${id}" is used twice`, 'invalid_xliff', element.line, element.column);
    used.add(id);
    return id;
  };
  const itemsOf = (element: XmlElement) => {
    const items: (XmlElement | string)[] = [];
    for (const child of element.children) {
      if (child.type === 'text') items.push(child.value);
      else if (['mrk', 'sm', 'em'].includes(localName(child))) items.push(...itemsOf(child));
      else items.push(child);
    }
    return items;
  };
  let xml = '';
  const render = (items: readonly (XmlElement | string)[]) => {
    const partner = pairUp(items);
    for (let at = 0; at < items.length; at++) {
      const item = items[at]!;
      if (typeof item === 'string') {
        xml += escapeText(item);
        continue;
      }
      const name = localName(item);
      if (name === 'g' || name === 'pc') {
        const id = claim(item.attributes['id'], item);
        const open = name === 'pc' ? data.get(item.attributes['dataRefStart'] ?? '') : undefined;
        const close = name === 'pc' ? data.get(item.attributes['dataRefEnd'] ?? '') : undefined;
        if (open !== undefined || close !== undefined)
          codes[id] = { kind: 'g', open: open ?? '', close: close ?? '' };
        markup[id] = { kind: 'g', open: rawOpen(item), close: rawClose(item) };
        xml += `<g id="${id}">`;
        render(itemsOf(item));
        xml += '</g>';
        continue;
      }
      if (name === 'cp') {
        xml += escapeText(String.fromCodePoint(Number.parseInt(item.attributes['hex'] ?? '', 16)));
        continue;
      }
      const other = partner.get(at);
      if (other !== undefined && other > at) {
        const end = items[other] as XmlElement;
        const id = claim(item.attributes['id'], item);
        const open =
          name === 'bpt'
            ? textOf(item)
            : name === 'sc'
              ? data.get(item.attributes['dataRef'] ?? '')
              : undefined;
        const close =
          name === 'bpt'
            ? textOf(end)
            : name === 'sc'
              ? data.get(end.attributes['dataRef'] ?? '')
              : undefined;
        if (open !== undefined || close !== undefined)
          codes[id] = { kind: 'g', open: open ?? '', close: close ?? '' };
        markup[id] = { kind: 'g', open: raw(item), close: raw(end) };
        xml += `<g id="${id}">`;
        continue;
      }
      if (other !== undefined) {
        xml += '</g>';
        continue;
      }
      if (['x', 'ph', 'it', 'bx', 'ex', 'bpt', 'ept', 'sc', 'ec'].includes(name)) {
        // Angular writes one placeholder in several ICU branches with one id (`<x id="INTERPOLATION"/>`
        // in `one` and in `other`): the same element again is a code of its own, `INTERPOLATION~2`,
        // written back as the same element.
        const first = standaloneId(item);
        if (first !== undefined && markup[first]?.kind === 'x' && markup[first].open === raw(item)) {
          let n = 2;
          while (used.has(`${first}~${n}`)) n++;
          const id = claim(`${first}~${n}`, item);
          if (codes[first]) codes[id] = codes[first];
          markup[id] = markup[first];
          xml += `<x id="${id}"/>`;
          continue;
        }
        const id = claim(first, item);
        const native =
          ['ph', 'it', 'bpt', 'ept'].includes(name) && item.children.length > 0
            ? textOf(item)
            : data.get(item.attributes['dataRef'] ?? '');
        // A half of a pair whose other half is elsewhere keeps which half it is: `open` or `close`.
        const half = halfOf(item);
        if (half === 'open') codes[id] = { kind: 'x', open: native ?? '' };
        else if (half === 'close') codes[id] = { kind: 'x', close: native ?? '' };
        else if (native !== undefined) codes[id] = { kind: 'x', text: native };
        markup[id] = { kind: 'x', open: raw(item) };
        xml += `<x id="${id}"/>`;
        continue;
      }
      throw new XliffError(
        `unexpected <${item.name}> in inline content`,
        'invalid_xliff',
        item.line,
        item.column,
      );
    }
  };
  render(itemsOf(container));
  return { xml, codes, markup };
}

/** `open` for the first half of a pair (bx, bpt, sc, it pos=open), `close` for the second, else nothing. */
function halfOf(element: XmlElement): 'open' | 'close' | undefined {
  const name = localName(element);
  if (
    name === 'bx' ||
    name === 'bpt' ||
    name === 'sc' ||
    (name === 'it' && element.attributes['pos'] === 'open')
  )
    return 'open';
  if (
    name === 'ex' ||
    name === 'ept' ||
    name === 'ec' ||
    (name === 'it' && element.attributes['pos'] === 'close')
  )
    return 'close';
  return undefined;
}

/**
 * The Glossa id of a standalone code. The second half of a pair that refers to the first by id (1.2
 * `ept`, which repeats the `bpt` id; 2.x `ec startRef`) is `<that id>/end`, so both halves of a pair split
 * over two segments of one unit keep distinct ids.
 */
function standaloneId(element: XmlElement): string | undefined {
  const name = localName(element);
  if (name === 'ept')
    return element.attributes['id'] === undefined ? undefined : `${element.attributes['id']}/end`;
  if (name === 'ec' && element.attributes['id'] === undefined)
    return element.attributes['startRef'] === undefined ? undefined : `${element.attributes['startRef']}/end`;
  return element.attributes['id'];
}

/**
 * Begin/end pairs written as two elements (bx/ex, bpt/ept, sc/ec) at one level: index → partner index.
 * A pair becomes <g> only when it nests properly with the other pairs; otherwise both halves stay standalone.
 */
function pairUp(items: readonly (XmlElement | string)[]): Map<number, number> {
  const pairKey = (element: XmlElement) => {
    const name = localName(element);
    if (name === 'bx' || name === 'ex') return `b:${attributeId(element, 'rid', 'id')}`;
    if (name === 'bpt' || name === 'ept') return `p:${attributeId(element, 'rid', 'id')}`;
    if (name === 'sc') return `s:${element.attributes['id']}`;
    if (name === 'ec') return `s:${attributeId(element, 'startRef', 'id')}`;
    return undefined;
  };
  const opens = new Map<string, number>();
  const partner = new Map<number, number>();
  items.forEach((item, index) => {
    if (typeof item === 'string') return;
    const key = pairKey(item);
    if (key === undefined) return;
    if (['bx', 'bpt', 'sc'].includes(localName(item))) opens.set(key, index);
    else if (opens.has(key)) {
      partner.set(opens.get(key)!, index);
      partner.set(index, opens.get(key)!);
      opens.delete(key);
    }
  });
  const stack: number[] = [];
  for (let index = 0; index < items.length; index++) {
    const other = partner.get(index);
    if (other === undefined) continue;
    if (other > index) stack.push(index);
    else if (stack.at(-1) === other) stack.pop();
    else {
      partner.delete(index);
      partner.delete(other);
    }
  }
  return partner;
}

/** Tokens of Glossa inline XML: the same small grammar core uses. */
function tokens(
  xml: string,
): ({ text: string } | { open: string } | { close: true } | { standalone: string })[] {
  const out: ({ text: string } | { open: string } | { close: true } | { standalone: string })[] = [];
  const pattern = /<g id="([^"]*)">|<\/g>|<x id="([^"]*)"\/>|([^<]+)|(<)/g;
  for (const match of xml.matchAll(pattern)) {
    if (match[4])
      throw new XliffError(
        `malformed inline XML near ${JSON.stringify(xml.slice(match.index, match.index + 20))}`,
        'invalid_translation',
      );
    if (match[1] !== undefined) out.push({ open: match[1] });
    else if (match[2] !== undefined) out.push({ standalone: match[2] });
    else if (match[3] !== undefined) out.push({ text: match[3] });
    else out.push({ close: true });
  }
  return out;
}

/** Writes Glossa inline XML as XLIFF inline content for `version`, with original data from `codes`. */
export function writeInline(
  xml: string,
  version: '1.2' | '2',
  codes: Readonly<Record<string, InlineCode>>,
): string {
  let out = '';
  const open: string[] = [];
  for (const token of tokens(xml)) {
    if ('text' in token) out += token.text;
    else if ('open' in token) {
      open.push(token.open);
      const code = codes[token.open];
      const id = escapeAttribute(token.open);
      if (version === '2')
        out += code ? `<pc id="${id}" dataRefStart="${id}_o" dataRefEnd="${id}_c">` : `<pc id="${id}">`;
      else out += code ? `<bpt id="${id}">${escapeText(code.open ?? '')}</bpt>` : `<g id="${id}">`;
    } else if ('close' in token) {
      const id = open.pop()!;
      if (version === '2') out += '</pc>';
      else
        out += codes[id]
          ? `<ept id="${escapeAttribute(id)}">${escapeText(codes[id]!.close ?? '')}</ept>`
          : '</g>';
    } else out += standalone(token.standalone, version, codes[token.standalone]);
  }
  return out;
}

/** The `<data>` id of a code's original data: `1_o`, `1_c`, `1_x` (`1/end` shares `1`'s base: `1_c`). */
export function dataId(id: string, part: 'o' | 'c' | 'x'): string {
  return `${id.endsWith('/end') ? id.slice(0, -'/end'.length) : id}_${part}`;
}

/** A standalone code: a placeholder, or one half of a pair whose other half is in another segment. */
function standalone(id: string, version: '1.2' | '2', code: InlineCode | undefined): string {
  const end = id.endsWith('/end') ? escapeAttribute(id.slice(0, -'/end'.length)) : undefined;
  const xmlId = escapeAttribute(id);
  if (code?.open !== undefined) {
    if (version === '2')
      return `<sc id="${xmlId}"${code.open ? ` dataRef="${escapeAttribute(dataId(id, 'o'))}"` : ''}/>`;
    return code.open ? `<bpt id="${xmlId}">${escapeText(code.open)}</bpt>` : `<bx id="${xmlId}"/>`;
  }
  if (code?.close !== undefined) {
    const data = code.close ? ` dataRef="${escapeAttribute(dataId(id, 'c'))}"` : '';
    if (version === '2')
      return end ? `<ec startRef="${end}"${data}/>` : `<ec id="${xmlId}" isolated="yes"${data}/>`;
    if (end) return `<ept id="${end}">${escapeText(code.close)}</ept>`;
    return code.close
      ? `<it id="${xmlId}" pos="close">${escapeText(code.close)}</it>`
      : `<ex id="${xmlId}"/>`;
  }
  if (version === '2') return code ? `<ph id="${xmlId}" dataRef="${xmlId}_x"/>` : `<ph id="${xmlId}"/>`;
  return code ? `<ph id="${xmlId}">${escapeText(code.text ?? '')}</ph>` : `<x id="${xmlId}"/>`;
}

/** Writes Glossa inline XML into a file in place: codes take the markup the source was read with. */
export function writeWithMarkup(xml: string, markup: ReadInline['markup']): string {
  let out = '';
  const open: string[] = [];
  for (const token of tokens(xml)) {
    if ('text' in token) out += token.text;
    else if ('open' in token) {
      open.push(token.open);
      out += markup[token.open]?.open ?? '';
    } else if ('close' in token) out += markup[open.pop()!]?.close ?? '';
    else out += markup[token.standalone]?.open ?? '';
  }
  return out;
}
