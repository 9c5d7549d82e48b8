import { type Check, type Finding, wholeSegment } from '../finding.js';

/** When the source holds a glossary source term, the translation must hold its target term (case-insensitive). */
export const checkGlossary: Check = (input) => {
  const findings: Finding[] = [];
  const source = input.source.toLocaleLowerCase();
  const translation = input.translation.toLocaleLowerCase();
  for (const term of input.options.glossary ?? []) {
    const at = termIndex(source, term.source.toLocaleLowerCase());
    if (at < 0) continue;
    if (termIndex(translation, term.target.toLocaleLowerCase()) >= 0) continue;
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

/** Where `text` holds `term` as whole words (no letter or digit right before or after it), or -1. */
function termIndex(text: string, term: string): number {
  if (term === '') return -1;
  let from = 0;
  while (true) {
    const index = text.indexOf(term, from);
    if (index < 0) return -1;
    const before = text[index - 1] ?? ' ';
    const after = text[index + term.length] ?? ' ';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return index;
    from = index + 1;
  }
}
