/**
 * `correct` on public learner corpora, judged by the corpora's own references: JFLEG (English, four
 * references per sentence; an edit is right when any reference makes it) and COWS-L2H (Spanish, one
 * corrected version). Precision = right edits / edits made, recall = right edits / edits the (best)
 * reference makes. Also: edits made on correct text (Debian catalogue messages in German, French, Italian,
 * Portuguese; any edit there is a false alarm). Sources and licences: bench/data/README.md.
 * Run: npx tsx --conditions @glossa/source bench/write-corpora.ts [--edits]
 */
import { readFileSync } from 'node:fs';
import { correctEnglish } from '../src/write/english.js';
import { correctFrench } from '../src/write/french.js';
import { closeGrammalecte } from '../src/write/grammalecte.js';
import { closeEnglish } from '../src/write/harper.js';
import { closeHunspell } from '../src/write/hunspell.js';
import { correctSpelling } from '../src/write/spelling.js';
import { readDebianTexts } from './detect-debian.js';
import { edits } from './write-metrics.js';

export interface Judged {
  readonly source: string;
  readonly references: readonly string[];
}

export function readCorpus(name: 'jfleg-test.tsv' | 'cows-l2h.tsv'): Judged[] {
  return readFileSync(new URL(`data/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [source, ...references] = line.split('\t') as [string, ...string[]];
      return { source, references };
    });
}

export interface CorpusScore {
  made: number;
  right: number;
  needed: number;
  /** Edits no reference makes, as `word → replacement`. */
  readonly wrong: string[];
}

/** Scores one corrected sentence against its references. */
export function judge(score: CorpusScore, { source, references }: Judged, output: string): void {
  const made = edits(source, output);
  const referenceEdits = references.map((reference) => edits(source, reference));
  const sourceTokens = source.match(TOKEN) ?? [];
  const referenceTokens = references.map((reference) => reference.match(TOKEN) ?? []);
  let right = 0;
  for (const edit of made) {
    // Right when the edit alone brings the sentence closer to one of the references (in tokens): it is one of
    // that reference's changes, even where the reference changes the neighbouring words too.
    const [start, end, replacement] = edit.split(':') as [string, string, string];
    const edited = [
      ...sourceTokens.slice(0, Number(start)),
      ...(replacement === '' ? [] : replacement.split(' ')),
      ...sourceTokens.slice(Number(end)),
    ];
    const closer = referenceTokens.some(
      (tokens) => tokenDistance(edited, tokens) < tokenDistance(sourceTokens, tokens),
    );
    if (closer) right++;
    else score.wrong.push(`${describeEdit(source, edit)}  | ${source}`);
  }
  score.made += made.size;
  score.right += right;
  // Recall against the reference closest to what was done (the most edits in common), as for JFLEG's GLEU.
  const best = referenceEdits.reduce(
    (chosen, set) => {
      const common = [...made].filter((edit) => set.has(edit)).length;
      return common > chosen.common || (common === chosen.common && set.size < chosen.size)
        ? { common, size: set.size }
        : chosen;
    },
    { common: -1, size: Number.POSITIVE_INFINITY },
  );
  score.needed += best.size;
}

const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)*|\S/gu;

/** Levenshtein distance between two token lists. */
function tokenDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

function describeEdit(source: string, edit: string): string {
  const [start, end, replacement] = edit.split(':') as [string, string, string];
  const tokens = source.match(TOKEN) ?? [];
  return `"${tokens.slice(Number(start), Number(end)).join(' ')}" → "${replacement}"`;
}

export const emptyCorpusScore = (): CorpusScore => ({ made: 0, right: 0, needed: 0, wrong: [] });

export function describeScore(score: CorpusScore): string {
  const pct = (part: number, whole: number) => (whole === 0 ? 'n/a' : (part / whole).toFixed(3));
  return `precision ${pct(score.right, score.made)} (${score.right}/${score.made} edits), recall ${pct(score.right, score.needed)} (of ${score.needed})`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const show = process.argv.includes('--edits');
  const runs: [string, Judged[], (text: string) => Promise<string>][] = [
    ['JFLEG en', readCorpus('jfleg-test.tsv'), (text) => correctEnglish(text, 'en-US')],
    ['COWS-L2H es', readCorpus('cows-l2h.tsv'), (text) => correctSpelling(text, 'es')],
  ];
  for (const [name, corpus, correct] of runs) {
    const score = emptyCorpusScore();
    const started = performance.now();
    for (const item of corpus) judge(score, item, await correct(item.source));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${name}: ${corpus.length} sentences, ${describeScore(score)}; ${seconds} s`);
    if (show) for (const wrong of score.wrong) console.log(`  not in any reference: ${wrong}`);
  }
  const clean: [string, (text: string) => Promise<string>][] = [
    ['de', (text) => correctSpelling(text, 'de')],
    ['fr', (text) => correctFrench(text)],
    ['it', (text) => correctSpelling(text, 'it')],
    ['pt', (text) => correctSpelling(text, 'pt-BR')],
  ];
  const debian = readDebianTexts();
  for (const [language, correct] of clean) {
    const texts = debian.filter((text) => text.label === language);
    let changed = 0;
    for (const { text } of texts) {
      const output = await correct(text);
      if (output !== text) {
        changed++;
        if (show) console.log(`  changed ${language}: ${text} → ${output}`);
      }
    }
    console.log(`correct ${language} text (Debian catalogues): ${changed}/${texts.length} texts changed`);
  }
  closeHunspell();
  closeGrammalecte();
  await closeEnglish();
}
