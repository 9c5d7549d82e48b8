/**
 * Glossary matching benchmark: locking the terms of a 10,000-entry glossary in 10,000 sentences with the
 * character trie (`TermMatcher` + `lockTerms`), against a baseline measured in the same run: one
 * case-insensitive word-boundary regular expression per entry, tried on each sentence.
 *   pnpm --filter @glossa/server bench:glossary
 */
import { lockTerms } from '../src/glossaries/lock.js';
import { TermMatcher } from '../src/glossaries/matcher.js';

const ENTRIES = 10_000;
const SENTENCES = 10_000;
let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const WORDS = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);
const word = () => WORDS[Math.floor(WORDS.length * random())]!;
const entries = Array.from({ length: ENTRIES }, (_, i) => ({
  source: i % 3 === 0 ? `${word()} ${word()}` : word(),
  target: `t${i}`,
}));
const unique = [...new Map(entries.map((entry) => [entry.source, entry])).values()];
const sentences = Array.from({ length: SENTENCES }, () => `${Array.from({ length: 12 }, word).join(' ')}.`);

let started = performance.now();
const matcher = new TermMatcher(unique);
const buildMs = performance.now() - started;
started = performance.now();
let locked = 0;
for (const sentence of sentences) if (lockTerms(sentence, false, [matcher]).locked) locked++;
const trieMs = performance.now() - started;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patterns = unique.map(
  (entry) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(entry.source)}(?![\\p{L}\\p{N}])`, 'iu'),
);
const sample = sentences.slice(0, 50);
started = performance.now();
let naiveLocked = 0;
for (const sentence of sample) if (patterns.some((pattern) => pattern.test(sentence))) naiveLocked++;
const naivePerSentence = (performance.now() - started) / sample.length;
const triePerSentence = trieMs / SENTENCES;

console.log(`glossary of ${unique.length} entries, ${SENTENCES} sentences of 12 words`);
console.log(
  `trie build: ${buildMs.toFixed(1)} ms; lock: ${(triePerSentence * 1000).toFixed(1)} µs per sentence (${locked} with a term)`,
);
console.log(
  `baseline regex per entry: ${(naivePerSentence * 1000).toFixed(1)} µs per sentence (${naiveLocked}/${sample.length} with a term); trie is ${(naivePerSentence / triePerSentence).toFixed(0)}× faster`,
);
