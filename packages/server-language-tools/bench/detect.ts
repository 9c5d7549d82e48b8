/**
 * Language detection accuracy and speed on the labelled sets in bench/data (short texts under 40 characters,
 * medium texts, and texts in no supported language). Baseline: eld restricted to our languages alone, run on
 * the same texts in the same run. Run: pnpm bench (or npx tsx --conditions @glossa/source bench/detect.ts).
 */
import { readFileSync } from 'node:fs';
import { DETECTION_LANGUAGES } from '@glossa/protocol';
import { eld } from 'eld/large';
import { createLanguageDetector } from '../src/detect/detector.js';

function readSet(name: string): { label: string; text: string }[] {
  return readFileSync(new URL(`data/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [label, text] = line.split('\t') as [string, string];
      return { label, text };
    });
}

const detector = await createLanguageDetector();
const baseline = eld.newInstance();
baseline.setLanguageSubset(DETECTION_LANGUAGES.map((code) => (code === 'nb' ? 'no' : code)));

for (const name of ['detect-short.tsv', 'detect-medium.tsv']) {
  const set = readSet(name);
  let correct = 0;
  let wrong = 0;
  let baselineCorrect = 0;
  const misses: string[] = [];
  for (const { label, text } of set) {
    const result = detector.detect(text);
    if (result.detection_status === 'success' && result.detected_language === label) correct++;
    else {
      if (result.detection_status === 'success') wrong++;
      misses.push(
        `${label}→${result.detection_status === 'success' ? result.detected_language : result.detection_status}: ${text}`,
      );
    }
    if (baseline.detect(text).language === label) baselineCorrect++;
  }
  const languages = new Set(set.map((item) => item.label)).size;
  console.log(
    `${name}: ${set.length} texts, ${languages} languages: accuracy ${pct(correct, set.length)} ` +
      `(wrong language ${pct(wrong, set.length)}, rest not confident); baseline eld alone ${pct(baselineCorrect, set.length)}`,
  );
  for (const miss of misses) console.log(`  miss ${miss}`);
}

const negatives = readSet('detect-negative.tsv');
let rightNegatives = 0;
for (const { label, text } of negatives) {
  const status = detector.detect(text).detection_status;
  const ok = label === 'none' ? status === 'no_language_detected' : status === 'unsupported_language';
  if (ok) rightNegatives++;
  else console.log(`  miss ${label}→${status}: ${text}`);
}
console.log(`detect-negative.tsv: ${rightNegatives}/${negatives.length} given the right non-success status`);

const all = [...readSet('detect-short.tsv'), ...readSet('detect-medium.tsv')].map((item) => item.text);
const rounds = 20;
let start = performance.now();
for (let round = 0; round < rounds; round++) for (const text of all) detector.detect(text);
const ours = ((performance.now() - start) * 1000) / (rounds * all.length);
start = performance.now();
for (let round = 0; round < rounds; round++) for (const text of all) baseline.detect(text);
const base = ((performance.now() - start) * 1000) / (rounds * all.length);
console.log(
  `speed: ${ours.toFixed(1)} µs per text; baseline eld alone ${base.toFixed(1)} µs; ratio ${(ours / base).toFixed(2)}`,
);
console.log(`rss: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
detector.close();

function pct(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)}%`;
}
