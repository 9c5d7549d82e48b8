/**
 * Safe XML reading: a small element tree with byte positions, built with `saxes`. Any DOCTYPE is refused,
 * so there are no entity declarations to expand (no external entities, no entity bombs); only the five
 * predefined entities and character references are decoded.
 */
import { SaxesParser } from 'saxes';
import { XliffError } from './errors.js';

export interface XmlText {
  readonly type: 'text';
  readonly value: string;
}

export interface XmlElement {
  readonly type: 'element';
  /** Qualified name as written (`xliff`, `slr:profiles`). */
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: (XmlElement | XmlText)[];
  /** Offsets in the text: `<` of the start tag, after its `>`, `<` of the end tag, after the end tag. */
  readonly start: number;
  readonly openEnd: number;
  closeStart: number;
  end: number;
  readonly line: number;
  readonly column: number;
}

/** Parses `text` into its root element. Throws `XliffError` (with line and column) on bad or unsafe XML. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const addText = (value: string) => {
    const parent = stack.at(-1);
    if (!parent) return;
    const last = parent.children.at(-1);
    if (last?.type === 'text')
      parent.children[parent.children.length - 1] = { type: 'text', value: last.value + value };
    else parent.children.push({ type: 'text', value });
  };
  parser.on('doctype', () => {
    throw new XliffError(
      'DOCTYPE is not allowed (refusing entity declarations)',
      'doctype_refused',
      parser.line,
      parser.column,
    );
  });
  parser.on('opentag', (tag) => {
    const openEnd = parser.position;
    const start = text.lastIndexOf('<', openEnd - 1);
    const attributes: Record<string, string> = {};
    for (const [name, value] of Object.entries(tag.attributes))
      attributes[name] = typeof value === 'string' ? value : value.value;
    const element: XmlElement = {
      type: 'element',
      name: tag.name,
      attributes,
      children: [],
      start,
      openEnd,
      closeStart: openEnd,
      end: openEnd,
      line: parser.line,
      column: parser.column,
    };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', (tag) => {
    const element = stack.pop()!;
    element.end = parser.position;
    element.closeStart = tag.isSelfClosing ? element.end : text.lastIndexOf('</', element.end - 1);
  });
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof XliffError) throw error;
    const message = (error as Error).message;
    const match = /^(?:[^:]*:)?(\d+):(\d+): (.*)$/s.exec(message);
    throw new XliffError(
      match?.[3] ?? message,
      'malformed_xml',
      match ? Number(match[1]) : undefined,
      match ? Number(match[2]) : undefined,
      { cause: error },
    );
  }
  if (!root) throw new XliffError('no root element', 'malformed_xml');
  return root;
}

export const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const escapeAttribute = (text: string) =>
  escapeText(text)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');

/** The local name (`slr:profiles` → `profiles`). */
export const localName = (element: XmlElement) => element.name.slice(element.name.indexOf(':') + 1);

export const childElements = (element: XmlElement, name?: string) =>
  element.children.filter(
    (child): child is XmlElement =>
      child.type === 'element' && (name === undefined || localName(child) === name),
  );

export const textOf = (element: XmlElement): string =>
  element.children.map((child) => (child.type === 'text' ? child.value : textOf(child))).join('');
