/**
 * Turns a segment into Apertium's stream format and a translation back.
 *
 * Out: text is unescaped from XML (when `markup`), Apertium's special characters `\ [ ] ^ $ / @ < > { }`
 * are backslash-escaped, words inside `<g>` codes travel as word-bound blanks (`[[t:b:1]]red[[/]]`, one
 * per word, nested codes as `[[t:b:1; t:b:2]]`), `<x/>` codes as superblanks (`[x2]`), and literal `*`
 * and `#` as superblanks too (`[s3]`): Apertium passes them through unescaped, where they could not be
 * told apart from its unknown-word marks.
 *
 * Back: escapes are undone, unknown-word marks (`*`, `#`, `@` outside blanks) removed, superblanks
 * replaced by their codes, and each `<g>` is put around the words that carry its blank (see
 * `apertium-codes.ts`), so the codes land on the translated words even when Apertium reorders them.
 */
import { type Code, placeCodes, type Unit } from './apertium-codes.js';
import { EngineError, TERM_END, TERM_START } from './engine.js';

export interface EncodedSegment {
  /** The segment in Apertium stream format, without the `\n\0` that ends it. */
  readonly stream: string;
  /** Inline codes and protected literals, by the index their blanks carry. */
  readonly codes: readonly Code[];
  readonly leading: string;
  readonly trailing: string;
  /** Whether the segment holds any text to translate (not only codes and whitespace). */
  readonly hasText: boolean;
  readonly markup: boolean;
  /** The source has no run of spaces, so runs in the output (left where a word merged away) are collapsed. */
  readonly singleSpaced: boolean;
  /**
   * The source has no space before a full stop or comma, so one in the output is the transfer's (some
   * rules of apertium-eng-spa give "Peter es un amigo bueno .") and is removed.
   */
  readonly tightStops: boolean;
}

const MARKUP_TOKEN = /<g\b[^<>]*>|<\/g\s*>|<x\b[^<>]*\/>|&(?:#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const SPECIAL = /[\\[\]^$/@<>{}]/g;
/** Spaces between a word and a full stop or comma that ends a sentence or clause: "bueno ." */
const SPACED_STOP = /(?<=[\p{L}\p{N}])\s+(?=[.,](?:\s|$))/u;
const PIECE = /\s+|[*#]|[^\s*#]+/g;

function decodeEntity(entity: string): string | undefined {
  const body = entity.slice(1, -1);
  if (body.startsWith('#')) {
    const point = body[1] === 'x' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return point <= 0x10ffff ? String.fromCodePoint(point) : undefined;
  }
  return NAMED[body];
}

const escapeStream = (text: string) => text.replace(SPECIAL, '\\$&').replaceAll('\0', ' ');

/** A glossary term found in a run of plain text: its words travel with the word-bound blank `t:gl:<mark>`. */
export interface TermMark {
  readonly start: number;
  readonly end: number;
  readonly mark: number;
}

/**
 * Encodes one segment (see the file comment). Throws `EngineError` for unbalanced `<g>` codes. `findTerms`
 * marks the glossary terms of each run of plain text (`apertium-terms.ts`).
 */
export function encodeSegment(
  text: string,
  markup: boolean,
  findTerms?: (plain: string) => readonly TermMark[],
): EncodedSegment {
  const leading = /^\s*/.exec(text)![0];
  const trimmed = text.slice(leading.length);
  const trailing = /\s*$/.exec(trimmed)![0];
  const body = trimmed.slice(0, trimmed.length - trailing.length);
  const codes: Code[] = [];
  const stack: number[] = [];
  let stream = '';
  let hasText = false;
  const singleSpaced = !/ {2}/.test(text);
  const tightStops = !SPACED_STOP.test(text);

  const addPieces = (plain: string, mark: number | undefined) => {
    for (const [piece] of plain.matchAll(PIECE)) {
      if (/^\s/.test(piece)) stream += piece;
      else if (piece === '*' || piece === '#') {
        codes.push({ kind: 'literal', text: piece });
        stream += `[s${codes.length - 1}]`;
      } else {
        hasText = true;
        const word = escapeStream(piece);
        const blank = stack.map((id) => `t:b:${id}`);
        if (mark !== undefined) blank.push(`t:gl:${mark}`);
        stream += blank.length > 0 ? `[[${blank.join('; ')}]]${word}[[/]]` : word;
      }
    }
  };
  const addText = (plain: string) => {
    const terms = plain === '' || !findTerms ? [] : findTerms(plain);
    let last = 0;
    for (const term of terms) {
      addPieces(plain.slice(last, term.start), undefined);
      addPieces(plain.slice(term.start, term.end), term.mark);
      last = term.end;
    }
    addPieces(plain.slice(last), undefined);
  };

  if (!markup) {
    addText(body);
    return { stream, codes, leading, trailing, hasText, markup, singleSpaced, tightStops };
  }
  let last = 0;
  let plain = '';
  const tokens = new RegExp(MARKUP_TOKEN.source, 'g');
  for (let match = tokens.exec(body); match; match = tokens.exec(body)) {
    plain += body.slice(last, match.index);
    last = match.index + match[0].length;
    let token = match[0];
    const wordless = token.startsWith('<g') ? wordlessElementEnd(body, last) : undefined;
    if (wordless !== undefined) {
      // A <g> without words (an empty link, an icon) has nothing to travel on: it keeps its place as one code.
      token = body.slice(match.index, wordless);
      last = tokens.lastIndex = wordless;
    }
    if (token.startsWith('&')) {
      const decoded = decodeEntity(token);
      if (decoded !== undefined) {
        plain += decoded;
        continue;
      }
    }
    addText(plain);
    plain = '';
    if (token.startsWith('</')) {
      if (stack.pop() === undefined)
        throw new EngineError('apertium: </g> without a matching <g>', 'apertium');
    } else if (token.startsWith('<g') && wordless === undefined) {
      codes.push({ kind: 'g', open: token, parent: stack.at(-1), depth: stack.length });
      stack.push(codes.length - 1);
    } else {
      // An <x/> code, a wordless <g>, or an entity XML does not define (kept byte for byte).
      codes.push(token.startsWith('<') ? { kind: 'x', text: token } : { kind: 'literal', text: token });
      stream += token.startsWith('<') ? `[x${codes.length - 1}]` : `[s${codes.length - 1}]`;
    }
  }
  addText(plain + body.slice(last));
  if (stack.length > 0) throw new EngineError('apertium: <g> without a matching </g>', 'apertium');
  return { stream, codes, leading, trailing, hasText, markup, singleSpaced, tightStops };
}

/**
 * Where the `<g>` whose open tag ends at `from` closes, when everything inside it is codes and whitespace;
 * undefined when it holds text (or never closes).
 */
function wordlessElementEnd(body: string, from: number): number | undefined {
  const tokens = new RegExp(MARKUP_TOKEN.source, 'g');
  tokens.lastIndex = from;
  let depth = 1;
  let at = from;
  for (let match = tokens.exec(body); match; match = tokens.exec(body)) {
    if (body.slice(at, match.index).trim() !== '' || match[0].startsWith('&')) return undefined;
    at = match.index + match[0].length;
    if (match[0].startsWith('</')) depth--;
    else if (match[0].startsWith('<g')) depth++;
    if (depth === 0) return at;
  }
  return undefined;
}

/**
 * One token of Apertium's output: an escaped character (1), a word-bound blank's content (2), a
 * superblank's content (3), an unknown-word mark (`*`, `#`, `@`), a run of plain text, or a stray `[`.
 */
const OUTPUT_TOKEN =
  /\\([\s\S])|\[\[((?:\\[\s\S]|[^\]\\])*)\]\]|\[((?:\\[\s\S]|[^\]\\])*)\]|[*#@]|[^\\[*#@]+|[\s\S]/g;

/** Removes Apertium's unknown-word marks from a stream, keeping escapes and blanks (for a pivot's 2nd leg). */
export function stripMarks(stream: string): string {
  return stream.replace(OUTPUT_TOKEN, (token) =>
    token === '*' || token === '#' || token === '@' ? '' : token,
  );
}

/** A word of a stream's plain text, for the pivot's word tags (`tagWords`). */
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’-][\p{L}\p{N}\p{M}]+)*/gu;
/** A word-bound unit of Apertium's output: its blank's content (1) and its text (2), up to `[[/]]`. */
const WORD_BOUND_UNIT = /\[\[((?:\\[\s\S]|[^\]\\])*)\]\]((?:\\[\s\S]|(?!\[\[)[^\\])*)\[\[\/\]\]/g;

/** A pivot leg's input with every word tagged, and the blank entries each word had before (by tag). */
export interface TaggedStream {
  readonly stream: string;
  readonly entries: readonly (readonly string[])[];
}

/**
 * Before a pivot's second leg: every word gets a word-bound blank of its own, `t:w:<n>` added to the
 * entries it already had (its codes `t:b:<id>`, or none). An older pair's transfer joins the blanks of the
 * words of a chunk into one unit ("al servidor" → `[[t:b:0; t:b:0]]au serveur.[[/]]`, the code of "al"
 * spread over "serveur"); with a tag per word, `untagWords` gives each output word back its own entries.
 */
export function tagWords(stream: string): TaggedStream {
  const entries: string[][] = [];
  let out = '';
  let current: string[] = [];
  for (const [token, escaped, wordBound] of stream.matchAll(OUTPUT_TOKEN)) {
    if (wordBound !== undefined) {
      current = wordBound === '/' ? [] : wordBound.split(';').map((entry) => entry.trim());
      continue;
    }
    if (escaped !== undefined || token.startsWith('[') || token === '*' || token === '#' || token === '@') {
      out += token;
      continue;
    }
    let last = 0;
    for (const word of token.matchAll(WORD)) {
      out += token.slice(last, word.index);
      entries.push(current);
      out += `[[${[...current, `t:w:${entries.length - 1}`].join('; ')}]]${word[0]}[[/]]`;
      last = word.index + word[0].length;
    }
    out += token.slice(last);
  }
  return { stream: out, entries };
}

const blankOf = (entries: readonly string[], text: string) =>
  entries.length === 0 ? text : `[[${entries.join('; ')}]]${text}[[/]]`;

/**
 * After a pivot's second leg: each unit's words get the entries of the words they were translated from
 * (the unit's tags in order, one word each), so a code stays on its own words. A unit whose word count
 * differs from its tags keeps the union of their entries, as without tags.
 */
export function untagWords(stream: string, entries: readonly (readonly string[])[]): string {
  return stream.replace(WORD_BOUND_UNIT, (unit, blank: string, text: string) => {
    const listed = blank.split(';').map((entry) => entry.trim());
    const tags = [
      ...new Set(listed.flatMap((entry) => (/^t:w:\d+$/.test(entry) ? [Number(entry.slice(4))] : []))),
    ];
    if (tags.length === 0) return unit;
    const own = tags.map((tag) => entries[tag] ?? []);
    const words = [...text.matchAll(WORD)];
    if (words.length === tags.length) {
      let out = '';
      let last = 0;
      words.forEach((word, index) => {
        out += text.slice(last, word.index) + blankOf(own[index]!, word[0]);
        last = word.index + word[0].length;
      });
      return out + text.slice(last);
    }
    return blankOf([...new Set(own.flat())], text);
  });
}

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * What a glossary term's marked word becomes in the output: the generated word with the target's other
 * words around it, or (when the engine could not inflect the target) the target as written.
 */
export type TermOutput =
  | { readonly kind: 'inflected'; readonly head: string; readonly before: string; readonly after: string }
  | { readonly kind: 'literal'; readonly target: string };

type MarkedUnit = { readonly text: string; readonly ids: readonly number[]; readonly mark: number };

/** Parses Apertium's output into units: text runs (with the `<g>` indices of their word-bound blank) and codes. */
function parseOutput(
  output: string,
  codes: readonly Code[],
  markup: boolean,
  terms: ReadonlyMap<number, TermOutput> | undefined,
  marked: boolean,
): Unit[] {
  const units: (Unit | MarkedUnit)[] = [];
  let text = '';
  let ids: number[] = [];
  let mark: number | undefined;
  const flush = () => {
    if (text !== '') {
      if (mark !== undefined && terms?.has(mark)) units.push({ text, ids, mark });
      else units.push({ text: markup ? escapeXml(text) : text, ids });
    }
    text = '';
  };
  for (const [token, escaped, wordBound, superblank] of output.matchAll(OUTPUT_TOKEN)) {
    if (escaped !== undefined) text += escaped;
    else if (wordBound !== undefined) {
      flush();
      ids = wordBound === '/' ? [] : [...wordBound.matchAll(/t:b:(\d+)/g)].map((m) => Number(m[1]));
      const gl = wordBound === '/' ? undefined : /t:gl:(\d+)/.exec(wordBound)?.[1];
      mark = gl === undefined ? undefined : Number(gl);
    } else if (superblank !== undefined) {
      flush();
      mark = undefined;
      const code = /^[xs](\d+)$/.exec(superblank);
      const index = code ? Number(code[1]) : -1;
      if (codes[index]?.kind === 'x') units.push({ code: index });
      else if (codes[index]?.kind === 'literal') units.push({ text: codes[index].text, ids: [] });
      else units.push({ text: markup ? escapeXml(superblank) : superblank, ids: [] });
    } else if (token !== '*' && token !== '#' && token !== '@') text += token;
  }
  flush();
  return terms ? placeTerms(units, markup, terms, marked) : (units as Unit[]);
}

/**
 * Each marked term becomes one word: among the words carrying its mark (the transfer may copy a noun's
 * blank onto the article it adds), the one the generator made from the term's head (the longest common
 * start with it, the last on a tie), or for a literal term the last one.
 */
function placeTerms(
  units: readonly (Unit | MarkedUnit)[],
  markup: boolean,
  terms: ReadonlyMap<number, TermOutput>,
  marked: boolean,
): Unit[] {
  const chosen = new Map<number, { at: number; score: number }>();
  units.forEach((unit, at) => {
    if (!('mark' in unit)) return;
    const term = terms.get(unit.mark)!;
    const score =
      term.kind === 'inflected' ? commonStart(unit.text.toLowerCase(), term.head.toLowerCase()) : 0;
    const best = chosen.get(unit.mark);
    if (!best || score >= best.score) chosen.set(unit.mark, { at, score });
  });
  return units.map((unit, at) => {
    if (!('mark' in unit)) return unit;
    const text =
      chosen.get(unit.mark)?.at !== at
        ? unit.text
        : marked
          ? `${TERM_START}${termText(unit.text, terms.get(unit.mark)!)}${TERM_END}`
          : termText(unit.text, terms.get(unit.mark)!);
    return { text: markup ? escapeXml(text) : text, ids: unit.ids };
  });
}

function commonStart(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

/** The output word of a term's first word, with the case the engine gave it where the target is literal. */
function termText(word: string, term: TermOutput): string {
  if (term.kind === 'inflected') return `${term.before}${word}${term.after}`;
  const first = /\p{L}/u.exec(word)?.[0];
  const letter = /\p{L}/u.exec(term.target);
  if (!first || !letter || first === first.toLowerCase() || letter[0] !== letter[0].toLowerCase())
    return term.target;
  return `${term.target.slice(0, letter.index)}${letter[0].toUpperCase()}${term.target.slice(letter.index + 1)}`;
}

/** Word-bound blanks (`[[t:b:1]]`, `[[/]]`) that may sit around a word of the stream. */
const BLANKS = String.raw`(?:\[\[(?:\\[\s\S]|[^\]\\])*\]\])*`;
/**
 * A sentence start, its first word (2: `*` when Apertium does not know it) and the first letter of the word
 * after it (4), with what lies between (1, 3).
 */
const SENTENCE_START = new RegExp(
  String.raw`((?:^|[.!?…]\s+)${BLANKS})(\*?)[^\s\[\]*#@]+(${BLANKS}\s+${BLANKS})(\p{L})`,
  'gu',
);

/**
 * Apertium's transfer capitalizes the first chunk of each sentence. A word it does not know (a product
 * name: "Excalidraw is a …") belongs to no chunk, so when a sentence starts with one, the next chunk is
 * capitalized too: "*Excalidraw Es un …". That word's capital is undone where the source sentence's
 * second word is lower case. Sentences are paired in order; when source and output do not have as many,
 * nothing is changed.
 */
export function lowerAfterUnknownStart(output: string, source: string): string {
  if (!output.includes('*')) return output;
  const lowerSecond = [...source.matchAll(SENTENCE_START)].map(
    ({ 4: letter }) => letter === letter!.toLowerCase(),
  );
  const starts = [...output.matchAll(SENTENCE_START)];
  if (starts.length !== lowerSecond.length) return output;
  let result = '';
  let last = 0;
  starts.forEach((start, sentence) => {
    if (start[2] !== '*' || !lowerSecond[sentence]) return;
    const at = start.index + start[0].length - start[4]!.length;
    result += output.slice(last, at) + start[4]!.toLowerCase();
    last = at + start[4]!.length;
  });
  return result + output.slice(last);
}

/**
 * Decodes one translation. Throws `EngineError` when a non-empty segment came back without text. `terms`
 * says what the words marked as glossary terms become; `marked` wraps each between `TERM_START` and
 * `TERM_END`.
 */
export function decodeSegment(
  output: string,
  segment: EncodedSegment,
  terms?: ReadonlyMap<number, TermOutput>,
  marked = false,
): string {
  const raw = lowerAfterUnknownStart(output.endsWith('\n') ? output.slice(0, -1) : output, segment.stream);
  const units = parseOutput(raw, segment.codes, segment.markup, terms, marked);
  const hasText = units.some((unit) => 'text' in unit && unit.text.trim() !== '');
  if (segment.hasText && !hasText) {
    throw new EngineError('apertium: empty translation for a non-empty segment', 'apertium');
  }
  const body = segment.markup
    ? placeCodes(units, segment.codes)
    : units.map((u) => ('text' in u ? u.text : '')).join('');
  const single = segment.singleSpaced ? body.replace(/ {2,}/g, ' ') : body;
  const spaced = segment.tightStops ? single.replace(new RegExp(SPACED_STOP.source, 'gu'), '') : single;
  return segment.leading + spaced.trim() + segment.trailing;
}
