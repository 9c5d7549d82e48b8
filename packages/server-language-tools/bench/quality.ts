/**
 * Quality evaluation on seeded errors: clean English → German/French/Spanish/Portuguese/Italian pairs (the
 * parallel sentences of bench/data/detect-*.tsv, decorated with a tag, a number and a placeholder), each
 * copied once per error kind with that one error seeded. Precision: of the issues reported on seeded pairs,
 * the share that names the seeded error; recall per kind; false alarms on the clean pairs. Speed against a
 * baseline measured in the same run: masking the markup alone, the first step of every evaluation.
 * Run: pnpm bench (or npx tsx --conditions @glossa/source bench/quality.ts).
 */
import { readFileSync } from 'node:fs';
import { type CheckName, evaluateSegment, maskMarkup, type QualitySegment } from '@glossa/quality';
import { spellingCheckFor } from '../src/quality/spelling.js';
import { closeHunspell } from '../src/write/hunspell.js';

const TARGETS = ['de', 'fr', 'es', 'pt', 'it'] as const;

function byLanguage(name: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of readFileSync(new URL(`data/${name}`, import.meta.url), 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [language, text] = line.split('\t') as [string, string];
    map.set(language, [...(map.get(language) ?? []), text]);
  }
  return map;
}

const sets = [byLanguage('detect-short.tsv'), byLanguage('detect-medium.tsv')];
const decorate = (text: string, n: number) => `<b>${n}.</b> {name}, ${text}`;

interface Pair {
  readonly target: string;
  readonly segment: QualitySegment;
}
const clean: Pair[] = [];
for (const target of TARGETS) {
  for (const set of sets) {
    const english = set.get('en')!;
    set.get(target)!.forEach((translation, index) => {
      const n = clean.length + 1;
      clean.push({
        target,
        segment: { source: decorate(english[index]!, n), translation: decorate(translation, n) },
      });
    });
  }
}

/** Each seeded error: what it does to a clean translation, and the check expected to report it. */
const SEEDS: readonly [CheckName, (s: QualitySegment) => string][] = [
  ['missing_tag', (s) => s.translation.replace(/<\/?b>/g, '')],
  ['number_mismatch', (s) => s.translation.replace(/\d+/, (n) => String(Number(n) + 1))],
  ['missing_placeholder', (s) => s.translation.replace('{name}, ', '')],
  ['doubled_word', (s) => s.translation.replace(/(\s)(\p{L}{4,})(?=[\s,.!?])/u, '$1$2 $2')],
  ['leading_whitespace', (s) => ` ${s.translation}`],
  ['trailing_whitespace', (s) => `${s.translation} `],
  ['punctuation', (s) => s.translation.replace(/[.!?。！？]+$/u, '')],
  ['empty_target', () => ''],
  ['untranslated', (s) => s.source],
  ['spelling', (s) => s.translation.replace(/(\s)(\p{Ll})(\p{Ll})(\p{Ll}{4,})/u, '$1$3$2$4')],
];

const reported = { seeded: 0, other: 0 };
const found = new Map<CheckName, [number, number]>();
const otherKinds = new Map<string, number>();
let cleanAlarms = 0;
let evaluations = 0;
let evaluationMs = 0;
for (const target of TARGETS) {
  const pairs = clean.filter((pair) => pair.target === target);
  const flawedPairs = SEEDS.flatMap(([check, seed]) =>
    pairs.map((pair) => ({
      check,
      segment: { source: pair.segment.source, translation: seed(pair.segment) },
    })),
  );
  const spelling = await spellingCheckFor(
    target,
    [...pairs, ...flawedPairs].map((p) => p.segment),
  );
  const options = { sourceLang: 'en', targetLang: target, ...(spelling ? { spelling } : {}) };
  for (const pair of pairs) cleanAlarms += evaluateSegment(pair.segment, options).length;
  const started = performance.now();
  for (const { check, segment } of flawedPairs) {
    const issues = evaluateSegment(segment, options);
    const hit = issues.some((issue) => issue.check === check);
    const [hits, total] = found.get(check) ?? [0, 0];
    found.set(check, [hits + (hit ? 1 : 0), total + 1]);
    for (const issue of issues) {
      if (issue.check === check) reported.seeded++;
      else {
        reported.other++;
        otherKinds.set(`${check}→${issue.check}`, (otherKinds.get(`${check}→${issue.check}`) ?? 0) + 1);
      }
    }
  }
  evaluationMs += performance.now() - started;
  evaluations += flawedPairs.length;
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
console.log(
  `${clean.length} clean pairs (en → ${TARGETS.join(', ')}), ${evaluations} pairs with one seeded error`,
);
console.log(
  `precision: ${pct(reported.seeded, reported.seeded + reported.other)} of ${reported.seeded + reported.other} issues name the seeded error`,
);
console.log(`false alarms on clean pairs: ${cleanAlarms} issues on ${clean.length} pairs`);
for (const [check, [hits, total]] of found) console.log(`  recall ${check}: ${hits}/${total}`);
for (const [kinds, count] of otherKinds) console.log(`  also reported (${kinds}): ${count}`);

const segments = clean.map((pair) => pair.segment);
const rounds = 50;
let start = performance.now();
for (let round = 0; round < rounds; round++) {
  for (const s of segments) evaluateSegment(s, { sourceLang: 'en', targetLang: 'de' });
}
const ours = ((performance.now() - start) * 1000) / (rounds * segments.length);
start = performance.now();
for (let round = 0; round < rounds; round++) {
  for (const s of segments) {
    maskMarkup(s.source);
    maskMarkup(s.translation);
  }
}
const base = ((performance.now() - start) * 1000) / (rounds * segments.length);
console.log(
  `speed: ${ours.toFixed(1)} µs per segment (spelling excluded); baseline masking only ${base.toFixed(1)} µs; ratio ${(ours / base).toFixed(1)}`,
);
console.log(
  `with spelling, flawed pairs: ${((evaluationMs * 1000) / evaluations).toFixed(1)} µs per segment`,
);
closeHunspell();
