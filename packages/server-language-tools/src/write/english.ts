import { applyEdits, confidentSpellingFix, type Edit, startsSentence } from './edits.js';
import { convertSpellingVariants, loadEnglishSpellers, spellingVariant } from './english-variants.js';
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

function editFor(text: string, lint: EnglishLint, dialect: EnglishDialect): Edit | undefined {
  if (!CORRECTION_KINDS.has(lint.kind)) return undefined;
  // Acronyms (ASAP, NASA) are the writer's choice, not an error.
  if (/^\p{Lu}{2,}$/u.test(lint.problem)) return undefined;
  const suggestion = lint.suggestions[0];
  if (!suggestion) return undefined;
  if (suggestion.kind === 'insert_after')
    return { start: lint.end, end: lint.end, replacement: suggestion.text };
  if (suggestion.kind === 'remove') return { start: lint.start, end: lint.end, replacement: '' };
  if (lint.kind !== 'Spelling') return { start: lint.start, end: lint.end, replacement: suggestion.text };
  const word = lint.problem;
  const variant = spellingVariant(word, dialect);
  if (variant) return { start: lint.start, end: lint.end, replacement: variant };
  // A capitalized word inside a sentence is most likely a name, all capitals an acronym: left alone.
  if (/\d/.test(word) || (word.length > 1 && word === word.toUpperCase())) return undefined;
  if (word[0] !== word[0]?.toLowerCase() && !startsSentence(text, lint.start)) return undefined;
  const fix = confidentSpellingFix(
    word,
    lint.suggestions.map((s) => s.text),
  );
  return fix === undefined ? undefined : { start: lint.start, end: lint.end, replacement: fix };
}
