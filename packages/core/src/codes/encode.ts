/**
 * Raw text + found codes → a Segment source (inline XML) and its CodeMap; a translated target + the
 * CodeMap → raw text again.
 */
import type { CodeMap, InlineCode } from '../segment.js';
import type { CodeFinder, FoundCode } from './finders.js';
import { escapeInlineText, parseInline } from './inline.js';

export interface EncodedText {
  /** Segment source: text escaped, codes as `<g id>`/`<x id/>`. */
  readonly source: string;
  /** The original bytes of each code, by id. */
  readonly codes: CodeMap;
}

/** Sorts matches, drops any that overlap an earlier one, keeps the first of equal starts. */
function orderMatches(found: readonly FoundCode[]): FoundCode[] {
  const sorted = found
    .map((f, index) => ({ f, index }))
    .sort((a, b) => a.f.start - b.f.start || a.index - b.index)
    .map(({ f }) => f);
  const kept: FoundCode[] = [];
  let end = 0;
  for (const f of sorted) {
    if (f.start < end || f.end <= f.start) continue;
    kept.push(f);
    end = f.end;
  }
  return kept;
}

/** Pairs `open`/`close` matches by name with a stack; unpaired ones become standalone codes. */
function pairMatches(matches: readonly FoundCode[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: number[] = [];
  matches.forEach((m, i) => {
    if (m.role === 'open') stack.push(i);
    else if (m.role === 'close') {
      const at = stack.findLastIndex((j) => matches[j]!.name === m.name);
      if (at >= 0) {
        pairs.set(stack[at]!, i);
        stack.length = at; // opens above it are left unpaired (crossed markup)
      }
    }
  });
  return pairs;
}

/** Encodes `text` with the codes `finder` locates (or the given matches). Ids are "1", "2", … in order. */
export function encodeWithCodes(text: string, finder: CodeFinder | readonly FoundCode[]): EncodedText {
  const matches = orderMatches(typeof finder === 'function' ? finder(text) : finder);
  const pairs = pairMatches(matches);
  const closers = new Map<number, string>();
  const codes: Record<string, InlineCode> = {};
  let source = '';
  let at = 0;
  let next = 1;
  matches.forEach((m, i) => {
    source += escapeInlineText(text.slice(at, m.start));
    const raw = text.slice(m.start, m.end);
    const closerOf = closers.get(i);
    const pairedWith = pairs.get(i);
    if (closerOf !== undefined) {
      source += '</g>';
      codes[closerOf] = { ...codes[closerOf]!, close: raw };
    } else if (pairedWith !== undefined) {
      const id = String(next++);
      closers.set(pairedWith, id);
      codes[id] = { kind: 'g', open: raw, close: '' };
      source += `<g id="${id}">`;
    } else {
      const id = String(next++);
      codes[id] = { kind: 'x', text: raw };
      source += `<x id="${id}"/>`;
    }
    at = m.end;
  });
  source += escapeInlineText(text.slice(at));
  return { source, codes };
}

/**
 * Turns a (verified) target back into raw text, replacing each code with its original bytes.
 * Throws `InlineSyntaxError` when the target is not valid inline XML and `RangeError` for an unknown id.
 */
export function decodeWithCodes(target: string, codes: CodeMap): string {
  let out = '';
  const stack: InlineCode[] = [];
  for (const t of parseInline(target)) {
    if (t.type === 'text') {
      out += t.text;
      continue;
    }
    if (t.type === 'close') {
      out += stack.pop()?.close ?? '';
      continue;
    }
    const code = codes[t.id];
    if (!code)
      throw new RangeError(`Unknown inline code id '${t.id}' (known: ${Object.keys(codes).join(', ')})`);
    if (t.type === 'open') {
      stack.push(code);
      out += code.open ?? '';
    } else {
      out += code.text ?? '';
    }
  }
  return out;
}
