/**
 * `correct` as the server runs it per text (`correctText`: the language's checker, Portuguese variant
 * conversion first) on public learner corpora, judged by the corpora's own references: JFLEG (English, four
 * references per sentence; an edit is right when any reference makes it), COWS-L2H (Spanish), MERLIN
 * (German, Italian), VALICO (Italian), UGCNormal (Brazilian Portuguese). Precision = right edits / edits made,
 * recall = right edits / edits the (best) reference makes. Also: edits made on correct text (Debian catalogue
 * messages in German, French, Italian, Portuguese; any edit there is a false alarm). Sources and licences:
 * bench/data/README.md, test/fixtures/write/README.md.
 * Run: npx tsx --conditions @glossa/source bench/write-corpora.ts [--edits] [--adjudicated] [--only=LABEL]
 */
import { readFileSync } from 'node:fs';
import { closeGrammalecte } from '../src/write/grammalecte.js';
import { closeEnglish } from '../src/write/harper.js';
import { closeHunspell } from '../src/write/hunspell.js';
import { correctText } from '../src/write/improve.js';
import { writeLanguage } from '../src/write/languages.js';
import { readDebianTexts } from './detect-debian.js';
import { edits } from './write-metrics.js';

export interface Judged {
  readonly source: string;
  readonly references: readonly string[];
}

/** A corpus of bench/data (`jfleg-test.tsv`, `cows-l2h.tsv`) or of test/fixtures/write (`write/<name>.tsv`). */
export function readCorpus(name: string): Judged[] {
  const url = name.startsWith('write/')
    ? new URL(`../test/fixtures/${name}`, import.meta.url)
    : new URL(`data/${name}`, import.meta.url);
  return readFileSync(url, 'utf8')
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
  /**
   * Of the edits counted wrong, those whose span every reference rewrote entirely: no reference keeps the
   * original word nor has the edit's word ("simpatico" → "simpático" where the reference says "agradable").
   * The references do not judge such an edit, right or wrong. Still counted wrong in `precision` (as M2/ERRANT
   * scoring does); "precision where a reference judges" leaves them out.
   */
  unjudgeable: number;
  /**
   * Edits that bring the sentence closer to a reference in letters (Levenshtein over the characters of
   * its tokens), counted apart from `right`: a fix that is part of what the reference changed
   * ("psicologia" → "psicología" where the reference has "Psicología"; "simpatico" → "simpático" where it
   * has "simpática") counts here, while token by token it is wrong.
   */
  closerInLetters: number;
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
    if (
      referenceTokens.some(
        (tokens) =>
          tokenDistance(letters(edited), letters(tokens)) <
          tokenDistance(letters(sourceTokens), letters(tokens)),
      )
    )
      score.closerInLetters++;
    if (closer) right++;
    else {
      const original: string[] = sourceTokens.slice(Number(start), Number(end));
      const added: string[] = replacement === '' ? [] : replacement.split(' ');
      const rewritten = referenceTokens.every(
        (tokens: string[]) =>
          !original.some((token) => tokens.includes(token)) && !added.some((token) => tokens.includes(token)),
      );
      if (rewritten) score.unjudgeable++;
      score.wrong.push(`${rewritten ? '(rewritten) ' : ''}${describeEdit(source, edit)}  | ${source}`);
    }
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

/** The characters of tokens joined by spaces. */
const letters = (tokens: readonly string[]): string[] => Array.from(tokens.join(' '));

/** Levenshtein distance between two token (or character) lists. */
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

export const emptyCorpusScore = (): CorpusScore => ({
  made: 0,
  right: 0,
  needed: 0,
  unjudgeable: 0,
  closerInLetters: 0,
  wrong: [],
});

export function describeScore(score: CorpusScore): string {
  const pct = (part: number, whole: number) => (whole === 0 ? 'n/a' : (part / whole).toFixed(3));
  const judged = score.made - score.unjudgeable;
  return `precision ${pct(score.right, score.made)} (${score.right}/${score.made} edits), recall ${pct(score.right, score.needed)} (of ${score.needed}); of the ${score.made - score.right} wrong, ${score.unjudgeable} in spans every reference rewrote; precision where a reference judges ${pct(score.right, judged)} (${score.right}/${judged}); closer in letters ${pct(score.closerInLetters, score.made)} (${score.closerInLetters}/${score.made})`;
}

/** The learner corpora of the Hunspell languages, each as the slice the rules were tuned on and a held-out one. */
export const LEARNER_CORPORA: readonly { label: string; file: string; language: string; fresh?: true }[] = [
  { label: 'COWS-L2H es, tuned', file: 'cows-l2h.tsv', language: 'es' },
  { label: 'COWS-L2H es, held out', file: 'write/cows-l2h-heldout.tsv', language: 'es' },
  { label: 'COWS-L2H es, second held out', file: 'write/cows-l2h-fresh.tsv', language: 'es', fresh: true },
  { label: 'MERLIN de, tuned', file: 'write/merlin-de-tune.tsv', language: 'de' },
  { label: 'MERLIN de, held out', file: 'write/merlin-de-heldout.tsv', language: 'de' },
  { label: 'MERLIN de, second held out', file: 'write/merlin-de-fresh.tsv', language: 'de', fresh: true },
  { label: 'VALICO it, tuned', file: 'write/valico-it-tune.tsv', language: 'it' },
  { label: 'VALICO it, held out', file: 'write/valico-it-heldout.tsv', language: 'it' },
  { label: 'MERLIN it, dev', file: 'write/merlin-it-dev.tsv', language: 'it', fresh: true },
  { label: 'UGCNormal pt-BR, tuned', file: 'write/ugcnormal-pt-tune.tsv', language: 'pt-BR' },
  { label: 'UGCNormal pt-BR, held out', file: 'write/ugcnormal-pt-heldout.tsv', language: 'pt-BR' },
];

/**
 * Hand verdicts on edits no reference makes (`test/fixtures/write/adjudicated.tsv`), by slice label and
 * `word → fix`: true when the fix is what the writer meant.
 */
export function readAdjudicated(): Map<string, boolean> {
  const verdicts = new Map<string, boolean>();
  const file = new URL('../test/fixtures/write/adjudicated.tsv', import.meta.url);
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [slice, word, fix, verdict] = line.split('\t');
    verdicts.set(`${slice}\t${word} → ${fix}`, verdict === 'right');
  }
  return verdicts;
}

/** The `word → fix` of an entry of `CorpusScore.wrong`. */
function wrongEdit(entry: string): string {
  const [, word, fix] = entry.match(/"([^"]*)" → "([^"]*)"/u) ?? [];
  return `${word} → ${fix}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const show = process.argv.includes('--edits');
  // --edits lists the wrong edits, except on the second held-out slices (kept unseen while rules are written);
  // --all lists those too.
  const showFresh = process.argv.includes('--all');
  // --adjudicated adds the precision with the hand verdicts of test/fixtures/write/adjudicated.tsv.
  const adjudicated = process.argv.includes('--adjudicated') ? readAdjudicated() : undefined;
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  type Run = [string, Judged[], (text: string) => Promise<string>, boolean, string];
  const runs = (
    [
      [
        'JFLEG en',
        readCorpus('jfleg-test.tsv'),
        (text: string) => correctText(text, writeLanguage('en-US')!),
        true,
        'en',
      ],
      ...LEARNER_CORPORA.map(
        ({ label, file, language, fresh }): Run => [
          label,
          readCorpus(file),
          (text) => correctText(text, writeLanguage(language)!),
          !fresh || showFresh,
          language.slice(0, 2),
        ],
      ),
    ] as Run[]
  ).filter(
    ([name, , , listed]) =>
      (only === undefined || name.startsWith(only)) && (listed || !process.argv.includes('--no-fresh')),
  );
  const byLanguage = new Map<string, CorpusScore>();
  for (const [name, corpus, correct, listed, language] of runs) {
    const score = emptyCorpusScore();
    const started = performance.now();
    for (const item of corpus) judge(score, item, await correct(item.source));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${name}: ${corpus.length} sentences, ${describeScore(score)}; ${seconds} s`);
    if (adjudicated && listed && name !== 'JFLEG en') {
      // With the hand verdicts: an edit no reference makes that is what the writer meant counts right.
      const judged = score.wrong.map((entry) => adjudicated.get(`${name}\t${wrongEdit(entry)}`));
      const right = score.right + judged.filter((verdict) => verdict === true).length;
      const unjudged = score.wrong.filter((_, index) => judged[index] === undefined).map(wrongEdit);
      console.log(
        `  adjudicated: precision ${(right / score.made).toFixed(3)} (${right}/${score.made}); not judged yet: ${unjudged.join(', ') || 'none'}`,
      );
    }
    if (show && listed) for (const wrong of score.wrong) console.log(`  not in any reference: ${wrong}`);
    const total = byLanguage.get(language) ?? emptyCorpusScore();
    for (const key of ['made', 'right', 'needed', 'unjudgeable', 'closerInLetters'] as const)
      total[key] += score[key];
    byLanguage.set(language, total);
  }
  for (const [language, total] of byLanguage) console.log(`all slices, ${language}: ${describeScore(total)}`);
  // Language label of the Debian texts → write language.
  const clean: [string, string][] = [
    ['de', 'de'],
    ['fr', 'fr'],
    ['it', 'it'],
    ['pt', 'pt-BR'],
  ];
  const debian = only === undefined ? readDebianTexts() : [];
  for (const [language, code] of clean) {
    const texts = debian.filter((text) => text.label === language);
    let changed = 0;
    for (const { text } of texts) {
      const output = await correctText(text, writeLanguage(code)!);
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
