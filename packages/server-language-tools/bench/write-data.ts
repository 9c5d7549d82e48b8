/** Labelled sets of the write benchmark: hand-written flawed/expected pairs, and typos seeded into clean text. */
import { readFileSync } from 'node:fs';
import { checkWords } from '../src/write/hunspell.js';

export interface LabelledSentence {
  readonly flawed: string;
  readonly expected: string;
}

function lines(name: string): string[] {
  return readFileSync(new URL(`data/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** `flawed<TAB>expected` lines. */
export function readPairs(name: string): LabelledSentence[] {
  return lines(name).map((line) => {
    const [flawed, expected] = line.split('\t') as [string, string];
    return { flawed, expected };
  });
}

/** A small deterministic generator (mulberry32), so every run seeds the same typos. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPOS = [
  (w: string, i: number) => w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2), // swap neighbours
  (w: string, i: number) => w.slice(0, i) + w.slice(i + 1), // drop a letter
  (w: string, i: number) => w.slice(0, i) + w[i] + w.slice(i), // double a letter
  (w: string, i: number) => w.slice(0, i) + ('aeiou'.replace(w[i]!, '')[i % 4] ?? 'e') + w.slice(i + 1), // vowel
];

/**
 * One typo per clean sentence, in a word of five letters or more, chosen by a seeded generator; a typo that
 * happens to make another real word (per Hunspell) is replaced by the next kind.
 */
export async function seededTypos(name: string, language: string, seed = 42): Promise<LabelledSentence[]> {
  const next = random(seed);
  const result: LabelledSentence[] = [];
  for (const sentence of lines(name)) {
    const words = [...sentence.matchAll(/\p{L}{5,}/gu)];
    const match = words[Math.floor(next() * words.length)]!;
    const word = match[0];
    const position = 1 + Math.floor(next() * (word.length - 3));
    let typo = word;
    for (let attempt = 0; attempt < TYPOS.length; attempt++) {
      const candidate = TYPOS[(Math.floor(next() * TYPOS.length) + attempt) % TYPOS.length]!(word, position);
      if (candidate === word) continue;
      const [check] = await checkWords(language, [candidate]);
      if (!check!.correct) {
        typo = candidate;
        break;
      }
    }
    const flawed = sentence.slice(0, match.index) + typo + sentence.slice(match.index + word.length);
    result.push({ flawed, expected: sentence });
  }
  return result;
}
