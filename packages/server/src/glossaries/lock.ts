/**
 * Locks glossary terms before the engine and puts the target terms in after it. Each matched source term
 * stays in the engine's input inside a paired code, `<g id="N">file</g>` (the code form of `engine.ts`), so
 * the engine translates the sentence around it as it should (articles, agreement, capitals: Apertium keeps
 * the code on the term's words); afterwards each code and whatever the engine put in it become the target
 * term. Matchers apply in order: the first one locks its matches, the next ones only see the text left
 * between them.
 */
import { decodeEntities, escapeText } from '../translate/markup-parse.js';
import type { Agreement, TermOccurrence } from './agreement.js';
import type { TermMatcher } from './matcher.js';

type Segment =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'raw'; readonly text: string }
  | { readonly kind: 'term'; readonly id: number; readonly source: string; readonly target: string };

export interface LockedUnit {
  /** The engine's input, in code form. */
  readonly text: string;
  /** Whether any term was locked. */
  readonly locked: boolean;
  /** The locked terms in the engine's `output`: its readings of them, their targets, the text after each. */
  occurrences(output: string): TermOccurrence[];
  /**
   * The final unit (code form when the input was markup, else plain text) from the engine's output;
   * `agreement` fixes the words next to each term to agree with its target.
   */
  unlock(output: string, agreement?: Agreement): string;
}

/** A term's code with what the engine made of the term inside; an engine may also return it as `<x/>`. */
const TERM_CODE = /<g id="(\d+)">((?:(?!<g[ >])[\s\S])*?)<\/g>|<x id="(\d+)"\/>/g;

const TAG = /<[^>]*>/g;
const CODE_ID = /<(?:g|x) id="(\d+)"/g;
const LETTER = /\p{L}/u;

function initialSegments(unit: string, markup: boolean): Segment[] {
  if (!markup) return [{ kind: 'text', text: unit }];
  const segments: Segment[] = [];
  let last = 0;
  for (const match of unit.matchAll(TAG)) {
    if (match.index > last)
      segments.push({ kind: 'text', text: decodeEntities(unit.slice(last, match.index)) });
    segments.push({ kind: 'raw', text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < unit.length) segments.push({ kind: 'text', text: decodeEntities(unit.slice(last)) });
  return segments;
}

/** The word right after a term (only spaces between): the one that may have to agree with it. */
const NEXT_WORD = /^\s+(\p{L}+)/u;

/** The engine's text inside a term's code, as plain text. */
const reading = (inner: string) => decodeEntities(inner.replace(TAG, ''));

/** The case of the sentence's first letter, given to a term that the engine put first in its output. */
function sentenceCase(term: string, sourceUnit: string): string {
  const first = LETTER.exec(sourceUnit.replace(TAG, ''))?.[0];
  if (!first || first === first.toLowerCase()) return term;
  const letter = LETTER.exec(term);
  if (!letter) return term;
  return term.slice(0, letter.index) + letter[0].toUpperCase() + term.slice(letter.index + letter[0].length);
}

/**
 * `unit` is plain text (`markup` false) or code form (`markup` true). The result's `text` is always code
 * form: plain text is escaped so that the engine can run in markup mode.
 */
export function lockTerms(unit: string, markup: boolean, matchers: readonly TermMatcher[]): LockedUnit {
  let segments = initialSegments(unit, markup);
  let nextId = 1;
  for (const match of unit.matchAll(CODE_ID)) nextId = Math.max(nextId, Number(match[1]) + 1);
  const firstId = nextId;
  for (const matcher of matchers) {
    const next: Segment[] = [];
    for (const segment of segments) {
      if (segment.kind !== 'text') {
        next.push(segment);
        continue;
      }
      let last = 0;
      for (const match of matcher.find(segment.text)) {
        if (match.start > last) next.push({ kind: 'text', text: segment.text.slice(last, match.start) });
        next.push({
          kind: 'term',
          id: nextId++,
          source: segment.text.slice(match.start, match.end),
          target: match.target,
        });
        last = match.end;
      }
      if (last < segment.text.length) next.push({ kind: 'text', text: segment.text.slice(last) });
    }
    segments = next;
  }
  const terms = new Map<number, string>();
  for (const segment of segments) if (segment.kind === 'term') terms.set(segment.id, segment.target);
  const text = segments
    .map((segment) =>
      segment.kind === 'text'
        ? escapeText(segment.text)
        : segment.kind === 'raw'
          ? segment.text
          : `<g id="${segment.id}">${escapeText(segment.source)}</g>`,
    )
    .join('');

  return {
    text,
    locked: terms.size > 0,
    occurrences(output) {
      const found: TermOccurrence[] = [];
      for (const match of output.matchAll(TERM_CODE)) {
        const target = match[2] === undefined ? undefined : terms.get(Number(match[1]));
        if (target === undefined) continue;
        const end = match.index + match[0].length;
        const next = NEXT_WORD.exec(output.slice(end, end + 100))?.[1]?.toLowerCase();
        found.push({ reading: reading(match[2]!), target, next });
      }
      return found;
    },
    unlock(output, agreement) {
      const used = new Set<number>();
      let result = '';
      let last = 0;
      /** The term placed last, whose following words may have to agree with it. */
      let previous: { reading: string; target: string } | undefined;
      const plainPiece = (piece: string) => {
        const plain = markup ? piece : decodeEntities(piece.replace(TAG, ''));
        const agreed =
          agreement && previous ? agreement.after(plain, previous.reading, previous.target) : plain;
        previous = undefined;
        return agreed;
      };
      for (const match of output.matchAll(TERM_CODE)) {
        const id = Number(match[1] ?? match[3]);
        if (id < firstId || !terms.has(id)) continue;
        result += plainPiece(output.slice(last, match.index));
        last = match.index + match[0].length;
        // The term's words split in two by the engine: its target goes where the first part was.
        if (used.has(id)) continue;
        used.add(id);
        const target = terms.get(id)!;
        if (agreement && match[2] !== undefined) {
          previous = { reading: reading(match[2]), target };
          result = agreement.before(result, previous.reading, target);
        }
        const placed = LETTER.test(result.replace(TAG, '')) ? target : sentenceCase(target, unit);
        result += markup ? escapeText(placed) : placed;
      }
      result += plainPiece(output.slice(last));
      // A term the engine lost is appended rather than dropped.
      for (const [id, target] of terms) {
        if (!used.has(id))
          result += `${/\s$/.test(result) || result === '' ? '' : ' '}${markup ? escapeText(target) : target}`;
      }
      return result;
    },
  };
}
