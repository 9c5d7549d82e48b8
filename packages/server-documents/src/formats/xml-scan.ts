/**
 * A small scanner over XML text that was checked well-formed first (`checkXml`): element boundaries
 * with their exact bytes, so adapters change what they translate and copy everything else unchanged.
 */

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<(\/?)([A-Za-z_][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;

export interface XmlNode {
  readonly kind: 'element' | 'text' | 'other';
  /** Qualified name (`w:r`) of an element; '' otherwise. */
  readonly name: string;
  /** The node's exact bytes. */
  readonly raw: string;
  /** An element's start tag and end tag ('' when self-closing), and what is between them. */
  readonly open: string;
  readonly inner: string;
  readonly close: string;
}

/** The top-level nodes of an XML fragment. */
export function childNodes(xml: string): XmlNode[] {
  const nodes: XmlNode[] = [];
  let depth = 0;
  let last = 0;
  let start = 0;
  let open = '';
  let name = '';
  const pushText = (until: number) => {
    if (until > last)
      nodes.push({ kind: 'text', name: '', raw: xml.slice(last, until), open: '', inner: '', close: '' });
  };
  for (const match of xml.matchAll(TOKEN)) {
    const [raw, slash, tagName, , selfClose] = match;
    if (tagName === undefined) {
      if (depth === 0) {
        pushText(match.index);
        nodes.push({ kind: 'other', name: '', raw, open: '', inner: '', close: '' });
        last = match.index + raw.length;
      }
      continue;
    }
    if (slash) {
      depth--;
      if (depth === 0) {
        const end = match.index + raw.length;
        nodes.push({
          kind: 'element',
          name,
          raw: xml.slice(start, end),
          open,
          inner: xml.slice(start + open.length, match.index),
          close: raw,
        });
        last = end;
      }
    } else if (selfClose) {
      if (depth === 0) {
        pushText(match.index);
        nodes.push({ kind: 'element', name: tagName, raw, open: raw, inner: '', close: '' });
        last = match.index + raw.length;
      }
    } else {
      if (depth === 0) {
        pushText(match.index);
        start = match.index;
        open = raw;
        name = tagName;
      }
      depth++;
    }
  }
  pushText(xml.length);
  return nodes;
}

export interface ElementRange {
  readonly start: number;
  readonly end: number;
  /** Where the content starts and ends (equal for a self-closing element). */
  readonly innerStart: number;
  readonly innerEnd: number;
}

/** Every `name` element that is inside no other `name` element, in document order. */
export function outerElements(xml: string, name: string): ElementRange[] {
  const ranges: ElementRange[] = [];
  let depth = 0;
  let start = 0;
  let innerStart = 0;
  for (const match of xml.matchAll(TOKEN)) {
    const [raw, slash, tagName, , selfClose] = match;
    if (tagName !== name) continue;
    if (slash) {
      if (depth === 0) continue;
      depth--;
      if (depth === 0)
        ranges.push({ start, end: match.index + raw.length, innerStart, innerEnd: match.index });
    } else if (selfClose) {
      if (depth === 0) {
        const end = match.index + raw.length;
        ranges.push({ start: match.index, end, innerStart: end, innerEnd: end });
      }
    } else {
      if (depth === 0) {
        start = match.index;
        innerStart = match.index + raw.length;
      }
      depth++;
    }
  }
  return ranges;
}
