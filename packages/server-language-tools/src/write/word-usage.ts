import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { withoutAccents } from './edits.js';

/**
 * How often people write each word: the 50,000 most frequent words of a language with their counts in
 * OpenSubtitles 2018 (FrequencyWords by Hermit Dave, content CC BY-SA 4.0; `data/frequency/README.md`).
 * Hunspell knows whether a word is spelled right, not which of its neighbours a writer meant: its affix
 * rules also make forms nobody writes ("verminter", "pianeggiava"), and its suggestions come in an order
 * that ignores how common each word is ("cadeto": "cadetto" before "caduto").
 */

/** Write language → frequency list under data/frequency. */
const LISTS: Readonly<Record<string, string>> = {
  de: 'de',
  es: 'es',
  it: 'it',
  'pt-BR': 'pt_br',
  'pt-PT': 'pt',
};

export type WordCounts = ReadonlyMap<string, number>;

const loading = new Map<string, Promise<WordCounts>>();
const unzip = promisify(gunzip);
/** List lines parsed at a time, with the event loop free between slices (a list is 50,000 lines). */
const SLICE_LINES = 2_000;

/** The word counts of `language` (lower-case words), or undefined when there is no list for it. */
export function wordCounts(language: string): Promise<WordCounts> | undefined {
  const list = LISTS[language];
  if (list === undefined) return undefined;
  let counts = loading.get(list);
  if (!counts) {
    counts = readFile(new URL(`../../data/frequency/${list}.txt.gz`, import.meta.url)).then(
      async (gzipped) => {
        const map = new Map<string, number>();
        const seen = new Set<string>();
        const letters = new Set<string>();
        const lines = (await unzip(gzipped)).toString('utf8').split('\n');
        for (let from = 0; from < lines.length; from += SLICE_LINES) {
          if (from > 0) await new Promise((resolve) => setImmediate(resolve));
          for (const line of lines.slice(from, from + SLICE_LINES)) {
            const space = line.lastIndexOf(' ');
            if (space <= 0) continue;
            const word = line.slice(0, space);
            map.set(word, Number(line.slice(space + 1)));
            for (const letter of word) {
              if (seen.has(letter)) continue;
              seen.add(letter);
              if (/\p{L}/u.test(letter)) letters.add(letter);
            }
          }
        }
        alphabets.set(map, [...letters]);
        return map;
      },
    );
    loading.set(list, counts);
  }
  return counts;
}

/**
 * Whether people's usage backs replacing `word` by `fix` (compared lower-case):
 * - the word as typed is not written twice as often as the fix: then it is a word of its own, or of
 *   another language ("como" in Italian is rarely "comò");
 * - a fix that changes letters, not only accents, must be a word people write (in the list), not a form
 *   only the dictionary's affix rules make ("vermiter" → "verminter"), and no other word one edit away
 *   from what was typed may be written three times as often as the fix: then what the writer meant is a
 *   guess ("cadeto": "cadetto" or "caduto"?). An accent left out is the typical slip, so a fix that only
 *   adds accents needs neither: "entregandose" → "entregándose" is right though that form is rare, and
 *   "dias" is "días", not "dios".
 * A fix that only changes capitals is not a question of usage (German nouns): always backed.
 */
export function usageBacksFix(word: string, fix: string, counts: WordCounts): boolean {
  const typed = word.toLowerCase();
  const fixed = fix.toLowerCase();
  if (typed === fixed) return true;
  const fixCount = counts.get(fixed) ?? 0;
  if ((counts.get(typed) ?? 0) >= 2 * Math.max(fixCount, 1)) return false;
  const fixLetters = withoutAccents(fixed);
  if (withoutAccents(typed) === fixLetters) return true;
  if (fixCount === 0) return false;
  for (const neighbour of oneEditAway(typed, alphabetOf(counts))) {
    if (withoutAccents(neighbour) !== fixLetters && (counts.get(neighbour) ?? 0) > 3 * fixCount) return false;
  }
  return true;
}

const alphabets = new WeakMap<WordCounts, readonly string[]>();

/** The letters the words of a list are written with (found as the list loads). */
function alphabetOf(counts: WordCounts): readonly string[] {
  let alphabet = alphabets.get(counts);
  if (!alphabet) {
    const letters = new Set<string>();
    for (const word of counts.keys())
      for (const letter of word) if (/\p{L}/u.test(letter)) letters.add(letter);
    alphabet = [...letters];
    alphabets.set(counts, alphabet);
  }
  return alphabet;
}

/** Every string one deletion, insertion, substitution or swap of neighbours away from `word`. */
function oneEditAway(word: string, alphabet: readonly string[]): Set<string> {
  const letters = Array.from(word);
  const found = new Set<string>();
  for (let index = 0; index <= letters.length; index++) {
    const before = letters.slice(0, index).join('');
    const rest = letters.slice(index);
    const after = rest.slice(1).join('');
    if (rest.length > 0) found.add(before + after);
    if (rest.length > 1) found.add(before + rest[1] + rest[0] + rest.slice(2).join(''));
    for (const letter of alphabet) {
      found.add(before + letter + rest.join(''));
      if (rest.length > 0) found.add(before + letter + after);
    }
  }
  found.delete(word);
  return found;
}
