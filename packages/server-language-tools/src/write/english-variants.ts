import nspell from 'nspell';
import type { EnglishDialect } from './harper.js';

/**
 * American ↔ British spelling, decided by the two Hunspell dictionaries of the `dictionary-en` (American)
 * and `dictionary-en-gb` (British) npm packages, read with nspell: a word the target dialect's dictionary
 * rejects but the other accepts is replaced by the first candidate from the regular correspondences
 * (-or/-our, -er/-re, -ize/-ise, -yze/-yse, -og/-ogue, -ense/-ence, doubled l, gray/grey...) that the target
 * dictionary accepts. Nothing else is changed: vocabulary (truck/lorry) is not spelling.
 */

type Speller = ReturnType<typeof nspell>;
let spellers: Promise<Record<EnglishDialect, Speller>> | undefined;
let loaded: Record<EnglishDialect, Speller> | undefined;

/**
 * Loads both dictionaries (once: at the feature's warm-up, or on first use), each built in slices with the
 * event loop free between them (`buildSpeller`).
 */
export function loadEnglishSpellers(): Promise<Record<EnglishDialect, Speller>> {
  spellers ??= Promise.all([import('dictionary-en'), import('dictionary-en-gb')]).then(
    async ([american, british]) => {
      loaded = {
        'en-US': await buildSpeller(american.default),
        'en-GB': await buildSpeller(british.default),
      };
      return loaded;
    },
  );
  return spellers;
}

/** Dictionary lines parsed at a time (some 15 ms on an idle core). */
const SLICE_LINES = 500;

/**
 * The speller `nspell(aff, dic)` makes, built `SLICE_LINES` lines of the dictionary at a time with the event
 * loop free between slices: nspell parses en_US's 550 KB at once, which held the loop 1.7 s (2.7 s for both
 * dialects on a loaded machine) while other clients waited. The lines are added in the same order and the
 * compound rules (ordinals: `21st`) are compiled from all of them after each slice, as nspell does after its
 * single one, so the result is the same (test/english-spellers.test.ts).
 */
export async function buildSpeller({ aff, dic }: { aff: Uint8Array; dic: Uint8Array }): Promise<Speller> {
  const speller = nspell(Buffer.from(aff));
  // nspell keeps the compound rules as strings until a dictionary is added, then as RegExps made from them.
  const internals = speller as unknown as { compoundRules: (string | RegExp)[] };
  const rules = [...internals.compoundRules];
  const text = Buffer.from(dic).toString('utf8');
  // The first line is the count of entries, which nspell skips (as it skips the first line of every add).
  let start = text.indexOf('\n') + 1;
  while (start < text.length) {
    let end = start;
    for (let line = 0; line < SLICE_LINES && end !== -1; line++) {
      end = text.indexOf('\n', end);
      if (end !== -1 && line < SLICE_LINES - 1) end++;
    }
    const slice = end === -1 ? text.slice(start) : text.slice(start, end);
    internals.compoundRules = [...rules];
    speller.dictionary(`\n${slice}`);
    if (end === -1) break;
    start = end + 1;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return speller;
}

function speller(dialect: EnglishDialect): Speller {
  if (!loaded) throw new Error('English dictionaries not loaded: await loadEnglishSpellers() first.');
  return loaded[dialect];
}

/** Regular American → British correspondences, as [American, British] patterns on the word. */
const CORRESPONDENCES: readonly (readonly [RegExp, string, RegExp, string])[] = [
  [/or(s?)$/, 'our$1', /our(s?)$/, 'or$1'],
  [/or(ed|ing|ful|ite|ites|ful|able)$/, 'our$1', /our(ed|ing|ful|ite|ites|able)$/, 'or$1'],
  [/er(s?)$/, 're$1', /re(s?)$/, 'er$1'],
  [/iz(e|es|ed|ing|ation|ations|er|ers)$/, 'is$1', /is(e|es|ed|ing|ation|ations|er|ers)$/, 'iz$1'],
  [/yz(e|es|ed|ing)$/, 'ys$1', /ys(e|es|ed|ing)$/, 'yz$1'],
  [/og(s?)$/, 'ogue$1', /ogue(s?)$/, 'og$1'],
  [/ense(s?)$/, 'ence$1', /ence(s?)$/, 'ense$1'],
  [/([aeiou])l(ed|ing|er|ers)$/, '$1ll$2', /([aeiou])ll(ed|ing|er|ers)$/, '$1l$2'],
  [/^gray/, 'grey', /^grey/, 'gray'],
  [/^program(s?)$/, 'programme$1', /^programme(s?)$/, 'program$1'],
];

/** Converts every word of `text` written in the other dialect's spelling. */
export function convertSpellingVariants(text: string, target: EnglishDialect): string {
  return text.replace(/\p{L}+/gu, (word) => spellingVariant(word, target) ?? word);
}

/** The target dialect's spelling of a word written in the other dialect, or undefined. */
export function spellingVariant(word: string, target: EnglishDialect): string | undefined {
  const other: EnglishDialect = target === 'en-GB' ? 'en-US' : 'en-GB';
  const lower = word.toLowerCase();
  if (speller(target).correct(lower) || !speller(other).correct(lower)) return undefined;
  for (const [american, british, britishPattern, americanForm] of CORRESPONDENCES) {
    const candidate =
      target === 'en-GB' ? lower.replace(american, british) : lower.replace(britishPattern, americanForm);
    if (candidate !== lower && speller(target).correct(candidate)) return restoreCase(word, candidate);
  }
  return undefined;
}

function restoreCase(original: string, replacement: string): string {
  if (original === original.toUpperCase()) return replacement.toUpperCase();
  if (original[0] === original[0]?.toUpperCase()) return replacement[0]!.toUpperCase() + replacement.slice(1);
  return replacement;
}

/** Whether the dialect's Hunspell dictionary accepts the word (as written, or lower-cased). */
export function isEnglishWord(word: string, dialect: EnglishDialect): boolean {
  return speller(dialect).correct(word) || speller(dialect).correct(word.toLowerCase());
}

/** The dialect's Hunspell dictionary's suggestions for a word (nspell), best first; empty for a known word. */
export function hunspellSuggestions(word: string, dialect: EnglishDialect): string[] {
  const dictionary = speller(dialect);
  return dictionary.correct(word) ? [] : dictionary.suggest(word);
}

/** Whether the dialect's Hunspell dictionary knows the word. */
export function isDictionaryWord(word: string, dialect: EnglishDialect): boolean {
  return speller(dialect).correct(word);
}
