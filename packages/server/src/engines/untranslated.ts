/**
 * A text an engine returned unchanged because it did not know a word ("Budgeted", "Admin" through Apertium)
 * is untranslated, unlike a name kept on purpose ("GitHub", "Excalidraw", "navbar"). The engine says which
 * words it did not know (`unknownWords`); the source language's dictionary says which of them are ordinary
 * words: one whose lower-case form it accepts ("budgeted") is; one it only knows capitalized ("GitHub") or
 * not at all ("excalidraw") is taken for a name, as is a capitalized word inside a sentence ("the Markdown
 * file"). Judged where a dictionary is installed: English, Spanish and French sources (Hunspell's word
 * lists from npm through nspell, each loaded on the first text in its language: about 0.3 s and 35 MB for
 * English).
 */
import { baseLanguage } from '@glossa/protocol';
import { type LanguagePair, type TranslationEngine, words } from './engine.js';

type Speller = { correct(word: string): boolean };

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

const spellers = new Map<string, Promise<Speller>>();

function spellerFor(language: string): Promise<Speller> | undefined {
  const load = DICTIONARIES[language];
  if (!load) return undefined;
  let speller = spellers.get(language);
  if (!speller) {
    speller = Promise.all([import('nspell'), load()]).then(([{ default: nspell }, dictionary]) =>
      nspell({ aff: Buffer.from(dictionary.aff), dic: Buffer.from(dictionary.dic) }),
    );
    spellers.set(language, speller);
  }
  return speller;
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
  const dictionary = await speller;
  const ordinary = [...new Set(shaped.filter((word) => dictionary.correct(word.toLowerCase())))];
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
  if (!DICTIONARIES[from]) return undefined;
  // Only words that are in the output as they were in the source can have been left: most translated
  // segments have none, and then the source analyser is not asked.
  const kept = new Set(Array.from(translated.matchAll(/[\p{L}\p{N}]+/gu), (match) => match[0]));
  const candidates = new Set([...ordinaryShaped(text)].filter((word) => kept.has(word)));
  if (candidates.size === 0) return undefined;
  const unknown = (await engine.unknownWords(pair, text)) ?? [];
  const shaped = unknown.filter((word) => candidates.has(word));
  if (shaped.length === 0) return undefined;
  const dictionary = await spellerFor(from)!;
  const ordinary = [...new Set(shaped.filter((word) => dictionary.correct(word.toLowerCase())))];
  return ordinary.length > 0 ? ordinary : undefined;
}
