/**
 * termsInSources keeps every glossary term the glossary check can find (the answer with the kept terms is the
 * one every term gives), on random sources and terms built to meet at word edges: words that are prefixes of
 * others, capitals, punctuation inside terms, terms with no letter or digit, letters outside ASCII.
 */
import { evaluateSegments } from '@glossa/quality';
import { expect, it } from 'vitest';
import { random } from '../../server/test/test-utils.js';
import { termsInSources } from '../src/quality/terms-in-sources.js';

const PIECES = ['a', 'ab', 'abc', 'B', 'İ', 'é', '1', '-', '.', ' ', ' ', "'", '++', 'c#'];

it('keeps every term the glossary check finds, on 300 random glossaries and sources', () => {
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
    const kept = termsInSources(
      glossary.length,
      (index) => terms[index] as string,
      segments.map((s) => s.source),
    );
    const options = { sourceLang: 'en', targetLang: 'es' };
    const all = evaluateSegments(segments, { ...options, glossary });
    const some = evaluateSegments(segments, {
      ...options,
      glossary: glossary.filter((_, index) => kept.includes(index)),
    });
    expect(some).toEqual(all);
    found += all.flat().filter((issue) => issue.check === 'glossary_term').length;
    dropped += glossary.length - kept.length;
  }
  // The inputs meet often enough to test something, and the filter drops terms.
  expect(found).toBeGreaterThan(300);
  expect(dropped).toBeGreaterThan(1000);
});
