/**
 * Issue 31: the glossary check finds its terms with `TermFinder` (linear in the segment) and reports exactly
 * what the search of the source once per term reported (kept below as it was), on random glossaries and
 * segments built to meet at word edges: prefixes of words, capitals, `İ` (two units in lower case), final
 * sigma, `_` and combining marks (not letters for the check), letters outside the BMP, punctuation inside
 * terms, terms with no letter, duplicates of one lower case, empty targets. And it does not grow with the
 * number of terms times the segments or the segment's length: it reads each term a bounded number of times
 * per evaluation, and its walks hash a bounded number of units per unit of text.
 */
import { describe, expect, it } from 'vitest';
import { checkGlossary } from '../src/checks/glossary.js';
import type { CheckInput, Finding } from '../src/finding.js';
import { evaluateSegments, type GlossaryTerm, TermFinder } from '../src/index.js';

/** The check as it was before issue 31 (one `indexOf` search per term and segment). */
function oldCheck(input: CheckInput): Finding[] {
  const findings: Finding[] = [];
  const source = input.source.toLowerCase();
  const translation = input.translation.toLowerCase();
  for (const term of input.options.glossary ?? []) {
    const at = termIndex(source, term.source.toLowerCase());
    if (at < 0) continue;
    if (termIndex(translation, term.target.toLowerCase()) >= 0) continue;
    findings.push({
      check: 'glossary_term',
      severity: 'major',
      message: `The glossary term "${term.source}" should be translated as "${term.target}".`,
      start: 0,
      end: input.translation.length,
      source: { start: at, end: at + term.source.length },
      absent: true,
    });
  }
  return findings;
}

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

let seed = 31;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const PIECES = [
  'a',
  'ab',
  'abc',
  'B',
  'AB',
  'İ',
  'i',
  'é',
  'e\u0301',
  '\u0301',
  'Σ',
  'σ',
  'ς',
  'ΟΣ',
  '_',
  '1',
  '-',
  '.',
  ' ',
  ' ',
  ' ',
  "'",
  '++',
  'c#',
  '𝐀',
  '😀',
  '中',
  '-a',
];
const text = (pieces: number) =>
  Array.from({ length: pieces }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
const input = (source: string, translation: string, glossary: readonly GlossaryTerm[]): CheckInput => ({
  source,
  translation,
  maskedSource: source,
  maskedTranslation: translation,
  options: { glossary },
});

describe('the glossary check', () => {
  it('reports what one search per term reported, on 500 random glossaries and segments', () => {
    let reported = 0;
    for (let round = 0; round < 500; round++) {
      const glossary = Array.from({ length: 1 + Math.floor(random() * 40) }, () => ({
        source: random() < 0.05 ? '' : text(1 + Math.floor(random() * 4)),
        target: random() < 0.05 ? '' : text(1 + Math.floor(random() * 3)),
      }));
      for (let segment = 0; segment < 3; segment++) {
        const given = input(text(14), text(10), glossary);
        const expected = oldCheck(given);
        expect(checkGlossary(given), JSON.stringify(given)).toEqual(expected);
        reported += expected.length;
      }
    }
    // The inputs meet often enough to test something.
    expect(reported).toBeGreaterThan(1000);
  });

  it('reads each term a bounded number of times per evaluation, whatever the number of segments', () => {
    let reads = 0;
    const glossary = Array.from({ length: 2000 }, (_, i) => ({
      get source() {
        reads++;
        return `term${i}`;
      },
      target: `objetivo${i}`,
    }));
    const segments = Array.from({ length: 200 }, (_, i) => ({
      source: `Here term${i} and term${i + 1000}.`,
      translation: `Aquí objetivo${i}.`,
    }));
    const issues = evaluateSegments(segments, { glossary }).flat();
    expect(issues.filter((issue) => issue.check === 'glossary_term')).toHaveLength(200);
    // One search per term and segment read the terms 200 × 2000 times; the finder reads each once to
    // add it, once more per place it is verified at, and once per issue's message and span.
    expect(reads).toBeLessThan(3 * glossary.length + 10 * segments.length);
  });

  it('hashes a number of units linear in the text, with many terms found late in a long segment', () => {
    const steps = (terms: number) => {
      const glossary = Array.from({ length: terms }, (_, i) => ({ source: `word${i}`, target: `x${i}` }));
      const finder = TermFinder.of(glossary, (term) => term.source);
      const text = `${'filler '.repeat(10 * terms)}${glossary.map((term) => term.source).join(' ')}`;
      const found = finder.find(text, new Map());
      expect(found.size).toBe(terms);
      return { steps: finder.steps, length: text.length };
    };
    const small = steps(1000);
    const large = steps(8000);
    // A search per term would hash (or compare) about terms × length units: 8 × 8 more for the large one.
    expect(small.steps).toBeLessThan(2 * small.length);
    expect(large.steps).toBeLessThan(2 * large.length);
  });
});
