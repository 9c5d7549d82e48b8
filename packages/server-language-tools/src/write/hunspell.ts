import { existsSync } from 'node:fs';
import { LineProcess } from './line-process.js';

/**
 * Spelling with the real Hunspell program (Debian `hunspell` and `hunspell-*` dictionaries) in its pipe
 * mode (`hunspell -a`): one long-lived process per language, started on first use. Each word goes on its
 * own line (prefixed `^` so nothing is read as a command); Hunspell answers each line, then a blank line.
 */

/** Write language → Hunspell dictionary name under /usr/share/hunspell. */
export const HUNSPELL_DICTIONARIES: Readonly<Record<string, string>> = {
  de: 'de_DE',
  es: 'es_ES',
  fr: 'fr_FR',
  it: 'it_IT',
  'pt-BR': 'pt_BR',
  'pt-PT': 'pt_PT',
};

const DICTIONARY_DIR = '/usr/share/hunspell';

export interface WordCheck {
  readonly correct: boolean;
  /** Hunspell's suggestions, best first (empty when correct or when it has none). */
  readonly suggestions: readonly string[];
}

const processes = new Map<string, LineProcess>();
const analysers = new Map<string, LineProcess>();

/** Whether Hunspell and the dictionary for `language` are installed. */
export function hasHunspell(language: string): boolean {
  const dictionary = HUNSPELL_DICTIONARIES[language];
  return (
    dictionary !== undefined &&
    existsSync(`${DICTIONARY_DIR}/${dictionary}.dic`) &&
    ['/usr/bin/hunspell', '/usr/local/bin/hunspell'].some((path) => existsSync(path))
  );
}

/** Checks words (each a single word, no whitespace) in `language`; one result per word, same order. */
export async function checkWords(language: string, words: readonly string[]): Promise<WordCheck[]> {
  if (words.length === 0) return [];
  const dictionary = HUNSPELL_DICTIONARIES[language];
  if (!dictionary) throw new RangeError(`No Hunspell dictionary for '${language}'.`);
  let process = processes.get(language);
  if (!process) {
    // `hunspell -a` starts with one banner line ("@(#) International Ispell ...").
    const args = ['-a', '-i', 'utf-8', '-d', dictionary];
    process = new LineProcess(`hunspell ${dictionary}`, 'hunspell', args, 30_000, 1);
    processes.set(language, process);
  }
  const input = `${words.map((word) => `^${word.replace(/\s+/g, '')}`).join('\n')}\n`;
  const lines = await process.request(
    input,
    (received) => received.filter((line) => line === '').length >= words.length,
  );
  const answers: WordCheck[] = [];
  let word: WordCheck | undefined;
  for (const line of lines) {
    if (line === '') {
      answers.push(word ?? { correct: true, suggestions: [] });
      word = undefined;
    } else if (line.startsWith('&')) {
      word = {
        correct: false,
        suggestions: line
          .slice(line.indexOf(':') + 1)
          .split(', ')
          .map((s) => s.trim()),
      };
    } else if (line.startsWith('#')) {
      word = { correct: false, suggestions: [] };
    } else if (!word) {
      // `*` (found), `+ ROOT` (found by affix), `-` (compound): correct.
      word = { correct: true, suggestions: [] };
    }
  }
  return answers;
}

/**
 * Hunspell's morphological analyses of words (`hunspell -m`): per word, one line per analysis, such as
 * `st:wunderbar fl:A` (the stem and the affix flags that made the form), empty for an unknown word. In the
 * German dictionary (igerman98) flag `A` declines an adjective and `C` makes its comparative; verbs and nouns
 * have flags of their own. `hunspell -m` buffers its output on a pipe: `stdbuf -oL` makes it answer each line.
 */
export async function analyseWords(language: string, words: readonly string[]): Promise<string[][]> {
  if (words.length === 0) return [];
  const dictionary = HUNSPELL_DICTIONARIES[language];
  if (!dictionary) throw new RangeError(`No Hunspell dictionary for '${language}'.`);
  let process = analysers.get(language);
  if (!process) {
    const args = ['-oL', 'hunspell', '-m', '-i', 'utf-8', '-d', dictionary];
    process = new LineProcess(`hunspell -m ${dictionary}`, 'stdbuf', args, 30_000);
    analysers.set(language, process);
  }
  // One word per line; `-m` answers each with its analyses (or the word alone when unknown), then a blank line.
  const input = `${words.map((word) => word.replace(/\s+/g, '')).join('\n')}\n`;
  const lines = await process.request(
    input,
    (received) => received.filter((line) => line === '').length >= words.length,
  );
  const answers: string[][] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line === '') {
      answers.push(current);
      current = [];
    } else {
      // `word  st:… fl:…`; an unknown word comes back alone, with no analysis.
      const space = line.indexOf(' ');
      if (space > 0) current.push(line.slice(space + 1).trim());
    }
  }
  return answers;
}

/** Stops every Hunspell process. */
export function closeHunspell(): void {
  for (const process of [...processes.values(), ...analysers.values()]) process.close();
  processes.clear();
  analysers.clear();
}
