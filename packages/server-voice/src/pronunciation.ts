/**
 * Pronunciations of spoken terms for the recognizer's dictionary: Debian's `espeak-ng` (US English voice)
 * gives each word's IPA, and a table maps IPA to the ARPAbet phones of the pocketsphinx en-us model
 * (the CMU dictionary's 39 phones). Words the dictionary already has keep their own pronunciations (the
 * recognizer helper adds only the missing ones).
 */
import { spawn } from 'node:child_process';

/** IPA (as espeak-ng writes it for en-us) → ARPAbet; longest symbols first when reading. */
const IPA_TO_ARPABET: Record<string, string> = {
  // Diphthongs and affricates first (two symbols, one phone).
  eɪ: 'EY',
  aɪ: 'AY',
  aʊ: 'AW',
  oʊ: 'OW',
  əʊ: 'OW',
  ɔɪ: 'OY',
  tʃ: 'CH',
  dʒ: 'JH',
  // An r-coloured vowel espeak-ng follows with its r: one ER.
  ɚɹ: 'ER',
  ɜɹ: 'ER',
  // Syllabic consonants: a reduced vowel, then the consonant.
  n̩: 'AH N',
  l̩: 'AH L',
  m̩: 'AH M',
  // Vowels.
  æ: 'AE',
  a: 'AE',
  ɑ: 'AA',
  ɒ: 'AA',
  ɔ: 'AO',
  o: 'OW',
  ʌ: 'AH',
  ə: 'AH',
  ɐ: 'AH',
  ɚ: 'ER',
  ɜ: 'ER',
  ɝ: 'ER',
  ɛ: 'EH',
  e: 'EH',
  ɪ: 'IH',
  ᵻ: 'IH',
  i: 'IY',
  ʊ: 'UH',
  u: 'UW',
  // Consonants.
  p: 'P',
  b: 'B',
  t: 'T',
  d: 'D',
  k: 'K',
  ɡ: 'G',
  g: 'G',
  f: 'F',
  v: 'V',
  θ: 'TH',
  ð: 'DH',
  s: 'S',
  z: 'Z',
  ʃ: 'SH',
  ʒ: 'ZH',
  h: 'HH',
  m: 'M',
  n: 'N',
  ŋ: 'NG',
  l: 'L',
  ɫ: 'L',
  ɹ: 'R',
  r: 'R',
  j: 'Y',
  w: 'W',
  ɾ: 'T',
  ʔ: 'T',
  x: 'K',
};
const SYMBOLS = Object.keys(IPA_TO_ARPABET).sort((a, b) => b.length - a.length);
/** Stress, length and linking marks carry no phone of their own. */
const IGNORED = /[ˈˌːˑ‿\-.\s]/gu;

/** ARPAbet phones of an IPA transcription (symbols without a phone are skipped). */
export function ipaToArpabet(ipa: string): string {
  const text = ipa.normalize('NFD').replace(IGNORED, '');
  const phones: string[] = [];
  for (let i = 0; i < text.length; ) {
    const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, i));
    if (symbol) {
      phones.push(IPA_TO_ARPABET[symbol]!);
      i += symbol.length;
    } else i++;
  }
  return phones.join(' ');
}

/** Words of spoken terms the English model can take: lower-case letters and apostrophes. */
export function termWords(terms: readonly string[]): string[] {
  const words = new Set<string>();
  for (const term of terms) {
    for (const word of term.toLowerCase().split(/\s+/)) if (/^[a-z][a-z']*$/.test(word)) words.add(word);
  }
  return [...words];
}

/** IPA of each word from one `espeak-ng` run (one clause, so one output line, per word). */
function espeakIpa(words: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('espeak-ng', ['-q', '--ipa', '-v', 'en-us', '--stdin'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`espeak-ng exited ${code}.`));
      else
        resolve(
          output
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        );
    });
    child.stdin.on('error', () => {});
    child.stdin.end(words.map((word) => `${word}.\n`).join(''));
  });
}

const cache = new Map<string, string>();
const CACHE_SIZE = 20_000;

/** `[word, phones]` for each word (the recognizer adds those its dictionary lacks). */
export async function pronunciations(words: readonly string[]): Promise<[string, string][]> {
  const missing = words.filter((word) => !cache.has(word));
  if (missing.length > 0) {
    let lines = await espeakIpa(missing);
    // A word espeak-ng split into several clauses: ask for each word on its own.
    if (lines.length !== missing.length)
      lines = await Promise.all(missing.map(async (word) => (await espeakIpa([word])).join(' ')));
    missing.forEach((word, index) => {
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(word, ipaToArpabet(lines[index] ?? ''));
    });
  }
  return words.flatMap((word) => {
    const phones = cache.get(word);
    return phones ? [[word, phones] as [string, string]] : [];
  });
}
