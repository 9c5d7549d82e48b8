/**
 * A text an engine returned unchanged because it did not know a word ("Budgeted", "Admin" through Apertium)
 * is untranslated, unlike a name kept on purpose ("GitHub", "Excalidraw", "navbar"). The engine says which
 * words it did not know (`unknownWords`); the source language's dictionary says which of them are ordinary
 * words: one whose lower-case form it accepts ("budgeted") is; one it only knows capitalized ("GitHub") or
 * not at all ("excalidraw") is taken for a name, as is a capitalized word inside a sentence ("the Markdown
 * file"). Judged where a dictionary is installed: English, Spanish and French sources (Hunspell's word
 * lists from npm through nspell, each loaded on the first text in its language: about 0.3 s and 35 MB for
 * English); Catalan and Portuguese sources through the Hunspell program and Debian's dictionaries
 * (`hunspell-ca`, `hunspell-pt-pt`), one short run per check: nspell had loaded neither dictionary-ca nor
 * dictionary-pt after 300 s (1.3 GB each), the program answers in 0.2 s (pt_PT) to 0.6 s (ca). Italian has
 * no dictionary here: dictionary-it is GPL-3.0 only.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { baseLanguage } from '@glossa/protocol';
import { type LanguagePair, type TranslationEngine, words } from './engine.js';

/** Which of the words (lower case) the source language's dictionary accepts. */
type Speller = { accepts(words: readonly string[]): Promise<Set<string>> };

type Dictionary = { aff: Uint8Array; dic: Uint8Array };

/** Hunspell dictionaries from npm (wooorm/dictionaries), by source language; each loaded on first use. */
const DICTIONARIES: Record<string, () => Promise<Dictionary>> = {
  en: async () => (await import('dictionary-en')).default,
  // dictionary-es 3 answers through a callback; later majors of the set export the data.
  es: async () => {
    const load = (await import('dictionary-es')).default;
    return new Promise<Dictionary>((resolve, reject) =>
      load((error, dictionary) => (error ? reject(error) : resolve(dictionary))),
    );
  },
  fr: async () => (await import('dictionary-fr')).default,
};

/** Debian's Hunspell dictionaries (under /usr/share/hunspell), by source language, read by the program. */
const HUNSPELL_DICTIONARIES: Record<string, string> = { ca: 'ca', pt: 'pt_PT' };
const HUNSPELL_DIR = '/usr/share/hunspell';

/** The Hunspell program with `dictionary`, once per call: `-l` prints the words it does not accept. */
function hunspellSpeller(dictionary: string): Speller {
  return {
    accepts: (list) =>
      new Promise((resolve, reject) => {
        const child = execFile(
          'hunspell',
          ['-i', 'utf-8', '-d', `${HUNSPELL_DIR}/${dictionary}`, '-l'],
          { timeout: 30_000 },
          (error, stdout) => {
            if (error) return reject(error);
            const rejected = new Set(stdout.split('\n'));
            resolve(new Set(list.filter((word) => !rejected.has(word))));
          },
        );
        child.stdin?.end(`${list.join('\n')}\n`);
      }),
  };
}

/** Whether `language` has a dictionary here (npm's, or Debian's with the Hunspell program installed). */
function hasDictionary(language: string): boolean {
  if (DICTIONARIES[language]) return true;
  const dictionary = HUNSPELL_DICTIONARIES[language];
  return (
    dictionary !== undefined &&
    existsSync(`${HUNSPELL_DIR}/${dictionary}.dic`) &&
    ['/usr/bin/hunspell', '/usr/local/bin/hunspell'].some((path) => existsSync(path))
  );
}

const spellers = new Map<string, Promise<Speller>>();

function spellerFor(language: string): Promise<Speller> | undefined {
  if (!hasDictionary(language)) return undefined;
  let speller = spellers.get(language);
  if (!speller) {
    const load = DICTIONARIES[language];
    speller = load
      ? Promise.all([import('nspell'), load()]).then(([{ default: nspell }, dictionary]) => {
          const spell = nspell({ aff: Buffer.from(dictionary.aff), dic: Buffer.from(dictionary.dic) });
          return { accepts: async (list) => new Set(list.filter((word) => spell.correct(word))) };
        })
      : Promise.resolve(hunspellSpeller(HUNSPELL_DICTIONARIES[language]!));
    spellers.set(language, speller);
  }
  return speller;
}

/** The words of `shaped` whose lower-case form the speller accepts: ordinary words, not names. */
async function ordinaryWords(speller: Speller, shaped: readonly string[]): Promise<string[]> {
  const unique = [...new Set(shaped)];
  const accepted = await speller.accepts([...new Set(unique.map((word) => word.toLowerCase()))]);
  return unique.filter((word) => accepted.has(word.toLowerCase()));
}

/**
 * The words of `text` that can be ordinary ones: letters only, lower case, or capitalized where a sentence
 * starts. A capital inside a sentence makes a name ("the Markdown file", "Open Excalidraw"), as a capital
 * inside a word does ("GitHub").
 */
function ordinaryShaped(text: string): Set<string> {
  const shaped = new Set<string>();
  let end = 0;
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    // What lies between the previous word and this one: nothing but spaces before the first word, or a
    // sentence's end, starts a sentence.
    const gap = text.slice(end, match.index);
    const startsSentence = end === 0 ? gap.trim() === '' : /[.!?:;…]\s*$/u.test(gap);
    end = match.index + word.length;
    if (/^\p{Ll}+$/u.test(word) || (startsSentence && /^\p{Lu}\p{Ll}+$/u.test(word))) shaped.add(word);
  }
  return shaped;
}

/**
 * Why `output` is the untranslated `source`, or undefined: it is not the source unchanged, the languages
 * are the same, the engine cannot tell its unknown words, or none of them is an ordinary word.
 */
export async function untranslatedWords(
  engine: TranslationEngine,
  pair: LanguagePair,
  source: string,
  output: string,
): Promise<string | undefined> {
  if (!engine.unknownWords) return undefined;
  const from = baseLanguage(pair.source).toLowerCase();
  if (from === baseLanguage(pair.target).toLowerCase()) return undefined;
  const text = words(source);
  if (text === '' || words(output) !== text) return undefined;
  const speller = spellerFor(from);
  if (!speller) return undefined;
  const candidates = ordinaryShaped(text);
  if (candidates.size === 0) return undefined;
  const unknown = (await engine.unknownWords(pair, text)) ?? [];
  const shaped = unknown.filter((word) => candidates.has(word));
  if (shaped.length === 0) return undefined;
  const ordinary = await ordinaryWords(await speller, shaped);
  if (ordinary.length === 0) return undefined;
  const list = ordinary.map((word) => `"${word}"`).join(', ');
  return `came back unchanged: ${list} ${ordinary.length === 1 ? 'is' : 'are'} not in the engine's dictionary (a name or a term kept on purpose goes in doNotTranslate)`;
}

/**
 * The ordinary words the engine did not know and left in the source language inside an output it otherwise
 * translated ("Open the color picker." → "Abierto el color picker."), or undefined: the output is the
 * source unchanged (`untranslatedWords` judges that), or no such word is left. Names are not judged, as above.
 */
export async function leftWords(
  engine: TranslationEngine,
  pair: LanguagePair,
  source: string,
  output: string,
): Promise<string[] | undefined> {
  if (!engine.unknownWords) return undefined;
  const from = baseLanguage(pair.source).toLowerCase();
  if (from === baseLanguage(pair.target).toLowerCase()) return undefined;
  const text = words(source);
  const translated = words(output);
  if (text === '' || translated === text) return undefined;
  // The dictionary is loaded only once a word needs it (most sentences have none the engine missed).
  if (!hasDictionary(from)) return undefined;
  // Only words that are in the output as they were in the source can have been left: most translated
  // segments have none, and then the source analyser is not asked.
  const kept = new Set(Array.from(translated.matchAll(/[\p{L}\p{N}]+/gu), (match) => match[0]));
  const candidates = new Set([...ordinaryShaped(text)].filter((word) => kept.has(word)));
  if (candidates.size === 0) return undefined;
  const unknown = (await engine.unknownWords(pair, text)) ?? [];
  const shaped = unknown.filter((word) => candidates.has(word));
  if (shaped.length === 0) return undefined;
  const ordinary = await ordinaryWords(await spellerFor(from)!, shaped);
  return ordinary.length > 0 ? ordinary : undefined;
}
