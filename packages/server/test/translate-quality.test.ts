/**
 * Issue 21: chrF of en → es translations with and without a glossary and a translation memory, on 200
 * sentences of Debian's Spanish gettext catalogues against their own translations (bench/data, sources and
 * licences in its README), through real servers with Apertium. With a memory, never lower than without.
 */
import { describe, expect, it } from 'vitest';
import { chrF, measure, type QualityFigures } from '../bench/translate-quality.js';

describe('chrF with and without a glossary and a memory (Debian catalogues, en → es)', () => {
  it('chrF is sacreBLEU’s chrF2: identical text 100, nothing in common 0', () => {
    expect(chrF(['El archivo está listo.'], ['El archivo está listo.'])).toBeCloseTo(100);
    expect(chrF(['xyz'], ['abc'])).toBe(0);
    expect(chrF(['El archivo'], ['El archivo está listo.'])).toBeLessThan(
      chrF(['El archivo está'], ['El archivo está listo.']),
    );
  });

  it('a memory never lowers chrF, overall or for any sentence; the glossary raises it where its terms are', async () => {
    const figures: QualityFigures = await measure();
    const chrf = figures.chrf;
    expect(figures.sentences).toBe(200);
    expect(chrf.memory!).toBeGreaterThanOrEqual(chrf['engine alone']!);
    expect(chrf['memory + glossary']!).toBeGreaterThanOrEqual(chrf.glossary!);
    expect(figures.memoryWorse).toBe(0);
    expect(figures.memoryUsed).toBeGreaterThan(0);
    // Pasting fuzzy matches (before) made some sentences worse, e.g. "SELinux is enabled" → "desactivado".
    expect(figures.memoryWorseBefore).toBeGreaterThan(0);
    const terms = figures.chrfTermSentences;
    expect(terms.glossary!).toBeGreaterThan(terms['engine alone']!);
    expect(terms.glossary!).toBeGreaterThanOrEqual(terms['glossary, before (locked terms)']!);
  }, 240_000);
});
