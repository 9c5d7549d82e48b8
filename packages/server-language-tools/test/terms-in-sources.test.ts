/**
 * termsInSources keeps every glossary term the glossary check can find (the answer with the kept terms is the
 * one every term gives) and no other, on random sources and terms built to meet at word edges: words that are
 * prefixes of others, capitals, `İ` (two units in lower case), final sigma, `_` and combining marks,
 * punctuation inside terms, terms with no letter or digit, letters outside ASCII and the BMP, duplicates of
 * one lower case. The finder is built as the route builds it (`sourceTermFinder`, in turns).
 */
import { evaluateSegments } from '@glossa/quality';
import { expect, it } from 'vitest';
import { random } from '../../server/test/test-utils.js';
import { sourceTermFinder, termsInSources } from '../src/quality/terms-in-sources.js';

const PIECES = [
  ...['a', 'ab', 'abc', 'B', 'AB', 'İ', 'i', 'é', 'e\u0301', 'Σ', 'ς', 'ΟΣ', '_', '1', '-', '.', ' ', ' '],
  ...["'", '++', 'c#', '𝐀', '中'],
];

it('keeps the terms the glossary check finds, on 300 random glossaries and sources', async () => {
  const next = random(31);
  const text = (pieces: number) =>
    Array.from({ length: pieces }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
  let found = 0;
  let dropped = 0;
  for (let round = 0; round < 300; round++) {
    const segments = Array.from({ length: 3 }, () => ({ source: text(12), translation: 'zz' }));
    const terms = [...new Set(Array.from({ length: 40 }, () => text(1 + Math.floor(next() * 4))))].filter(
      (term) => term.trim() !== '',
    );
    const glossary = terms.map((source) => ({ source, target: 'x' }));
    const finder = await sourceTermFinder({
      length: glossary.length,
      source: (index) => glossary[index]!.source,
      target: (index) => glossary[index]!.target,
    });
    const kept = await termsInSources(
      finder,
      segments.map((s) => s.source),
    );
    const options = { sourceLang: 'en', targetLang: 'es' };
    const all = evaluateSegments(segments, { ...options, glossary });
    const some = evaluateSegments(segments, {
      ...options,
      glossary: glossary.filter((_, index) => kept.includes(index)),
    });
    expect(some).toEqual(all);
    // Exactly the terms the check reports (every target is missing): each alone gives an issue.
    const reported = glossary.flatMap((term, index) =>
      evaluateSegments(segments, { ...options, glossary: [term] })
        .flat()
        .some((issue) => issue.check === 'glossary_term')
        ? [index]
        : [],
    );
    expect(kept).toEqual(reported);
    found += all.flat().filter((issue) => issue.check === 'glossary_term').length;
    dropped += glossary.length - kept.length;
  }
  // The inputs meet often enough to test something, and most terms are dropped.
  expect(found).toBeGreaterThan(300);
  expect(dropped).toBeGreaterThan(1000);
});
