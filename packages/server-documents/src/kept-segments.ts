/**
 * The segments of a document every engine failed (kept in the source language: the chain's events, matched
 * to the chunk's units by `withKeptSegments`), per chunk as the chunk's checkpoint keeps them (by their
 * index in the chunk), and for the whole document as its status reports them (`glossa_kept_source`): how
 * many, and the first `MAX_DOCUMENT_KEPT_SEGMENTS` in the document's order, each with its position, its
 * source text and what each engine did wrong.
 */
import {
  type DocumentKeptSegment,
  type DocumentKeptSource,
  MAX_DOCUMENT_KEPT_SEGMENTS,
} from '@glossa/protocol';
import { decodeEntities, type KeptSource } from '@glossa/server/feature';

/**
 * The segments of one chunk every engine failed (kept in the source language): the first
 * `MAX_DOCUMENT_KEPT_SEGMENTS`, each by its index in the chunk (a chunk of the same units elsewhere in the
 * document names its own positions), and how many there were.
 */
export interface ChunkKept {
  readonly count: number;
  readonly segments: readonly {
    readonly index: number;
    readonly source: string;
    readonly attempts: KeptSource['attempts'];
  }[];
}

/** The longest `source` a kept segment is reported with (then cut, with `…`). */
const MAX_KEPT_SOURCE = 300;

/** A unit as a person reads it: code-form or HTML markup removed, entities decoded, spaces collapsed. */
function readable(unit: string, markup: boolean): string {
  const text = (markup ? decodeEntities(unit.replace(/<[^>]*>/g, '')) : unit).replace(/\s+/g, ' ').trim();
  const points = [...text];
  return points.length <= MAX_KEPT_SOURCE ? text : `${points.slice(0, MAX_KEPT_SOURCE - 1).join('')}…`;
}

/** A chunk's kept segments (by unit index in the chunk, ascending) as it keeps them. */
export function chunkKept(
  kept: ReadonlyMap<number, readonly KeptSource[]>,
  units: readonly string[],
  markup: boolean,
) {
  const indexes = [...kept.keys()].sort((a, b) => a - b);
  return {
    count: indexes.length,
    segments: indexes.slice(0, MAX_DOCUMENT_KEPT_SEGMENTS).map((index) => ({
      index,
      source: readable(units[index]!, markup),
      // One segment may hold several that every engine failed (it was cut further): each one's attempts.
      attempts: kept.get(index)!.flatMap((event) => event.attempts),
    })),
  };
}

/** A chunk's kept segments at their places in the document (`owners`: the chunk's [text, unit] pairs). */
export function placed(kept: ChunkKept, owners: readonly (readonly [number, number])[]) {
  return {
    count: kept.count,
    segments: kept.segments.flatMap((segment): DocumentKeptSegment[] => {
      const owner = owners[segment.index];
      if (!owner) return [];
      const attempts = segment.attempts.map(({ engine, problems }) => ({ engine, problems: [...problems] }));
      return [{ text_index: owner[0], segment_index: owner[1], source: segment.source, attempts }];
    }),
  };
}

/** The document's report: every chunk's count, and its first segments in the document's order. */
export function documentKept(
  found: { count: number; segments: DocumentKeptSegment[] }[],
): DocumentKeptSource {
  const segments = found
    .flatMap((chunk) => chunk.segments)
    .sort((a, b) => a.text_index - b.text_index || a.segment_index - b.segment_index)
    .slice(0, MAX_DOCUMENT_KEPT_SEGMENTS);
  return { count: found.reduce((sum, chunk) => sum + chunk.count, 0), segments };
}
