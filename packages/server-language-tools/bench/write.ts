/**
 * Correction precision and recall of `/v2/write/correct`'s engines on labelled sets (bench/data): hand-written
 * flawed English and French sentences, and one seeded typo per clean German, Spanish, Italian and Portuguese
 * sentence. Baseline, same run: the same checker applying every first suggestion, without the confidence
 * rules. Also how many clean sentences come back unchanged (false alarms).
 * Run: pnpm bench (or npx tsx --conditions @glossa/source bench/write.ts).
 */
import { applyEdits, type Edit } from '../src/write/edits.js';
import { correctEnglish } from '../src/write/english.js';
import { correctFrench } from '../src/write/french.js';
import { checkFrench, closeGrammalecte } from '../src/write/grammalecte.js';
import { lintEnglish } from '../src/write/harper.js';
import { checkWords, closeHunspell } from '../src/write/hunspell.js';
import { correctSpelling } from '../src/write/spelling.js';
import { type LabelledSentence, readPairs, seededTypos } from './write-data.js';
import { addSentence, describe, emptyScore } from './write-metrics.js';

type Corrector = (text: string) => Promise<string>;

async function naiveEnglish(text: string): Promise<string> {
  const lints = await lintEnglish(text, 'en-US');
  return applyEdits(
    text,
    lints.flatMap((lint): Edit[] => {
      const s = lint.suggestions[0];
      if (!s) return [];
      if (s.kind === 'insert_after') return [{ start: lint.end, end: lint.end, replacement: s.text }];
      return [{ start: lint.start, end: lint.end, replacement: s.kind === 'remove' ? '' : s.text }];
    }),
  );
}

async function naiveFrench(text: string): Promise<string> {
  const { grammar, spelling } = await checkFrench(text);
  return applyEdits(
    text,
    [...grammar, ...spelling].flatMap((e) =>
      e.suggestions[0] ? [{ start: e.start, end: e.end, replacement: e.suggestions[0] }] : [],
    ),
  );
}

function naiveHunspell(language: string): Corrector {
  return async (text) => {
    const words = [...text.matchAll(/[\p{L}\p{M}]+/gu)];
    const checks = await checkWords(
      language,
      words.map((w) => w[0]),
    );
    const edits: Edit[] = [];
    checks.forEach((check, index) => {
      const match = words[index]!;
      if (check.correct || !check.suggestions[0]) return;
      const start = [...text.slice(0, match.index)].length;
      edits.push({ start, end: start + [...match[0]].length, replacement: check.suggestions[0] });
    });
    return applyEdits(text, edits);
  };
}

async function measure(label: string, set: LabelledSentence[], ours: Corrector, naive: Corrector) {
  const score = emptyScore();
  const baseline = emptyScore();
  let cleanKept = 0;
  let cleanTotal = 0;
  const started = performance.now();
  for (const { flawed, expected } of set) {
    addSentence(score, flawed, expected, await ours(flawed));
    addSentence(baseline, flawed, expected, await naive(flawed));
  }
  const elapsed = performance.now() - started;
  const clean = [...new Set(set.map((item) => item.expected))];
  for (const sentence of clean) {
    cleanTotal++;
    if ((await ours(sentence)) === sentence) cleanKept++;
  }
  const precisionRatio =
    score.made && baseline.made
      ? (score.correct / score.made / (baseline.correct / baseline.made)).toFixed(2)
      : 'n/a';
  console.log(`${label}: ${set.length} flawed sentences`);
  console.log(`  ours:     ${describe(score)}`);
  console.log(`  baseline: ${describe(baseline)} (every first suggestion)`);
  console.log(
    `  precision ratio ours/baseline ${precisionRatio}; clean sentences unchanged ${cleanKept}/${cleanTotal}; ${(elapsed / set.length / 2).toFixed(1)} ms per sentence`,
  );
}

await measure(
  'en-US (Harper + agreement rules)',
  readPairs('correct-en.tsv'),
  (t) => correctEnglish(t, 'en-US'),
  naiveEnglish,
);
await measure('fr (Grammalecte)', readPairs('correct-fr.tsv'), correctFrench, naiveFrench);
for (const [language, file] of [
  ['de', 'clean-de.txt'],
  ['es', 'clean-es.txt'],
  ['it', 'clean-it.txt'],
  ['pt-BR', 'clean-pt.txt'],
] as const) {
  const set = await seededTypos(file, language);
  await measure(
    `${language} (Hunspell, seeded typos)`,
    set,
    (t) => correctSpelling(t, language),
    naiveHunspell(language),
  );
}
closeHunspell();
closeGrammalecte();
process.exit(0);
