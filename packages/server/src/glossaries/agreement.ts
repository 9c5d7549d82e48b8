/**
 * Words that agree with a glossary term. The engine translates the sentence around a locked term with its
 * own reading of the term (en→es: "file" read as `lima`, feminine), so the words next to it agree with
 * that reading; with the glossary's `archivo` in its place that gave `la archivo roja`. For the target
 * languages listed here (Spanish, Portuguese), Apertium's analyser of the language (a Debian pair package)
 * gives the gender and number of both readings, and when they differ the determiner right before the term
 * and an adjective right after it are made to agree with the glossary's term: `el archivo rojo`,
 * `del archivo`, `o arquivo vermelho`. Adjectives further away (`es roja`) keep the engine's agreement,
 * and so does every word in languages without an entry or without an installed analyser.
 */
import { existsSync } from 'node:fs';
import { ApertiumProcess } from '../engines/apertium-process.js';

type Gender = 'm' | 'f';
type GrammaticalNumber = 'sg' | 'pl';
interface Form {
  readonly gender: Gender;
  readonly number: GrammaticalNumber;
}
interface WordReading {
  readonly noun?: Form;
  /** An adjective that changes with gender (not `grande`), by its lemma. */
  readonly adjective?: Form & { readonly lemma: string };
}

/** One determiner's forms: masculine singular, masculine plural, feminine singular, feminine plural. */
type Forms = readonly [string, string, string, string];

interface LanguageRules {
  /** Apertium analyser and generator of the language, by pair package; the first installed pair is used. */
  readonly tools: readonly { readonly analyser: string; readonly generator: string }[];
  readonly determiners: readonly Forms[];
  /** Preposition + masculine singular article written as one word: `de el` → `del`. */
  readonly contractions: Readonly<Record<string, string>>;
}

const RULES: Readonly<Record<string, LanguageRules>> = {
  es: {
    tools: [
      {
        analyser: 'apertium-eng-spa/spa-eng.automorf.bin',
        generator: 'apertium-eng-spa/eng-spa.autogen.bin',
      },
      {
        analyser: 'apertium-spa-ita/spa-ita.automorf.bin',
        generator: 'apertium-spa-ita/ita-spa.autogen.bin',
      },
      { analyser: 'apertium-es-pt/es-pt.automorf.bin', generator: 'apertium-es-pt/pt-es.autogen.bin' },
      { analyser: 'apertium-fr-es/es-fr.automorf.bin', generator: 'apertium-fr-es/fr-es.autogen.bin' },
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
  pt: {
    tools: [{ analyser: 'apertium-es-pt/pt-es.automorf.bin', generator: 'apertium-es-pt/es-pt.autogen.bin' }],
    // Portuguese writes a preposition and a determiner as one word for every gender and number: `do`, `da`.
    determiners: [
      ['o', 'os', 'a', 'as'],
      ['um', 'uns', 'uma', 'umas'],
      ['este', 'estes', 'esta', 'estas'],
      ['esse', 'esses', 'essa', 'essas'],
      ['aquele', 'aqueles', 'aquela', 'aquelas'],
      ['outro', 'outros', 'outra', 'outras'],
      ['nosso', 'nossos', 'nossa', 'nossas'],
      ['vosso', 'vossos', 'vossa', 'vossas'],
      ['meu', 'meus', 'minha', 'minhas'],
      ['teu', 'teus', 'tua', 'tuas'],
      ['seu', 'seus', 'sua', 'suas'],
      ['do', 'dos', 'da', 'das'],
      ['no', 'nos', 'na', 'nas'],
      ['ao', 'aos', 'à', 'às'],
      ['pelo', 'pelos', 'pela', 'pelas'],
      ['num', 'nuns', 'numa', 'numas'],
      ['deste', 'destes', 'desta', 'destas'],
      ['neste', 'nestes', 'nesta', 'nestas'],
      ['desse', 'desses', 'dessa', 'dessas'],
      ['nesse', 'nesses', 'nessa', 'nessas'],
      ['daquele', 'daqueles', 'daquela', 'daquelas'],
      ['naquele', 'naqueles', 'naquela', 'naquelas'],
    ],
    contractions: {},
  },
};

const APERTIUM_DIR = '/usr/share/apertium';
const formIndex = (form: Form) => (form.gender === 'm' ? 0 : 2) + (form.number === 'sg' ? 0 : 1);

/** What the analyser and the generator said, by tool and input, kept for the process's life (bounded). */
const memo = new Map<string, Map<string, WordReading | string | undefined>>();
const MAX_MEMO_ENTRIES = 20_000;

/**
 * One long-lived `lt-proc` per analyser or generator file, fed in null-flush mode like the translation
 * pipelines (loading a transducer takes 50-70 ms, a lookup well under one). Stopped after a minute idle
 * and when the last server of the process closes (`closeAgreementTools`).
 */
const processes = new Map<string, ApertiumProcess>();
function ltProc(args: readonly string[], lines: readonly string[]): Promise<string> {
  const key = args.join(' ');
  let tool = processes.get(key);
  if (!tool) {
    const name = args.at(-1)!.replace(/^.*\//, '');
    const script = `exec lt-proc -z ${args.map((arg) => `'${arg}'`).join(' ')}`;
    tool = new ApertiumProcess({ command: { name, script }, idleMs: 60_000, timeoutMs: 10_000 });
    processes.set(key, tool);
  }
  return tool.translate(lines.join('\n'));
}

export function closeAgreementTools(): void {
  for (const tool of processes.values()) tool.close();
  processes.clear();
}

function parseReading(analyses: string): WordReading {
  let noun: Form | undefined;
  let adjective: WordReading['adjective'];
  for (const reading of analyses.split('/').slice(1)) {
    const tags: string[] = reading.match(/<[^>]+>/g) ?? [];
    const gender = tags.includes('<f>') ? 'f' : tags.includes('<m>') ? 'm' : undefined;
    const number = tags.includes('<pl>') ? 'pl' : tags.includes('<sg>') ? 'sg' : undefined;
    if (!gender || !number) continue;
    if (tags[0] === '<n>') noun ??= { gender, number };
    if (tags[0] === '<adj>') adjective ??= { lemma: reading.slice(0, reading.indexOf('<')), gender, number };
  }
  return { ...(noun ? { noun } : {}), ...(adjective ? { adjective } : {}) };
}

/** Fills `known` with what `run` answers for the inputs it lacks. */
async function remember(
  known: Map<string, WordReading | string | undefined>,
  inputs: readonly string[],
  run: (missing: string[]) => Promise<(WordReading | string | undefined)[]>,
): Promise<void> {
  const missing = [...new Set(inputs)].filter((input) => !known.has(input));
  if (missing.length === 0) return;
  const answers = await run(missing);
  if (answers.length !== missing.length) throw new Error('lt-proc: one answer per line expected');
  if (known.size + missing.length > MAX_MEMO_ENTRIES) known.clear();
  for (const [index, input] of missing.entries()) known.set(input, answers[index]);
}

const WORD = /\p{L}+/gu;
const words = (text: string) => [...text.matchAll(WORD)].map(([word]) => word.toLowerCase());
const FIRST_WORD = /^(\s+)(\p{L}+)/u;
const LAST_WORD = /(^|[^\p{L}])(\p{L}+)(\s+)$/u;

/** A term in the engine's output: what the engine made of it, the glossary's target, the word after it. */
export interface TermOccurrence {
  readonly reading: string;
  readonly target: string;
  /** Lower-cased; undefined when something other than spaces follows the term. */
  readonly next: string | undefined;
}

/** Fixes the words next to a term so that they agree with its target instead of the engine's reading. */
export interface Agreement {
  before(text: string, reading: string, target: string): string;
  after(text: string, reading: string, target: string): string;
}

/**
 * The agreement of `language` for these occurrences, or undefined when the language has no rules or no
 * analyser is installed. A failing analyser leaves the engine's words (agreement is a refinement, never a
 * reason to fail a request).
 */
export async function loadAgreement(
  language: string,
  occurrences: readonly TermOccurrence[],
): Promise<Agreement | undefined> {
  const rules = RULES[language];
  const tools = rules && installedTools(language, rules);
  if (!rules || !tools) return undefined;
  const readings = memoFor(tools.analyser);
  const generated = memoFor(tools.generator);
  const analysisOf = (word: string) => readings.get(word) as WordReading | undefined;
  const head = (phrase: string) =>
    words(phrase)
      .map((word) => analysisOf(word)?.noun)
      .find(Boolean);
  try {
    await remember(
      readings,
      occurrences.flatMap(({ reading, target, next }) => [
        ...words(reading),
        ...words(target),
        ...(next === undefined ? [] : [next]),
      ]),
      async (missing) =>
        [...(await ltProc([tools.analyser], missing)).matchAll(/\^[^/$]*((?:\/[^/$]*)*)\$/g)].map((unit) =>
          parseReading(unit[1]!),
        ),
    );
    // The adjectives after a term in the form its target needs, generated once each.
    const wanted = occurrences.flatMap(({ reading, target, next }) => {
      const adjective = retarget(reading, target, next);
      return adjective ? [adjective] : [];
    });
    await remember(generated, wanted, async (missing) =>
      (await ltProc(['-g', tools.generator], missing)).split('\n').slice(0, missing.length),
    );
  } catch {
    return undefined;
  }

  /**
   * `^lemma<adj><g><n>$` for the adjective after a term, when it agrees with the engine's reading (taken
   * to be the adjective's own form when the analyser does not know the reading) but not with the target.
   */
  function retarget(engineReading: string, target: string, next: string | undefined): string | undefined {
    const to = head(target);
    const adjective = next === undefined ? undefined : analysisOf(next)?.adjective;
    if (!to || !adjective) return undefined;
    const from = head(engineReading) ?? adjective;
    if (formIndex(from) === formIndex(to) || formIndex(adjective) !== formIndex(from)) return undefined;
    return `^${adjective.lemma}<adj><${to.gender}><${to.number}>$`;
  }

  return {
    before(text, engineReading, target) {
      const to = head(target);
      const from = head(engineReading);
      // An unknown reading (a word the engine passed through): the determiner's own form says what it agreed with.
      if (!to || (from && formIndex(from) === formIndex(to))) return text;
      return agreeDeterminer(text, to, rules);
    },
    after(text, engineReading, target) {
      const next = FIRST_WORD.exec(text);
      const request = retarget(engineReading, target, next?.[2]?.toLowerCase());
      const form = request === undefined ? undefined : (generated.get(request) as string | undefined);
      // The generator marks what it cannot generate (`#rojo`): the engine's word stays.
      if (!next || !form || !/^\p{L}+$/u.test(form)) return text;
      return `${next[1]}${matchCase(form, next[2]!)}${text.slice(next[0].length)}`;
    },
  };
}

/** The first installed analyser and generator pair of a language, looked up once per process. */
const toolsByLanguage = new Map<string, { analyser: string; generator: string } | undefined>();
function installedTools(language: string, rules: LanguageRules) {
  if (!toolsByLanguage.has(language)) {
    const tools = rules.tools
      .map((pair) => ({
        analyser: `${APERTIUM_DIR}/${pair.analyser}`,
        generator: `${APERTIUM_DIR}/${pair.generator}`,
      }))
      .find((pair) => existsSync(pair.analyser) && existsSync(pair.generator));
    toolsByLanguage.set(language, tools);
  }
  return toolsByLanguage.get(language);
}

function memoFor(tool: string): Map<string, WordReading | string | undefined> {
  let known = memo.get(tool);
  if (!known) {
    known = new Map();
    memo.set(tool, known);
  }
  return known;
}

function agreeDeterminer(before: string, to: Form, rules: LanguageRules): string {
  const last = LAST_WORD.exec(before);
  if (!last) return before;
  const word = last[2]!;
  const lower = word.toLowerCase();
  const head = before.slice(0, last.index + last[1]!.length);
  const articles = rules.determiners[0]!;
  // `del` / `al`: the preposition and the masculine singular article in one word.
  const contracted = Object.entries(rules.contractions).find(([, joined]) => joined === lower)?.[0];
  const forms = contracted ? articles : rules.determiners.find((group) => group.includes(lower));
  if (!forms) return before;
  const wanted = forms[formIndex(to)]!;
  if (contracted) return `${head}${matchCase(`${contracted} ${wanted}`, word)}${last[3]}`;
  if (forms === articles && formIndex(to) === 0) {
    // `de la` → `del` when the term is masculine singular.
    const preposition = LAST_WORD.exec(head);
    const joined = preposition && rules.contractions[preposition[2]!.toLowerCase()];
    if (preposition && joined) {
      const start = preposition.index + preposition[1]!.length;
      return `${head.slice(0, start)}${matchCase(joined, preposition[2]!)}${last[3]}`;
    }
  }
  return `${head}${matchCase(wanted, word)}${last[3]}`;
}

/** `replacement` with the first letter's case of `original` (`La` → `El`). */
function matchCase(replacement: string, original: string): string {
  const first = original[0]!;
  return first !== first.toLowerCase() ? replacement[0]!.toUpperCase() + replacement.slice(1) : replacement;
}
