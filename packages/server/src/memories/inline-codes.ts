/**
 * Inline codes of memory segments. A TMX segment's codes are kept in a normalized TMX form: paired codes
 * (`bpt`/`ept`) and standalone codes (`ph`, `ut` written as `ph`, `it`, and a `bpt` or `ept` without its
 * partner, written as `it`) are numbered 1..n in the order they open in the source segment, and a target's
 * codes carry the number of the source code they stand for:
 * `Open the <bpt i="1" x="1">&lt;b&gt;</bpt>settings<ept i="1">&lt;/b&gt;</ept>.`
 * Matching sees a code only as its kind and its place: the text with each code replaced by a mark (open,
 * close, standalone) is tokenized and scored like plain text, and two texts can match only when their
 * marks alone (the code structure) are equal.
 */
import { decodeEntities, escapeText } from '../translate/markup-parse.js';

/** A code as read from a TMX segment, before normalization. */
export interface RawCode {
  readonly element: 'bpt' | 'ept' | 'ph' | 'it' | 'ut';
  readonly i: string | undefined;
  readonly x: string | undefined;
  readonly pos: string | undefined;
  readonly native: string;
}
export type RawPiece = string | RawCode;

/** A code of a normalized segment: `number` is its source code's number (shared by an open and its close). */
export interface Code {
  readonly kind: 'open' | 'close' | 'standalone';
  readonly number: number;
}
export type Piece = string | Code;

const MARKS = { open: '\uE001', close: '\uE002', standalone: '\uE003' } as const;
const MARK_CHARACTERS = /[\uE001-\uE003]/g;

export const escapeXml = (text: string) =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

interface Resolved {
  readonly code: RawCode;
  readonly kind: 'open' | 'close' | 'standalone';
  /** Index (in `codes`) of the partner of an open or close code. */
  partner: number;
}

/** Pairs `bpt` with `ept` by `i`; undefined when two pairs cross (no nesting can express them). */
function resolve(pieces: readonly RawPiece[]): Resolved[] | undefined {
  const codes: Resolved[] = [];
  const open: number[] = [];
  for (const piece of pieces) {
    if (typeof piece === 'string') continue;
    const index = codes.length;
    if (piece.element === 'bpt') {
      codes.push({ code: piece, kind: 'open', partner: -1 });
      open.push(index);
    } else if (piece.element === 'ept') {
      const at = open.findLastIndex((o) => codes[o]!.code.i === piece.i);
      if (at >= 0 && at !== open.length - 1) return undefined;
      if (at < 0) codes.push({ code: piece, kind: 'standalone', partner: -1 });
      else {
        const partner = open.pop()!;
        codes[partner]!.partner = index;
        codes.push({ code: piece, kind: 'close', partner });
      }
    } else codes.push({ code: piece, kind: 'standalone', partner: -1 });
  }
  for (const index of open) codes[index] = { code: codes[index]!.code, kind: 'standalone', partner: -1 };
  return codes;
}

function serialize(pieces: readonly RawPiece[], codes: readonly Resolved[], numbers: number[]): string {
  let out = '';
  let next = 0;
  pieces.forEach((piece, index) => {
    if (typeof piece === 'string') {
      let text = piece;
      if (index === 0) text = text.trimStart();
      if (index === pieces.length - 1) text = text.trimEnd();
      out += escapeXml(text);
      return;
    }
    const { kind, code } = codes[next]!;
    const k = numbers[next++]!;
    const native = escapeXml(code.native);
    if (kind === 'open') out += `<bpt i="${k}" x="${k}">${native}</bpt>`;
    else if (kind === 'close') out += `<ept i="${k}">${native}</ept>`;
    else if (code.element === 'ph' || code.element === 'ut') out += `<ph x="${k}">${native}</ph>`;
    else {
      const pos = code.element === 'bpt' || (code.element === 'it' && code.pos !== 'end') ? 'begin' : 'end';
      out += `<it pos="${pos}" x="${k}">${native}</it>`;
    }
  });
  return out;
}

/**
 * The normalized forms of one unit's source and targets; undefined for a text without codes (or whose
 * paired codes cross). Target codes take the number of the source code with the same `x`, else (paired)
 * the same `i`, else the next unused source code of their kind; a code left over gets a number past n.
 */
export function normalizeUnit(
  source: readonly RawPiece[],
  targets: readonly (readonly RawPiece[])[],
): { source: string | undefined; targets: (string | undefined)[] } {
  const sourceCodes = resolve(source);
  const targetForms = targets.map(() => undefined as string | undefined);
  if (!sourceCodes) return { source: undefined, targets: targetForms };
  const sourceNumbers: number[] = [];
  let n = 0;
  for (const code of sourceCodes)
    sourceNumbers.push(code.kind === 'close' ? sourceNumbers[code.partner]! : ++n);
  const starts = sourceCodes.flatMap((code, index) => (code.kind === 'close' ? [] : [index]));
  targets.forEach((pieces, t) => {
    const codes = resolve(pieces);
    if (!codes || codes.length === 0) return;
    const used = new Set<number>();
    let extra = n;
    const numbers: number[] = [];
    for (const code of codes) {
      if (code.kind === 'close') {
        numbers.push(numbers[code.partner]!);
        continue;
      }
      const paired = code.kind === 'open';
      const free = starts.filter((s) => (sourceCodes[s]!.kind === 'open') === paired && !used.has(s));
      const { i, x } = code.code;
      const pick =
        free.find((s) => x !== undefined && sourceCodes[s]!.code.x === x) ??
        free.find((s) => paired && i !== undefined && sourceCodes[s]!.code.i === i) ??
        free[0];
      if (pick !== undefined) used.add(pick);
      numbers.push(pick === undefined ? ++extra : sourceNumbers[pick]!);
    }
    targetForms[t] = serialize(pieces, codes, numbers);
  });
  return {
    source: sourceCodes.length > 0 ? serialize(source, sourceCodes, sourceNumbers) : undefined,
    targets: targetForms,
  };
}

const STORED =
  /<bpt i="(\d+)" x="\d+">[^<]*<\/bpt>|<ept i="(\d+)">[^<]*<\/ept>|<(?:ph|it pos="(?:begin|end)") x="(\d+)">[^<]*<\/(?:ph|it)>/g;

/** The pieces of a normalized (stored) form. */
export function parseStored(stored: string): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of stored.matchAll(STORED)) {
    if (match.index > last) pieces.push(decodeEntities(stored.slice(last, match.index)));
    last = match.index + match[0].length;
    if (match[1] !== undefined) pieces.push({ kind: 'open', number: Number(match[1]) });
    else if (match[2] !== undefined) pieces.push({ kind: 'close', number: Number(match[2]) });
    else pieces.push({ kind: 'standalone', number: Number(match[3]) });
  }
  if (last < stored.length) pieces.push(decodeEntities(stored.slice(last)));
  return pieces;
}

const REQUEST_CODE = /<g id="(\d+)">|<\/g>|<x id="(\d+)"\/>/g;

/** A request unit in the engine's code form, numbered like a stored source; `ids[k - 1]` is code k's id. */
export function parseRequestUnit(unit: string): { pieces: Piece[]; ids: number[] } {
  const pieces: Piece[] = [];
  const ids: number[] = [];
  const open: number[] = [];
  let last = 0;
  for (const match of unit.matchAll(REQUEST_CODE)) {
    if (match.index > last) pieces.push(decodeEntities(unit.slice(last, match.index)));
    last = match.index + match[0].length;
    if (match[0] === '</g>') {
      pieces.push({ kind: 'close', number: open.pop() ?? 0 });
      continue;
    }
    ids.push(Number(match[1] ?? match[2]));
    if (match[1] !== undefined) open.push(ids.length);
    pieces.push({ kind: match[1] !== undefined ? 'open' : 'standalone', number: ids.length });
  }
  if (last < unit.length) pieces.push(decodeEntities(unit.slice(last)));
  return { pieces, ids };
}

/** What matching compares: the text with a mark per code, and the marks alone (the code structure). */
export function matchForm(pieces: readonly Piece[]): { text: string; structure: string; plain: string } {
  let text = '';
  let structure = '';
  let plain = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      const clean = piece.replace(MARK_CHARACTERS, '\uFFFD');
      text += clean;
      plain += clean;
    } else {
      text += MARKS[piece.kind];
      structure += MARKS[piece.kind];
    }
  }
  return { text, structure, plain };
}

/**
 * A memory target in the engine's code form with the request's code ids, or undefined when its codes
 * cannot be mapped onto the request's: each source code must appear exactly once, as the same kind,
 * well nested. `source` is the memory segment's source (its codes in order stand for `ids` in order).
 */
export function rebuildTarget(
  target: readonly Piece[],
  source: readonly Piece[],
  ids: readonly number[],
): string | undefined {
  const idOf = new Map<number, { id: number; paired: boolean }>();
  for (const piece of source) {
    if (typeof piece === 'string' || piece.kind === 'close') continue;
    const id = ids[idOf.size];
    if (id === undefined) return undefined;
    idOf.set(piece.number, { id, paired: piece.kind === 'open' });
  }
  if (idOf.size !== ids.length) return undefined;
  const seen = new Set<number>();
  const open: number[] = [];
  let out = '';
  for (const piece of target) {
    if (typeof piece === 'string') {
      out += escapeText(piece);
      continue;
    }
    if (piece.kind === 'close') {
      if (open.pop() !== piece.number) return undefined;
      out += '</g>';
      continue;
    }
    const code = idOf.get(piece.number);
    if (!code || seen.has(piece.number) || code.paired !== (piece.kind === 'open')) return undefined;
    seen.add(piece.number);
    if (piece.kind === 'open') {
      open.push(piece.number);
      out += `<g id="${code.id}">`;
    } else out += `<x id="${code.id}"/>`;
  }
  return open.length === 0 && seen.size === idOf.size ? out : undefined;
}
