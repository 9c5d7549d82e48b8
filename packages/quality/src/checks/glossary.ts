import { caseLanguage } from '../case.js';
import { type Check, type Finding, wholeSegment } from '../finding.js';
import { TermFinder } from '../terms.js';
import type { GlossaryTerm } from '../types.js';

interface Finders {
  readonly sources: TermFinder;
  readonly targets: TermFinder;
}
/**
 * The finders of a glossary's source and target terms, built once for all the segments given it, by the
 * languages they are lower-cased in (`caseLanguage` of the source and target languages).
 */
const finders = new WeakMap<readonly GlossaryTerm[], Map<string, Finders>>();

/**
 * When the source holds a glossary source term, the translation must hold its target term (case-insensitive
 * in the source's and the target's language, whatever the process's locale; as whole words: no letter or digit right before or after). The terms are found by `TermFinder`, in time
 * linear in the segment whatever the number of terms (issue 31: one search of the source per term was
 * quadratic for a long segment holding many terms); the findings are in the glossary's order.
 */
export const checkGlossary: Check = (input) => {
  const glossary = input.options.glossary ?? [];
  if (glossary.length === 0) return [];
  const { sourceLang, targetLang } = input.options;
  let byLanguages = finders.get(glossary);
  if (!byLanguages) {
    byLanguages = new Map();
    finders.set(glossary, byLanguages);
  }
  const languages = `${caseLanguage(sourceLang)} ${caseLanguage(targetLang)}`;
  let finder = byLanguages.get(languages);
  if (!finder) {
    finder = {
      sources: TermFinder.of(glossary, (term) => term.source, sourceLang),
      targets: TermFinder.of(glossary, (term) => term.target, targetLang),
    };
    byLanguages.set(languages, finder);
  }
  const found = finder.sources.find(finder.sources.lower(input.source), new Map());
  if (found.size === 0) return [];
  const translated = finder.targets.find(finder.targets.lower(input.translation), new Map());
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
