import {
  applyEdits,
  confidentSpellingFix,
  type Edit,
  editDistance,
  startsSentence,
  withoutAccents,
} from './edits.js';
import {
  convertSpellingVariants,
  hunspellSuggestions,
  isDictionaryWord,
  loadEnglishSpellers,
  spellingVariant,
} from './english-variants.js';
import { type EnglishDialect, type EnglishLint, lintEnglish } from './harper.js';

/** Harper lint kinds whose first suggestion `correct` applies. Style, Readability, Enhancement and the like are
 * suggestions, not corrections; Regionalism and WordOrder change wording. */
const CORRECTION_KINDS = new Set([
  'Agreement',
  'BoundaryError',
  'Capitalization',
  'Eggcorn',
  'Formatting',
  'Grammar',
  'Malapropism',
  'Miscellaneous',
  'Nonstandard',
  'Punctuation',
  'Redundancy',
  'Repetition',
  'Spelling',
  'Typo',
  'Usage',
  'WordChoice',
]);

/**
 * Agreement errors Harper does not catch, each certain in any context: a singular subject with `are`,
 * a plural one with `is`, `I is`.
 */
const AGREEMENT_RULES: readonly (readonly [RegExp, string])[] = [
  [/\b(this|it|he|she) are\b/giu, '$1 is'],
  [/\b(they|we|you) is\b/giu, '$1 are'],
  [/\bI is\b/gu, 'I am'],
  [/\b(this|it|he|she) were\b(?! (?:to|not|I|you|he|she|we|they)\b)/giu, '$1 was'],
  [/\b(there) is (many|several|two|three|four|five|six|seven|eight|nine|ten|few) /giu, '$1 are $2 '],
  [/\b(y)our welcome\b/giu, "$1ou're welcome"],
];

/**
 * Corrects English text: Harper's confident fixes (two passes, so a fix that reveals another is followed),
 * then the agreement rules above. In the given dialect, the other dialect's spellings (`color` in en-GB)
 * are converted.
 */
export async function correctEnglish(text: string, dialect: EnglishDialect): Promise<string> {
  await loadEnglishSpellers();
  let current = text;
  for (let pass = 0; pass < 2; pass++) {
    const lints = await lintEnglish(current, dialect);
    const edits = lints.flatMap((lint) => editFor(current, lint, dialect) ?? []);
    if (edits.length === 0) break;
    current = applyEdits(current, edits);
  }
  for (const [pattern, replacement] of AGREEMENT_RULES) current = current.replace(pattern, replacement);
  return convertSpellingVariants(current, dialect);
}

/** Words run together that are known to be two ("alot" → "a lot"): the only splits `correct` makes, besides
 * a leading "a" or "I" ("alecture" → "a lecture"). */
const KNOWN_SPLITS = new Set([
  'alot',
  'infact',
  'eachother',
  'aswell',
  'atleast',
  'inspite',
  'incase',
  'forexample',
  'noone',
  'thankyou',
  'alittle',
  'aswell',
  'inorder',
]);

/** Words an indefinite article does not stand before: "a everything" is not fixed by "an everything". */
const NO_ARTICLE = new Set(
  'everything everyone everybody anything anyone anybody each every all any other others own only'.split(' '),
);

function editFor(text: string, lint: EnglishLint, dialect: EnglishDialect): Edit | undefined {
  if (!CORRECTION_KINDS.has(lint.kind)) return undefined;
  // Acronyms (ASAP, NASA) are the writer's choice, not an error.
  if (/^\p{Lu}{2,}$/u.test(lint.problem)) return undefined;
  const suggestion = lint.suggestions[0];
  if (!suggestion) return undefined;
  // Insertions only of punctuation inside the sentence (a missing comma), never of words ("" → "be").
  if (suggestion.kind === 'insert_after') {
    return /^[,;:]$/u.test(suggestion.text.trim())
      ? { start: lint.end, end: lint.end, replacement: suggestion.text }
      : undefined;
  }
  if (suggestion.kind === 'remove') {
    // Only a repeated word is removed ("the the"); other removals change what the writer said.
    return isRepeated(text, lint) ? { start: lint.start, end: lint.end, replacement: '' } : undefined;
  }
  if (!keepsWords(lint.problem, suggestion.text)) return undefined;
  // A name is never renamed ("Turkey" → "Türkiye", "Bangalore" → "Bengaluru"); only its case may change. At
  // a sentence start a capital says nothing, but the replacement must then be a word, not a name ("Their" →
  // "They're").
  const capitalized = /^\p{Lu}/u.test(lint.problem);
  if (capitalized && suggestion.text.toLowerCase() !== lint.problem.toLowerCase()) {
    if (
      !startsSentence(text, lint.start) ||
      !isDictionaryWord(suggestion.text.toLowerCase().replace(/['’].*$/u, ''), dialect)
    ) {
      return undefined;
    }
  }
  // "a everything": the article is not what is wrong.
  if (/^an?$/i.test(lint.problem) && /^an?$/i.test(suggestion.text)) {
    const next = Array.from(text)
      .slice(lint.end)
      .join('')
      .match(/^\s*(\p{L}+)/u)?.[1]
      ?.toLowerCase();
    if (next !== undefined && NO_ARTICLE.has(next)) return undefined;
  }
  // A verb made to agree with "you" or "it" is only right when the pronoun is the subject; both are objects
  // too ("show you skills" is not "you skill"). Only where the pronoun starts the clause.
  if (lint.kind === 'Agreement' && /pronoun/i.test(lint.message) && !pronounStartsClause(text, lint.start))
    return undefined;
  // Two full stops are a typo for one, not an ellipsis.
  if (suggestion.text.includes('…') || /^\.{2,}$/u.test(suggestion.text.trim())) return undefined;
  if (lint.kind !== 'Spelling') {
    // A word replaced by another word is the same word inflected ("become" → "becomes"), not a different
    // word ("distent" → "intent", "believe" → "belief").
    const single = !/\s/u.test(lint.problem.trim()) && !/\s/u.test(suggestion.text.trim());
    if (single && /\p{L}/u.test(lint.problem) && !/^an?$/i.test(lint.problem)) {
      const from = withoutAccents(lint.problem);
      const to = withoutAccents(suggestion.text);
      // Case, accents, an ending or a contraction ("become" → "becomes", "Their" → "They're"); anything
      // else is a different word.
      if (from !== to && !from.startsWith(to) && !to.startsWith(from) && !/['’]/u.test(from + to)) {
        if (lint.kind !== 'Typo' || editDistance(from, to) > 1 || from.charAt(0) !== to.charAt(0))
          return undefined;
        // Short words have too many neighbours ("te": "to", "the", "tea"), as for spelling: only two letters
        // swapped ("teh" → "the").
        if (Array.from(from).length < 4 && !(from.length === to.length && editDistance(from, to) === 1))
          return undefined;
      }
    }
    return { start: lint.start, end: lint.end, replacement: suggestion.text };
  }
  const word = lint.problem;
  const variant = spellingVariant(word, dialect);
  if (variant) return { start: lint.start, end: lint.end, replacement: variant };
  // A capitalized word inside a sentence is most likely a name, all capitals an acronym: left alone.
  if (/\d/.test(word) || (word.length > 1 && word === word.toUpperCase())) return undefined;
  if (word[0] !== word[0]?.toLowerCase() && !startsSentence(text, lint.start)) return undefined;
  // Harper's suggestions and the English Hunspell dictionary's together: a fix is confident only when no
  // other word of either is as close ("studing": "studding" and "studying") and both put it first.
  const harperFix = confidentSpellingFix(
    word,
    lint.suggestions.map((s) => s.text),
  );
  const dictionary = harperFix === undefined ? [] : hunspellSuggestions(word, dialect);
  const fix =
    harperFix &&
    // The English Hunspell dictionary's first choice must be the same word ("Becaus": not "Beaus").
    (dictionary.length === 0 || dictionary[0]!.toLowerCase() === harperFix.toLowerCase()
      ? confidentSpellingFix(word, [...new Set([...lint.suggestions.map((s) => s.text), ...dictionary])])
      : undefined);
  return fix === undefined ? undefined : { start: lint.start, end: lint.end, replacement: fix };
}

/**
 * Whether a replacement keeps the words a writer wrote as words: one word is not split into two real ones
 * ("successfull" → "success full", "favorit" → "favor it") unless it is a known run-together or a leading
 * "a"/"I" ("alecture" → "a lecture"), and two words are not joined into one ("car go" → "cargo").
 */
function keepsWords(problem: string, replacement: string): boolean {
  const words = problem.trim().toLowerCase().split(/\s+/u);
  // A repeated word once ("the the" → "the").
  if (
    words.length > 1 &&
    words.every((word) => word === words[0]) &&
    replacement.trim().toLowerCase() === words[0]
  ) {
    return true;
  }
  const problemWords = words.length;
  const replacementWords = replacement.trim().split(/\s+/u).length;
  if (replacementWords === problemWords) return true;
  if (replacementWords < problemWords) return false;
  if (problemWords === 1 && KNOWN_SPLITS.has(problem.toLowerCase())) return true;
  const parts = replacement.trim().split(/\s+/u);
  return problemWords === 1 && parts.length === 2 && /^(?:a|I)$/i.test(parts[0]!) && parts[1]!.length >= 4;
}

/** Whether the lint's text repeats the word right before or after it. */
function isRepeated(text: string, lint: EnglishLint): boolean {
  const chars = Array.from(text);
  const removed = lint.problem.trim().toLowerCase();
  if (removed === '') return true;
  const before = chars
    .slice(0, lint.start)
    .join('')
    .match(/(\p{L}+)\W*$/u)?.[1]
    ?.toLowerCase();
  const after = chars
    .slice(lint.end)
    .join('')
    .match(/^\W*(\p{L}+)/u)?.[1]
    ?.toLowerCase();
  return removed === before || removed === after || /^[\s\p{P}]+$/u.test(removed);
}

/** Words after which a pronoun starts a clause (and so is its subject). */
const CLAUSE_OPENERS = new Set(
  'and but or so because if when whenever while although though that then since unless until where as once'.split(
    ' ',
  ),
);

/**
 * Whether the pronoun right before the word at `start` is a subject: not "you" or "it", which are objects
 * too, unless nothing but a clause opener ("and", "because", "that"...) or punctuation comes before them.
 */
function pronounStartsClause(text: string, start: number): boolean {
  const before = Array.from(text).slice(0, start).join('');
  const match = /(\p{L}+)\s+$/u.exec(before);
  if (!match || !/^(?:you|it)$/i.test(match[1]!)) return true;
  const previous = /(\p{L}+)[^\p{L}]*$/u.exec(before.slice(0, match.index));
  if (!previous) return true;
  // Punctuation between the words before and the pronoun ends a clause: "Yes, you goes".
  if (/[.,;:!?]/u.test(before.slice(previous.index + previous[1]!.length, match.index))) return true;
  return CLAUSE_OPENERS.has(previous[1]!.toLowerCase());
}
