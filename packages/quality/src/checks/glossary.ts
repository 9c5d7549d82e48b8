import { type Check, type Finding, wholeSegment } from '../finding.js';
import { TermFinder } from '../terms.js';
import type { GlossaryTerm } from '../types.js';

/** The finders of a glossary's source and target terms, built once for all the segments given it. */
const finders = new WeakMap<readonly GlossaryTerm[], { sources: TermFinder; targets: TermFinder }>();

/**
 * When the source holds a glossary source term, the translation must hold its target term (case-insensitive,
 * as whole words: no letter or digit right before or after). The terms are found by `TermFinder`, in time
 * linear in the segment whatever the number of terms (issue 31: one search of the source per term was
 * quadratic for a long segment holding many terms); the findings are in the glossary's order.
 */
export const checkGlossary: Check = (input) => {
  const glossary = input.options.glossary ?? [];
  if (glossary.length === 0) return [];
  let finder = finders.get(glossary);
  if (!finder) {
    finder = {
      sources: TermFinder.of(glossary, (term) => term.source),
      targets: TermFinder.of(glossary, (term) => term.target),
    };
    finders.set(glossary, finder);
  }
  const found = finder.sources.find(input.source.toLocaleLowerCase(), new Map());
  if (found.size === 0) return [];
  const translated = finder.targets.find(input.translation.toLocaleLowerCase(), new Map());
  const places: { index: number; at: number }[] = [];
  for (const [slot, at] of found) finder.sources.termsOf(slot, (index) => places.push({ index, at }));
  places.sort((a, b) => a.index - b.index);
  const findings: Finding[] = [];
  for (const { index, at } of places) {
    const term = glossary[index]!;
    if (translated.has(finder.targets.slotOf(index))) continue;
    findings.push(
      wholeSegment(
        input,
        'glossary_term',
        'major',
        `The glossary term "${term.source}" should be translated as "${term.target}".`,
        { source: { start: at, end: at + term.source.length }, absent: true },
      ),
    );
  }
  return findings;
};
