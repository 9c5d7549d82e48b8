import { type Check, type Finding, wholeSegment } from '../finding.js';

/** When the source holds a glossary source term, the translation must hold its target term (case-insensitive). */
export const checkGlossary: Check = (input) => {
  const findings: Finding[] = [];
  const source = input.source.toLocaleLowerCase();
  const translation = input.translation.toLocaleLowerCase();
  for (const term of input.options.glossary ?? []) {
    if (!containsTerm(source, term.source.toLocaleLowerCase())) continue;
    if (containsTerm(translation, term.target.toLocaleLowerCase())) continue;
    findings.push(
      wholeSegment(
        input,
        'glossary_term',
        'major',
        `The glossary term "${term.source}" should be translated as "${term.target}".`,
      ),
    );
  }
  return findings;
};

/** Whether `text` holds `term` as whole words (no letter or digit right before or after it). */
function containsTerm(text: string, term: string): boolean {
  if (term === '') return false;
  let from = 0;
  while (true) {
    const index = text.indexOf(term, from);
    if (index < 0) return false;
    const before = text.slice(0, index).at(-1) ?? ' ';
    const after = text[index + term.length] ?? ' ';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    from = index + 1;
  }
}
