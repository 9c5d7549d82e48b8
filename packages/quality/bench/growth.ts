/**
 * Growth benchmark, dimension "quality segment length" (issue 31): one segment's evaluation
 * (`evaluateSegmentsDetailed`, every check, a spelling check that rejects half the words) for translations
 * doubled from 6,250 to 100,000 characters, in shapes that were quadratic before (English prose with an
 * issue per word, markup, e-mail addresses, one long word), and a segment made of glossary terms with as many
 * terms (length / 16) in the glossary, none translated (the glossary check). Prints the time per size and the fitted exponent
 * (log-log least squares; ≤ 1.15 is linear enough), with the baseline of the same run: 1.0, the exponent of
 * a pass that only reads the text once (`toLowerCase`).
 *   pnpm --filter @glossa/quality bench
 */
import { evaluateSegmentsDetailed } from '../src/index.js';
import { growthExponent } from './exponent.js';

const repeat = (unit: string, length: number) =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const SHAPES: Record<string, (length: number) => [string, string]> = {
  'english prose': (n) => [
    repeat('Der schnelle braune Fuchs. ', n),
    repeat('The quick brown fox jumps. ', n),
  ],
  markup: (n) => [repeat('<b>x</b> {{a}} %s ', n), repeat('<i>y</i> {{b}} %d ', n)],
  'e-mail addresses': (n) => [repeat('x@y.zz ', n), repeat('x@y.ww ', n)],
  'one long word': (n) => ['a', 'b'.repeat(n)],
};
const sizes = [6_250, 12_500, 25_000, 50_000, 100_000];
const best = (run: () => void) => {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
};
const spelling = (word: string) => word.length % 2 === 0;
console.log(`translation length: ${sizes.join(', ')} characters (best of 3, ms)`);
for (const [name, shape] of Object.entries(SHAPES)) {
  const times = sizes.map((size) => {
    const [source, translation] = shape(size);
    return best(() =>
      evaluateSegmentsDetailed([{ source, translation }], { sourceLang: 'de', targetLang: 'en', spelling }),
    );
  });
  console.log(
    `${name.padEnd(18)} ${times.map((time) => time.toFixed(1).padStart(8)).join(' ')}   exponent ${growthExponent(sizes, times).toFixed(2)}`,
  );
}
// The glossary check (issue 31): a segment made of glossary terms, none translated, with as many terms in
// the glossary (all found, all reported) as the segment holds: one search per term was quadratic here.
const glossaryOf = (size: number) =>
  Array.from({ length: Math.ceil(size / 16) }, (_, i) => ({
    source: `term ${i.toString(36)} x`,
    target: `t${i}`,
  }));
const glossaryTime = (size: number) => {
  const glossary = glossaryOf(size);
  const source = glossary.map((term) => term.source).join('. ');
  return best(() =>
    evaluateSegmentsDetailed([{ source, translation: repeat('Nada aquí. ', source.length) }], {
      sourceLang: 'en',
      targetLang: 'es',
      // A new array each time: the check's finders are built once per glossary array.
      glossary: [...glossary],
    }),
  );
};
// Once to warm the JIT up (the smallest size measured cold was slower than the next one).
sizes.forEach(glossaryTime);
const glossaryTimes = sizes.map(glossaryTime);
console.log(
  `${'glossary terms'.padEnd(18)} ${glossaryTimes.map((time) => time.toFixed(1).padStart(8)).join(' ')}   exponent ${growthExponent(sizes, glossaryTimes).toFixed(2)}   (segment length with as many kept terms: length / 16)`,
);
const baseline = sizes.map((size) => best(() => repeat('The quick brown fox. ', size * 20).toLowerCase()));
console.log(`baseline (one pass over the text) exponent ${growthExponent(sizes, baseline).toFixed(2)}`);
