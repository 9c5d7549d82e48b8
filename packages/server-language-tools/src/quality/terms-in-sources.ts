/**
 * The glossary terms a quality evaluation can report (issue 31): those the glossary check
 * (`@glossa/quality`'s checkGlossary: lower-cased, as whole words) finds in some segment's source. They are
 * found by a `TermFinder` over the dictionary's source terms, built once per glossary version in the
 * server's cache of compiled glossaries (`glossaryDictionary`, under the memory budget) a slice of entries
 * per turn of the event loop; a request then walks its sources once, in turns of a few milliseconds, in
 * time linear in its text whatever the glossary's size (reading and scanning the whole dictionary per
 * request took 239–356 ms of the event loop for 160,000 terms and a 1 MB body).
 */
import { TermFinder } from '@glossa/quality';
import { type EntryList, inTurns, withMemory } from '@glossa/server/feature';

/** Entries added to a finder (~1 ms), and units of a source walked (~2 ms), between two looks at the clock. */
const ENTRIES_SLICE = 256;
const UNITS_SLICE = 4096;
/** Longest run on the event loop between two turns (ms). */
const TURN_MS = 4;

/**
 * What a finder over `count` terms with `stops` prefixes holds at most: its tables are sized to a power of
 * two at least twice their keys (4 bytes a prefix, 8 a term), and five ints a term. Measured: 15.1 MiB for
 * 160,000 terms of 6 prefixes each (this gives 22.6).
 */
const finderBytes = (count: number, stops: number) => 65_536 + 16 * stops + 52 * count;

/** Calls `step(from, to)` over [0, length) a slice at a time, in the spine's turns of the event loop. */
function inSlices(length: number, slice: number, step: (from: number, to: number) => void): Promise<void> {
  let from = 0;
  return inTurns(() => {
    if (from >= length) return false;
    const to = Math.min(length, from + slice);
    step(from, to);
    from = to;
    return from < length;
  }, TURN_MS);
}

/**
 * A finder over a dictionary's source terms in `lang` (the language they are lower-cased in, as the check
 * lower-cases them), built in turns of the event loop: the terms' prefixes counted first, so that its table
 * is sized once (not rehashed whole on the loop as it grows).
 */
export async function sourceTermFinder(entries: EntryList, lang?: string): Promise<TermFinder> {
  let stops = 0;
  await inSlices(entries.length, ENTRIES_SLICE, (from, to) => {
    for (let index = from; index < to; index++) stops += TermFinder.stopsOf(entries.source(index));
  });
  return withMemory('A glossary for quality evaluation', finderBytes(entries.length, stops), async () => {
    const finder = new TermFinder(entries.length, (index) => entries.source(index), 0, stops, lang);
    await inSlices(entries.length, ENTRIES_SLICE, (_, to) => finder.addUpTo(to));
    return finder;
  });
}

/** The indexes (ascending) of the terms `finder` finds in some of `sources`, walked in turns. */
export async function termsInSources(finder: TermFinder, sources: readonly string[]): Promise<number[]> {
  const found = new Map<number, number>();
  for (const source of sources) {
    const lower = finder.lower(source);
    await inSlices(lower.length, UNITS_SLICE, (from, to) => finder.find(lower, found, from, to));
  }
  const kept: number[] = [];
  for (const slot of found.keys()) finder.termsOf(slot, (index) => kept.push(index));
  return kept.sort((a, b) => a - b);
}
