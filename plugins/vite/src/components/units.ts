/**
 * What component extraction produces, independent of the framework: translatable units, each a range of
 * the module's source text to replace, its segment source (inline XML with codes) and the original bytes
 * of its codes; and how a translated target is written back into that range for the unit's syntax.
 */
import { type CodeMap, type InlineCode, parseInline } from '@glossa/core';

/** How a target's text is escaped where the unit sits. */
export type Escape =
  /** Markup text (JSX children, Vue and Svelte templates): entities for `& < > { }`. */
  | 'text'
  /** A quoted markup attribute value: as text, plus both quotes. */
  | 'attribute'
  /** The inside of a JavaScript template literal. */
  | 'template'
  /** The inside of a JavaScript string literal quoted with `"`. */
  | 'string"'
  /** The inside of a JavaScript string literal quoted with `'`. */
  | "string'";

export interface Unit {
  /** The range of the module's source the target replaces. */
  readonly start: number;
  readonly end: number;
  /** Segment source: inline XML, codes as `<g id>`/`<x id/>`. */
  readonly source: string;
  readonly codes: CodeMap;
  readonly escape: Escape;
  /** What the unit is, for messages: `text`, `attribute title`, `tagged template`, `marked string`. */
  readonly what: string;
}

/** One piece of a run of inline content, in source order. */
export type Piece =
  | { readonly type: 'text'; readonly start: number; readonly end: number; readonly text: string }
  | { readonly type: 'x'; readonly start: number; readonly end: number }
  | { readonly type: 'open'; readonly start: number; readonly end: number }
  | { readonly type: 'close'; readonly start: number; readonly end: number };

/**
 * A unit from a run of pieces (text already in its rendered form: entities decoded, whitespace as the
 * framework renders it), or undefined when it has no text worth translating. Leading and trailing
 * whitespace and codes stay outside the unit's range, so they keep their bytes.
 */
export function unitOfPieces(code: string, pieces: readonly Piece[], syntax: Escape, what: string) {
  let first = 0;
  let last = pieces.length - 1;
  // Leading/trailing standalone codes and blank text stay in place; paired codes must stay balanced.
  const blank = (p: Piece) => p.type === 'x' || (p.type === 'text' && /^[ \t\n\r\f]*$/.test(p.text));
  while (first <= last && blank(pieces[first]!)) first++;
  while (last >= first && blank(pieces[last]!)) last--;
  if (first > last) return undefined;
  const run = pieces.slice(first, last + 1);
  // Outer pairs that wrap the whole run (`<b>all of it</b>`) are left out too.
  while (run.length >= 2 && run[0]!.type === 'open' && run.at(-1)!.type === 'close' && wraps(run)) {
    run.shift();
    run.pop();
  }
  let source = '';
  const codes: Record<string, InlineCode> = {};
  const open: string[] = [];
  let next = 1;
  let start = -1;
  let end = -1;
  for (const [i, p] of run.entries()) {
    let piece = p;
    if (p.type === 'text') {
      // Whitespace at the run's edges stays outside the range.
      let text = p.text;
      let s = p.start;
      let e = p.end;
      if (i === 0) {
        text = text.replace(/^[ \t\n\r\f]+/, '');
        s = skipSpace(code, s, e);
      }
      if (i === run.length - 1) {
        text = text.replace(/[ \t\n\r\f]+$/, '');
        e = skipSpaceBack(code, s, e);
      }
      piece = { ...p, start: s, end: e, text };
      source += escapeInline(text);
    } else if (p.type === 'x') {
      const id = String(next++);
      codes[id] = { kind: 'x', text: code.slice(p.start, p.end) };
      source += `<x id="${id}"/>`;
    } else if (p.type === 'open') {
      const id = String(next++);
      codes[id] = { kind: 'g', open: code.slice(p.start, p.end), close: '' };
      open.push(id);
      source += `<g id="${id}">`;
    } else {
      const id = open.pop();
      if (id === undefined) return undefined; // unbalanced: never made by the walkers
      codes[id] = { ...codes[id]!, close: code.slice(p.start, p.end) };
      source += '</g>';
    }
    if (start < 0) start = piece.start;
    end = piece.end;
  }
  if (open.length > 0) return undefined;
  const plain = run.map((p) => (p.type === 'text' ? p.text : ' ')).join('');
  if (!isTranslatable(plain)) return undefined;
  return { start, end, source, codes, escape: syntax, what } satisfies Unit;
}

/** Whether the first open piece's pair is the last close piece. */
function wraps(run: readonly Piece[]): boolean {
  let depth = 0;
  for (const [i, p] of run.entries()) {
    if (p.type === 'open') depth++;
    else if (p.type === 'close') {
      depth--;
      if (depth === 0) return i === run.length - 1;
    }
  }
  return false;
}

const skipSpace = (code: string, s: number, e: number) => {
  while (s < e && /[ \t\n\r\f]/.test(code[s]!)) s++;
  return s;
};
const skipSpaceBack = (code: string, s: number, e: number) => {
  while (e > s && /[ \t\n\r\f]/.test(code[e - 1]!)) e--;
  return e;
};

const escapeInline = (text: string) =>
  text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

/** A unit for a whole attribute value or string (no codes). */
export function unitOfText(
  start: number,
  end: number,
  text: string,
  syntax: Escape,
  what: string,
): Unit | undefined {
  if (!isTranslatable(text)) return undefined;
  return { start, end, source: escapeInline(text), codes: {}, escape: syntax, what };
}

/**
 * Whether a text is worth translating: it has a letter, and it is not code-like. Code-like means one
 * "word" without spaces that looks like an identifier, a path, a URL, an e-mail address, a class list
 * item or a number with units: `user_id`, `fooBar`, `/about`, `https://…`, `a@b.c`, `btn-primary`; and a
 * letter alone (`K`, `⌘K`: a key of a shortcut).
 * Words joined by a slash (`City/State`) and a sentence that starts with `#` or `/` are text.
 */
export function isTranslatable(text: string): boolean {
  const t = text.trim();
  if (!/\p{L}/u.test(t)) return false;
  // One letter alone is a key or a mark (TailAdmin's search shortcut `⌘ K`, a grade), not a word.
  if (/^[\p{P}\p{S}]*\p{L}[\p{P}\p{S}]*$/u.test(t)) return false;
  if (/^(https?:|mailto:|tel:|data:)/i.test(t)) return false;
  // A path or an anchor is one token (`/about`, `./x`, `#top`); `#1 Tailwind CSS Dashboard` is words.
  if (!/\s/.test(t) && /^(\/|\.\.?\/|#)/.test(t)) return false;
  if (!/\s/.test(t)) {
    const word = t.replace(/[.!?…:]+$/u, '');
    // Words joined by a slash (`City/State`, `Yes/No`): text, not a path.
    if (/^\p{Lu}\p{Ll}*(\/\p{L}\p{Ll}*)+$/u.test(word)) return true;
    if (/[_/\\=@#<>{}[\]$`|~^*+]/.test(word)) return false; // identifiers, paths, markup, expressions
    if (/\p{Ll}\p{Lu}/u.test(word)) return false; // camelCase
    if (/\.\p{L}/u.test(word)) return false; // file.ext, a.b.c
    if (/\p{L}-\p{L}.*-|^[a-z]+(-[a-z0-9]+)+$/u.test(word)) return false; // kebab-case class names
    if (/\d/.test(word) && /\p{L}/u.test(word) && !/^\d+(st|nd|rd|th)$/i.test(word)) return false; // h1, v2
  }
  return true;
}

/** The unit's replacement for a target (inline XML), escaped for where the unit sits. */
export function writeTarget(unit: Unit, target: string): string {
  let out = '';
  const stack: InlineCode[] = [];
  for (const t of keepAdjacentTags(parseInline(unit.source), parseInline(target))) {
    if (t.type === 'text') out += escapeFor(unit.escape, t.text);
    else if (t.type === 'close') out += stack.pop()?.close ?? '';
    else {
      const code = unit.codes[t.id];
      if (!code) throw new RangeError(`unknown inline code id ${t.id}`);
      if (t.type === 'open') {
        stack.push(code);
        out += code.open ?? '';
      } else out += code.text ?? '';
    }
  }
  return out;
}

type Token = ReturnType<typeof parseInline>[number];
const tagOf = (t: Token | undefined) => (t && t.type !== 'text' ? `${t.type} ${t.id}` : undefined);

/**
 * The target's tokens fitted to the source's shape: without the white space a translation put between two tags that touch in the
 * source (`<1>Terry</1><2> asks</2>` → `<1>Terry</1> <2>pide</2>`): in JSX that space would be a child
 * of its own, so the locale's chunk would differ from the English one in shape, not only in text, and
 * could not share its code; the tags touch in the source, so the space was not the author's.
 */
function keepAdjacentTags(source: readonly Token[], target: readonly Token[]): Token[] {
  // Pairs of tags with nothing between them in the source; `start`/`end`: a tag at the source's edge.
  const touching = new Set<string>();
  for (let i = 0; i <= source.length; i++) {
    const a = i === 0 ? 'start' : tagOf(source[i - 1]);
    const b = i === source.length ? 'end' : tagOf(source[i]);
    if (a && b) touching.add(`${a}|${b}`);
  }
  const between = (out: readonly Token[], i: number) =>
    touching.has(
      `${i === 0 ? 'start' : tagOf(out[i - 1])}|${i === out.length - 1 ? 'end' : tagOf(out[i + 1])}`,
    );
  const out = target.filter((t, i) => t.type !== 'text' || t.text.trim() !== '' || !between(target, i));
  // A pseudo-locale's bracket where the source has two tags touching (`[<g1>Sign up</g1>]`,
  // `<g1>[<g2>Terry</g2><g3> asks</g3>]</g1>`) goes inside the tag it is next to: between the two it
  // would be a child of its own.
  for (let i = 0; i < out.length; i++) {
    const t = out[i]!;
    if (t.type !== 'text' || !between(out, i)) continue;
    if (/^[\s[]*\[[\s[]*$/.test(t.text) && out[i + 1]?.type === 'open') {
      [out[i], out[i + 1]] = [out[i + 1]!, t];
      i++;
    } else if (/^[\s\]]*\][\s\]]*$/.test(t.text) && out[i - 1]?.type === 'close') {
      [out[i - 1], out[i]] = [t, out[i - 1]!];
    }
  }
  return out;
}

function escapeFor(syntax: Escape, text: string): string {
  switch (syntax) {
    case 'text':
      return text.replace(/[&<>{}]/g, (c) => MARKUP[c]!);
    case 'attribute':
      return text.replace(/[&<>{}"']/g, (c) => MARKUP[c]!);
    case 'template':
      return text.replace(/\\|`|\$\{/g, (c) => `\\${c}`);
    default: {
      const quote = syntax.slice(-1);
      return text.replace(/[\\\n\r\u2028\u2029]/g, (c) => JS[c]!).replaceAll(quote, `\\${quote}`);
    }
  }
}

const MARKUP: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '{': '&#123;',
  '}': '&#125;',
  '"': '&quot;',
  "'": '&#39;',
};
const JS: Record<string, string> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  times: '×',
};

/** Markup text as rendered: character references decoded (unknown names stay as written). */
export function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(?:#x([0-9a-f]{1,6})|#(\d{1,7})|([a-z]{2,8}));/gi, (all, hex, dec, name) => {
    if (name !== undefined) return NAMED[name] ?? all;
    const cp = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  });
}

/** A replacement of `code.slice(start, end)` (empty for an insertion) with `text`. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Replaces each edit's range (ranges never overlap; insertions at one place keep their order) with its text. */
export function applyEdits(code: string, edits: readonly Edit[]) {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += code.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + code.slice(at);
}

/** 1-based line and column of an offset. */
export function positionOf(code: string, offset: number): { line: number; column: number; offset: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = code.indexOf('\n'); i >= 0 && i < offset; i = code.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1, offset };
}
