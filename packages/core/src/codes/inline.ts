/**
 * Segment sources and targets as tokens: text (unescaped), `<g id>` open/close and `<x id/>`.
 * The only markup allowed is the inline codes; text escapes `&`, `<` and `>` (and may use any XML
 * entity or character reference on the way back from a service).
 */
import { InlineSyntaxError } from '../errors.js';

export type InlineToken =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'open'; readonly id: string }
  | { readonly type: 'close'; readonly id: string }
  | { readonly type: 'x'; readonly id: string };

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const TAG = /<(\/?)([gx])(?:\s+id\s*=\s*(?:"([^"<>&]*)"|'([^'<>&]*)'))?\s*(\/?)>/y;
const ENTITY = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([a-zA-Z]+));/y;

/** Escapes text for a segment source: `&`, `<`, `>`. */
export function escapeInlineText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function decodeEntity(source: string, at: number): { text: string; end: number } {
  ENTITY.lastIndex = at;
  const m = ENTITY.exec(source);
  if (!m) throw new InlineSyntaxError("Unescaped '&'", at);
  const [all, hex, dec, name] = m;
  let text: string | undefined;
  if (name !== undefined) text = ENTITIES[name];
  else {
    const cp = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    if (cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) text = String.fromCodePoint(cp);
  }
  if (text === undefined) throw new InlineSyntaxError(`Unknown entity '${all}'`, at);
  return { text, end: at + all.length };
}

/**
 * Parses inline XML into tokens, checking that every `<g>` is closed in order and that no id is used
 * twice. Throws `InlineSyntaxError` with the offset of the first problem.
 */
export function parseInline(source: string): InlineToken[] {
  const tokens: InlineToken[] = [];
  const open: string[] = [];
  const seen = new Set<string>();
  let text = '';
  let i = 0;
  const flush = () => {
    if (text) tokens.push({ type: 'text', text });
    text = '';
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '&') {
      const entity = decodeEntity(source, i);
      text += entity.text;
      i = entity.end;
    } else if (c === '<') {
      TAG.lastIndex = i;
      const m = TAG.exec(source);
      if (!m) throw new InlineSyntaxError("Unexpected '<' (only <g id>, </g> and <x id/> are allowed)", i);
      const [all, slash, name, id1, id2, selfClose] = m;
      const id = id1 ?? id2;
      flush();
      if (slash) {
        if (name !== 'g' || id !== undefined || selfClose)
          throw new InlineSyntaxError(`Malformed '${all}'`, i);
        const top = open.pop();
        if (top === undefined) throw new InlineSyntaxError("'</g>' without an open <g>", i);
        tokens.push({ type: 'close', id: top });
      } else {
        if (id === undefined || id === '') throw new InlineSyntaxError(`'${all}' has no id`, i);
        if (seen.has(id)) throw new InlineSyntaxError(`Code id '${id}' is used twice`, i);
        seen.add(id);
        if (name === 'x') {
          if (!selfClose) throw new InlineSyntaxError(`'<x>' must be self-closing: '${all}'`, i);
          tokens.push({ type: 'x', id });
        } else {
          if (selfClose) throw new InlineSyntaxError(`'<g>' must not be self-closing: '${all}'`, i);
          open.push(id);
          tokens.push({ type: 'open', id });
        }
      }
      i += all.length;
    } else if (c === '>') {
      text += c;
      i++;
    } else {
      text += c;
      i++;
    }
  }
  flush();
  if (open.length > 0)
    throw new InlineSyntaxError(`<g id="${open[open.length - 1]}"> is not closed`, source.length);
  return tokens;
}

/** Writes tokens back as inline XML. */
export function serializeInline(tokens: readonly InlineToken[]): string {
  let out = '';
  for (const t of tokens) {
    if (t.type === 'text') out += escapeInlineText(t.text);
    else if (t.type === 'open') out += `<g id="${t.id}">`;
    else if (t.type === 'close') out += '</g>';
    else out += `<x id="${t.id}"/>`;
  }
  return out;
}

/** The plain text of a source (codes removed, entities decoded): what the service bills. */
export function inlinePlainText(source: string): string {
  return parseInline(source)
    .map((t) => (t.type === 'text' ? t.text : ''))
    .join('');
}

/** Why a returned target cannot be used for its source, or `undefined` when it can. */
export function verifyCodes(source: string, target: string): string | undefined {
  let tokens: InlineToken[];
  try {
    tokens = parseInline(target);
  } catch (error) {
    return (error as Error).message;
  }
  const want = codeSignature(parseInline(source));
  const got = codeSignature(tokens);
  const missing = [...want].filter((c) => !got.has(c));
  const extra = [...got].filter((c) => !want.has(c));
  if (missing.length || extra.length) {
    const parts = [];
    if (missing.length) parts.push(`missing ${missing.join(', ')}`);
    if (extra.length) parts.push(`unexpected ${extra.join(', ')}`);
    return `Inline codes changed: ${parts.join('; ')}`;
  }
  return placementProblem(parseInline(source), tokens);
}

/** Where each code sits: the paired code around it (or `''`), and whether a pair holds text. */
function placements(tokens: readonly InlineToken[]) {
  const parent = new Map<string, string>();
  const worded = new Set<string>();
  const open: string[] = [];
  for (const t of tokens) {
    if (t.type === 'text') {
      if (/\S/.test(t.text)) for (const id of open) worded.add(id);
    } else if (t.type === 'close') open.pop();
    else {
      parent.set(`${t.type === 'x' ? 'x' : 'g'}#${t.id}`, open.at(-1) ?? '');
      if (t.type === 'open') open.push(t.id);
    }
  }
  return { parent, worded };
}

/**
 * A reordering engine may move words, but a code must stay inside the pair that held it (inline code
 * inside a link stays inside it), and a pair that held text must still hold some.
 */
function placementProblem(
  source: readonly InlineToken[],
  target: readonly InlineToken[],
): string | undefined {
  const want = placements(source);
  const got = placements(target);
  for (const [code, parent] of want.parent) {
    if (got.parent.get(code) !== parent)
      return `Inline code ${code} moved ${parent === '' ? 'into a pair' : `out of <g id="${parent}">`}`;
  }
  for (const id of want.worded) if (!got.worded.has(id)) return `<g id="${id}"> lost all its text`;
  return undefined;
}

function codeSignature(tokens: readonly InlineToken[]): Set<string> {
  const set = new Set<string>();
  for (const t of tokens)
    if (t.type === 'open' || t.type === 'x') set.add(`${t.type === 'x' ? 'x' : 'g'}#${t.id}`);
  return set;
}

/**
 * The second encoding, used when a target failed verification: every `<g id="N">…</g>` becomes a pair
 * of standalone codes `<x id="N.o"/>…<x id="N.c"/>`, which engines cannot mis-nest.
 */
export function flattenPairs(source: string): string {
  return serializeInline(
    parseInline(source).map((t): InlineToken => {
      if (t.type === 'open') return { type: 'x', id: `${t.id}.o` };
      if (t.type === 'close') return { type: 'x', id: `${t.id}.c` };
      return t;
    }),
  );
}

/**
 * Turns a target of `flattenPairs` back into paired codes. Returns an error message instead when the
 * target is not well-formed or a pair comes back crossed or reversed.
 */
export function restorePairs(flatTarget: string): { target: string } | { error: string } {
  let tokens: InlineToken[];
  try {
    tokens = parseInline(flatTarget);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const open: string[] = [];
  const out: InlineToken[] = [];
  for (const t of tokens) {
    const m = t.type === 'x' ? /^(.+)\.([oc])$/.exec(t.id) : null;
    if (!m) {
      out.push(t);
    } else if (m[2] === 'o') {
      open.push(m[1]!);
      out.push({ type: 'open', id: m[1]! });
    } else {
      if (open.pop() !== m[1]) return { error: `Paired code ${m[1]} came back crossed or reversed` };
      out.push({ type: 'close', id: m[1]! });
    }
  }
  if (open.length > 0) return { error: `Paired code ${open[0]} came back without its end` };
  return { target: serializeInline(out) };
}
