/**
 * The inline XML of a segment (`text <g id="1">linked</g> <x id="2"/>`) as the document adapters
 * (@glossa/remark, @glossa/rehype) use it: escaping text into it, and reading a translated target back
 * into tokens, checked against the source's codes. Problems are returned as reasons, never thrown, so an
 * adapter can report them with a position and keep the segment in the source language.
 */

export type TargetToken =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'open'; readonly id: string }
  | { readonly type: 'close'; readonly id: string }
  | { readonly type: 'standalone'; readonly id: string };

export function escapeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string, at: number): string {
  return text.replace(
    /&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);|&/g,
    (match, name: string | undefined, offset: number) => {
      if (name === undefined) throw new SyntaxError(`bare "&" at offset ${at + offset}`);
      if (name.startsWith('#')) {
        const code =
          name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
        if (code > 0x10ffff) throw new SyntaxError(`character reference ${match} out of range`);
        return String.fromCodePoint(code);
      }
      const value = NAMED[name];
      if (value === undefined) throw new SyntaxError(`unknown entity ${match} at offset ${at + offset}`);
      return value;
    },
  );
}

const TAG = /<(\/?)([a-z]+)((?:\s+[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/gy;

/** Splits inline XML into tokens. Throws `SyntaxError` on anything but text, `<g>`, `</g>` and `<x/>`. */
export function tokenizeInlineTarget(xml: string): TargetToken[] {
  const tokens: TargetToken[] = [];
  let position = 0;
  while (position < xml.length) {
    const lt = xml.indexOf('<', position);
    const end = lt === -1 ? xml.length : lt;
    if (end > position)
      tokens.push({ type: 'text', value: decodeEntities(xml.slice(position, end), position) });
    if (lt === -1) break;
    TAG.lastIndex = lt;
    const match = TAG.exec(xml);
    if (!match) throw new SyntaxError(`malformed tag at offset ${lt}`);
    const [whole, slash, name, attributes = '', selfClosing] = match;
    const id = /\bid\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(attributes);
    const idValue = id?.[1] ?? id?.[2];
    if (name === 'g' && slash === '/' && !selfClosing) tokens.push({ type: 'close', id: '' });
    else if (name === 'g' && !slash && !selfClosing && idValue !== undefined)
      tokens.push({ type: 'open', id: idValue });
    else if (name === 'x' && !slash && idValue !== undefined) {
      // `<x id="1"></x>` is the same standalone code as `<x id="1"/>`.
      if (!selfClosing && !xml.startsWith('</x>', lt + whole.length))
        throw new SyntaxError(`unclosed ${whole} at offset ${lt}`);
      tokens.push({ type: 'standalone', id: idValue });
    } else throw new SyntaxError(`unexpected tag ${whole} at offset ${lt}`);
    position = lt + whole.length + (name === 'x' && !selfClosing ? '</x>'.length : 0);
  }
  return tokens;
}

/**
 * Reads a target and checks it carries exactly the source's codes (each id once, same kind, properly
 * nested). Returns the tokens with each `close` carrying its id, or a reason why the target is unusable.
 */
export function readTarget(
  target: string,
  codeKinds: ReadonlyMap<string, 'g' | 'x'>,
): { tokens: TargetToken[] } | { problem: string } {
  let tokens: TargetToken[];
  try {
    tokens = tokenizeInlineTarget(target);
  } catch (error) {
    return { problem: `target is not valid inline XML: ${(error as Error).message}` };
  }
  const seen = new Set<string>();
  const stack: string[] = [];
  const result: TargetToken[] = [];
  for (const token of tokens) {
    if (token.type === 'text') {
      result.push(token);
      continue;
    }
    if (token.type === 'close') {
      const id = stack.pop();
      if (id === undefined) return { problem: 'target closes a <g> that is not open' };
      result.push({ type: 'close', id });
      continue;
    }
    const kind = codeKinds.get(token.id);
    const expected = token.type === 'open' ? 'g' : 'x';
    if (kind !== expected)
      return { problem: `target has a code <${expected} id="${token.id}"> the source lacks` };
    if (seen.has(token.id)) return { problem: `target repeats code id "${token.id}"` };
    seen.add(token.id);
    if (token.type === 'open') stack.push(token.id);
    result.push(token);
  }
  if (stack.length > 0) return { problem: `target leaves <g id="${stack.at(-1)}"> open` };
  const missing = [...codeKinds.keys()].filter((id) => !seen.has(id));
  if (missing.length > 0)
    return { problem: `target drops code id ${missing.map((id) => `"${id}"`).join(', ')}` };
  return { tokens: result };
}
