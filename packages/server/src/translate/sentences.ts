/**
 * Sentence splitting for `split_sentences`: `1` splits on sentence punctuation and newlines, `nonewlines`
 * on punctuation only, `0` not at all. Works on plain text and on the engine's code form (`<g>`/`<x>`), where
 * it only splits outside paired codes. The pieces concatenate back to the input exactly.
 */
export type SplitMode = '0' | '1' | 'nonewlines';

const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'etc', 'e.g', 'i.e', 'vs', 'no', 'fig', 'inc', 'ltd', 'jr', 'sr', 'approx',
]); // biome-ignore format: a word list

const CODE = /<g id="\d+">|<\/g>|<x id="\d+"\/>/g;
/** A cheap first look: no sentence end followed by more text, no newline, so nothing to split. */
const MAY_SPLIT = /[.!?…。！？]["'’”»)\]]*\s+\S|\n/;
const BOUNDARY = /[.!?…。！？]+["'’”»)\]]*(?=\s)|\n+/g;

/** Depth of paired codes at each offset (only needed for code-form text). */
function openCodeDepths(text: string): Int32Array {
  const depth = new Int32Array(text.length + 1);
  let level = 0;
  let last = 0;
  for (const match of text.matchAll(CODE)) {
    depth.fill(level, last, match.index);
    if (match[0] === '</g>') level = Math.max(0, level - 1);
    else if (match[0].startsWith('<g')) level += 1;
    depth.fill(level, match.index, match.index + match[0].length);
    last = match.index + match[0].length;
  }
  depth.fill(level, last);
  return depth;
}

function isAbbreviation(text: string, end: number): boolean {
  const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, end - 12), end))?.[1]?.toLowerCase() ?? '';
  const bare = word.replace(/\.$/, '');
  return bare.length === 1 || ABBREVIATIONS.has(bare);
}

export function splitSentences(text: string, mode: SplitMode, codes: boolean): string[] {
  if (mode === '0' || !MAY_SPLIT.test(text)) return [text];
  const depth = codes ? openCodeDepths(text) : undefined;
  const cuts: number[] = [];
  for (const match of text.matchAll(BOUNDARY)) {
    const end = match.index + match[0].length;
    if (depth && depth[match.index] !== 0) continue;
    if (match[0][0] === '\n') {
      if (mode === '1') cuts.push(match.index, end);
      continue;
    }
    const next = /\s*(\S)/.exec(text.slice(end))?.[1];
    if (next === undefined || /\p{Ll}/u.test(next)) continue;
    if (match[0].startsWith('.') && isAbbreviation(text, match.index + 1)) continue;
    cuts.push(end);
  }
  const pieces: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    if (cut > start) pieces.push(text.slice(start, cut));
    start = Math.max(start, cut);
  }
  if (start < text.length || pieces.length === 0) pieces.push(text.slice(start));
  return pieces;
}
