/**
 * Memory lookup for a markup unit with inline codes. The unit and the segments with codes are compared
 * in their match form (text with one mark per code, see `inline-codes.ts`) with the usual score; only
 * segments with the same code structure (number, kinds and nesting of codes, by order) are candidates, and
 * a match needs a target whose codes map one to one onto the unit's.
 *
 * Candidates come from the postings. A code inside a word glues two tokens into one in the plain text
 * (`Re<br>load` is `reload`), so a segment with codes is also indexed under the tokens of its text cut
 * at its codes (`re`, `load`; see `indexTokens`), and a unit is looked up by those. A segment scoring at
 * least t then lacks at most D = ⌊n(100 − t)/t⌋ of them (n tokens in match form, marks included), as in a
 * plain lookup; its plain token count is between ⌈nt/100⌉ − 2m and ⌊100n/t⌋ − m for m marks. No match
 * above t is missed while those lists fit the lookup's candidate budget (see store.ts).
 */
import { matchForm, type Piece, parseRequestUnit, parseStored, rebuildTarget } from './inline-codes.js';
import { exactKey, matchScore, tokenize } from './score.js';

export interface TaggedRow {
  id: number;
  source_tagged: string;
}
type Scored = { id: number; source: Piece[]; score: number };

export interface TaggedMatch {
  readonly segmentId: number;
  readonly score: number;
  /** The target in the engine's code form, with the unit's code ids. */
  readonly target: string;
  /** The segment's source text without its codes (what a fuzzy match's differences are taken from). */
  readonly source: string;
}

const isMark = (token: string) => token.length === 1 && token >= '\uE001' && token <= '\uE003';

/** The tokens of a stored tagged text cut at its codes (indexed beside its plain tokens). */
export function indexTokens(stored: string): string[] {
  return tokenize(matchForm(parseStored(stored)).text).filter((token) => !isMark(token));
}

/** What a tagged lookup reads from the memory's backend (SQLite or PostgreSQL). */
export interface TaggedRows {
  /** Segments with codes whose exact key is `key` (at most 50). */
  exactTagged(memoryId: string, key: string): Promise<TaggedRow[]>;
  /** Segments with codes among `ids` whose token count is in [min, max] (a bounded number). */
  taggedCandidates(ids: readonly number[], min: number, max: number): Promise<TaggedRow[]>;
  /** The segment's targets with codes, in order. */
  taggedTargets(segmentId: number): Promise<{ language: string; tagged: string }[]>;
}

export function createTaggedLookup(
  rows: TaggedRows,
  prefixCandidates: (
    memoryId: string,
    tokens: readonly string[],
    allowed: number,
  ) => Promise<{ ids: number[]; read: number }>,
  onLookupWork?: (work: { postingIds: number; candidates: number }) => void,
) {
  return async function lookupTagged(
    memoryId: string,
    unit: string,
    language: string,
    threshold: number,
  ): Promise<TaggedMatch | undefined> {
    const request = parseRequestUnit(unit);
    const form = matchForm(request.pieces);
    const tokens = tokenize(form.text);
    const scoreOf = (row: TaggedRow): Scored | undefined => {
      const source = parseStored(row.source_tagged);
      const candidate = matchForm(source);
      if (candidate.structure !== form.structure) return undefined;
      const score = matchScore(form.text, tokens, candidate.text, tokenize(candidate.text));
      return { id: row.id, source, score };
    };
    const answer = async (scored: readonly Scored[]) => {
      for (const { id, source, score } of scored) {
        for (const target of await rows.taggedTargets(id)) {
          if (target.language !== language) continue;
          const text = rebuildTarget(parseStored(target.tagged), source, request.ids);
          if (text !== undefined)
            return { segmentId: id, score, target: text, source: matchForm(source).plain };
        }
      }
      return undefined;
    };
    const exact = (await rows.exactTagged(memoryId, exactKey(form.plain)))
      .map(scoreOf)
      .filter((candidate): candidate is Scored => candidate?.score === 100);
    const exactMatch = await answer(exact);
    if (exactMatch || threshold >= 100) return exactMatch;

    const marks = form.structure.length;
    const t = Math.max(threshold, 1);
    const allowed = Math.floor((tokens.length * (100 - t)) / t);
    const { ids, read } = await prefixCandidates(
      memoryId,
      tokens.filter((token) => !isMark(token)),
      allowed,
    );
    const minTokens = Math.ceil((tokens.length * t) / 100) - 2 * marks;
    const maxTokens = Math.floor((tokens.length * 100) / t) - marks;
    const candidates = ids.length === 0 ? [] : await rows.taggedCandidates(ids, minTokens, maxTokens);
    onLookupWork?.({ postingIds: read, candidates: candidates.length });
    const scored = candidates
      .map(scoreOf)
      .filter((candidate): candidate is Scored => candidate !== undefined && candidate.score >= threshold)
      .sort((a, b) => b.score - a.score || a.id - b.id);
    return answer(scored);
  };
}
