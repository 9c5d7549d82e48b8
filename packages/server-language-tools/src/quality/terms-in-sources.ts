/**
 * Which of a glossary's source terms the glossary check (`@glossa/quality`'s checkGlossary: lower-cased, as
 * whole words) can find in some segment's source, in time linear in the terms plus the sources (issue 31: a
 * 160,000-entry glossary searched for in a 1 MiB body, term by term, held the event loop ~90 s).
 *
 * A term found as whole words has each of its runs of letters and digits as a whole word of the source: the
 * term's own other characters bound the runs inside it, the whole-word rule bounds the first and the last. So
 * a term can be found only if each of its runs is a word of the sources; a term with no letter or digit is
 * kept (the check itself decides). The terms kept are a superset of those the check finds, never fewer.
 */

/** A run of letters and digits, as checkGlossary's whole-word rule sees them. */
const WORD = /[\p{L}\p{N}]+/gu;

const wordsOf = (text: string) => Array.from(text.toLocaleLowerCase().matchAll(WORD), ([word]) => word);

/** The indexes (ascending) of the terms (`term(0)` … `term(count - 1)`) that the sources may hold. */
export function termsInSources(
  count: number,
  term: (index: number) => string,
  sources: readonly string[],
): number[] {
  // The terms' words first (bounded by the glossary, which the memory budget counts), then those of them
  // that some source holds: the sources' own words are never all kept.
  const termWords = new Set<string>();
  for (let index = 0; index < count; index++) for (const word of wordsOf(term(index))) termWords.add(word);
  const held = new Set<string>();
  for (const source of sources)
    for (const [word] of source.toLocaleLowerCase().matchAll(WORD)) if (termWords.has(word)) held.add(word);
  const kept: number[] = [];
  for (let index = 0; index < count; index++)
    if (wordsOf(term(index)).every((word) => held.has(word))) kept.push(index);
  return kept;
}
