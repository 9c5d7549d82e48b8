/**
 * Determiners that agree with a glossary term. The engine translates the sentence around a locked term
 * with its own reading of the term (en→es: "file" read as `lima`, feminine), so the word before the term
 * agrees with that reading; with the glossary's `archivo` in its place that gave `la archivo`. For the
 * target languages listed here, the gender and number of both readings come from Apertium's analyser of
 * the target language (a Debian pair package), and a determiner right before the term is changed to agree
 * with the glossary's: `el archivo`, `del archivo`. Adjectives after the term are left as the engine wrote
 * them. Languages without an entry, or without an installed analyser, keep the engine's determiners.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

type Gender = 'm' | 'f';
type GrammaticalNumber = 'sg' | 'pl';
interface NounForm {
  readonly gender: Gender;
  readonly number: GrammaticalNumber;
}

/** One determiner's forms: masculine singular, masculine plural, feminine singular, feminine plural. */
type Forms = readonly [string, string, string, string];

interface LanguageRules {
  /** Apertium analysers of the language, the first installed one is used (`/usr/share/apertium/...`). */
  readonly analysers: readonly string[];
  readonly determiners: readonly Forms[];
  /** Preposition + masculine singular article written as one word: `de el` → `del`. */
  readonly contractions: Readonly<Record<string, string>>;
}

const RULES: Readonly<Record<string, LanguageRules>> = {
  es: {
    analysers: [
      'apertium-eng-spa/spa-eng.automorf.bin',
      'apertium-spa-ita/spa-ita.automorf.bin',
      'apertium-es-pt/es-pt.automorf.bin',
      'apertium-fr-es/es-fr.automorf.bin',
    ],
    determiners: [
      ['el', 'los', 'la', 'las'],
      ['un', 'unos', 'una', 'unas'],
      ['este', 'estos', 'esta', 'estas'],
      ['ese', 'esos', 'esa', 'esas'],
      ['aquel', 'aquellos', 'aquella', 'aquellas'],
      ['otro', 'otros', 'otra', 'otras'],
      ['nuestro', 'nuestros', 'nuestra', 'nuestras'],
      ['vuestro', 'vuestros', 'vuestra', 'vuestras'],
      ['mi', 'mis', 'mi', 'mis'],
      ['tu', 'tus', 'tu', 'tus'],
      ['su', 'sus', 'su', 'sus'],
    ],
    contractions: { de: 'del', a: 'al' },
  },
};

const APERTIUM_DIR = '/usr/share/apertium';
const FORM_INDEX = { 'm sg': 0, 'm pl': 1, 'f sg': 2, 'f pl': 3 } as const;

/** Analyses by analyser and word (`undefined`: not a noun), kept for the process's life, bounded. */
const analyses = new Map<string, Map<string, NounForm | undefined>>();
const MAX_CACHED_WORDS = 20_000;

/** `lt-proc` over the words, one per line: the first noun reading of each (gender and number), if any. */
function analyse(analyser: string, words: readonly string[]): Promise<(NounForm | undefined)[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('lt-proc', [analyser], { stdio: ['pipe', 'pipe', 'ignore'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`lt-proc exited with ${code}`));
      const units = [...output.matchAll(/\^([^/$]*)((?:\/[^/$]*)*)\$/g)];
      if (units.length !== words.length) return reject(new Error('lt-proc: one analysis per word expected'));
      resolve(
        units.map((unit) => {
          for (const reading of unit[2]!.split('/').slice(1)) {
            const tags: string[] = reading.match(/<[^>]+>/g) ?? [];
            if (tags[0] !== '<n>') continue;
            const gender = tags.includes('<f>') ? 'f' : tags.includes('<m>') ? 'm' : undefined;
            const number = tags.includes('<pl>') ? 'pl' : tags.includes('<sg>') ? 'sg' : undefined;
            if (gender && number) return { gender, number };
          }
          return undefined;
        }),
      );
    });
    child.stdin.end(`${words.join('\n')}\n`);
  });
}

const WORD = /\p{L}+/gu;

/** The gender and number of a noun phrase: those of its first word that is a noun (`servidor de ficheros`). */
function headOf(phrase: string, known: Map<string, NounForm | undefined>): NounForm | undefined {
  for (const [word] of phrase.matchAll(WORD)) {
    const form = known.get(word.toLowerCase());
    if (form) return form;
  }
  return undefined;
}

/** Fixes the text before a term so that its last determiner agrees with the glossary's target term. */
export type AgreeFn = (before: string, engineReading: string, target: string) => string;

/**
 * The agreement function for `language` and these phrases (the engine's readings of the terms and the
 * glossary's targets), or undefined when the language has no rules or no analyser is installed. A failing
 * analyser leaves the engine's determiners (agreement is a refinement, never a reason to fail a request).
 */
export async function loadAgreement(
  language: string,
  phrases: readonly string[],
): Promise<AgreeFn | undefined> {
  const rules = RULES[language];
  const analyser = rules?.analysers.map((path) => `${APERTIUM_DIR}/${path}`).find((path) => existsSync(path));
  if (!rules || !analyser) return undefined;
  let known = analyses.get(analyser);
  if (!known) {
    known = new Map();
    analyses.set(analyser, known);
  }
  const missing = [
    ...new Set(phrases.flatMap((phrase) => [...phrase.matchAll(WORD)].map(([word]) => word.toLowerCase()))),
  ].filter((word) => !known.has(word));
  if (missing.length > 0) {
    try {
      const forms = await analyse(analyser, missing);
      if (known.size + missing.length > MAX_CACHED_WORDS) known.clear();
      for (const [index, word] of missing.entries()) known.set(word, forms[index]);
    } catch {
      return undefined;
    }
  }
  return (before, engineReading, target) => {
    const from = headOf(engineReading, known);
    const to = headOf(target, known);
    if (!from || !to || (from.gender === to.gender && from.number === to.number)) return before;
    return agreeDeterminer(before, to, rules);
  };
}

const LAST_WORD = /(^|[^\p{L}])(\p{L}+)(\s+)$/u;

function agreeDeterminer(before: string, to: NounForm, rules: LanguageRules): string {
  const last = LAST_WORD.exec(before);
  if (!last) return before;
  const word = last[2]!;
  const lower = word.toLowerCase();
  const wanted = FORM_INDEX[`${to.gender} ${to.number}`];
  const head = before.slice(0, last.index + last[1]!.length);
  // `del` / `al`: the preposition and the masculine singular article in one word.
  const contracted = Object.entries(rules.contractions).find(([, joined]) => joined === lower)?.[0];
  const forms = contracted ? rules.determiners[0] : rules.determiners.find((group) => group.includes(lower));
  if (!forms) return before;
  let replacement = forms[wanted];
  if (contracted) replacement = `${contracted} ${replacement}`;
  else if (wanted === 0 && forms === rules.determiners[0]) {
    // `de la` → `del` when the term is masculine singular.
    const preposition = /(^|[^\p{L}])(\p{L}+)(\s+)$/u.exec(head);
    const joined = preposition && rules.contractions[preposition[2]!.toLowerCase()];
    if (preposition && joined) {
      const start = preposition.index + preposition[1]!.length;
      return `${head.slice(0, start)}${matchCase(joined, preposition[2]!)}${last[3]}`;
    }
  }
  return `${head}${matchCase(replacement, word)}${last[3]}`;
}

/** `replacement` with the first letter's case of `original` (`La` → `El`). */
function matchCase(replacement: string, original: string): string {
  const first = original[0]!;
  return first !== first.toLowerCase() ? replacement[0]!.toUpperCase() + replacement.slice(1) : replacement;
}
