/**
 * What an import hands to the memory stores, wherever it runs (the event loop, an import's thread, PostgreSQL):
 * a segment's texts and the posting lists' rows (see `store.ts` for how lookups read them).
 */
import { indexTokens } from './tagged-lookup.js';

/** A segment's texts; `sourceTagged`/`tagged`: the normalized form of a text with inline codes. */
export interface SegmentInput {
  readonly source: string;
  readonly sourceTagged?: string;
  readonly targets: readonly { readonly language: string; readonly text: string; readonly tagged?: string }[];
}

export const TOKEN_SEPARATOR = '\u0001';

/** Segment ids per posting row: a lookup reads a long list only as far as its budget goes. */
export const POSTING_CHUNK = 1000;
/** Posting lists whose last rows `finish` writes per transaction. */
export const REST_LISTS = 200;
/**
 * The key of row `chunk` of a token's posting list: the token itself for the first (whose `segments` is
 * the length of the whole list), then the token, U+0001 and the row's number. No token holds U+0001 next
 * to another character (a token of several characters is letters, digits and marks), so keys never meet.
 */
export const postingKey = (gram: string, chunk: number) =>
  chunk === 0 ? gram : `${gram}${TOKEN_SEPARATOR}${chunk}`;

/**
 * An import's posting lists while it runs. A list's rows of `POSTING_CHUNK` ids are handed out as they fill
 * (`takeFull`), so at most `POSTING_CHUNK` − 1 ids per token wait for the end of the import (`takeRest`):
 * the ids held grow with the memory's vocabulary, not with its size. The first row of a list written
 * early carries `POSTING_CHUNK` as its count until `takeRest` gives the list's total.
 */
export class PendingPostings {
  private readonly lists = new Map<string, { ids: number[]; rows: number; total: number }>();
  private full: [string, number, string][] = [];
  /** Ids held, not yet in a row (for tests). */
  held = 0;

  add(id: number, tokens: readonly string[], sourceTagged: string | undefined): void {
    const grams = new Set(tokens);
    if (sourceTagged !== undefined) for (const gram of indexTokens(sourceTagged)) grams.add(gram);
    for (const gram of grams) {
      let list = this.lists.get(gram);
      if (!list) {
        list = { ids: [], rows: 0, total: 0 };
        this.lists.set(gram, list);
      }
      list.ids.push(id);
      list.total++;
      this.held++;
      if (list.ids.length === POSTING_CHUNK) {
        this.full.push([postingKey(gram, list.rows), POSTING_CHUNK, JSON.stringify(list.ids)]);
        list.rows++;
        list.ids = [];
        this.held -= POSTING_CHUNK;
      }
    }
  }

  /** The rows filled since the last call. */
  takeFull(): [string, number, string][] {
    const rows = this.full;
    this.full = [];
    return rows;
  }

  /**
   * The rows left at the end of the import, and the total of each list whose first row is written: every
   * list's, or (`maxLists`) the next lists' only, `done` once none is left.
   */
  takeRest(maxLists = Number.POSITIVE_INFINITY): {
    rows: [string, number, string][];
    totals: [string, number][];
    done: boolean;
  } {
    const rows = this.takeFull();
    const totals: [string, number][] = [];
    let taken = 0;
    for (const [gram, list] of this.lists) {
      if (taken++ === maxLists) break;
      if (list.rows === 0) rows.push([gram, list.total, JSON.stringify(list.ids)]);
      else {
        if (list.ids.length > 0)
          rows.push([postingKey(gram, list.rows), list.ids.length, JSON.stringify(list.ids)]);
        totals.push([gram, list.total]);
      }
      this.held -= list.ids.length;
      this.lists.delete(gram);
    }
    return { rows, totals, done: this.lists.size === 0 };
  }
}
