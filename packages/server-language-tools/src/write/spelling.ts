import {
  applyEdits,
  confidentSpellingFix,
  type Edit,
  editDistance,
  matchCase,
  startsSentence,
  withoutAccents,
  words,
} from './edits.js';
import { loadEnglishSpellers } from './english-variants.js';
import { analyseWords, checkWords, type WordCheck } from './hunspell.js';
import { usageBacksFix, type WordCounts, wordCounts } from './word-usage.js';

/**
 * Corrects spelling with Hunspell: each misspelled word gets the checker's first suggestion when the fix is
 * confident (`confidentSpellingFix`) and people's usage backs it (`usageBacksFix`: a word people write, not a
 * guess between two common neighbours). Names (a capital inside a sentence), acronyms and words with digits
 * are left alone. Also left alone, because what the writer meant is a guess:
 * - a German word written with "ss" where "ß" makes a known word: the Swiss spelling ("grossen", "Grüssen");
 * - an English word, unless the fix only changes its accents: a borrowing, a name or a term ("techno" in
 *   Spanish is not "techo", "Babies" in German is not "Barbies", "Drivers" in Portuguese is not "Drives").
 *   Checking the other Hunspell languages too (Spanish "suceso" in Italian is not "sceso") cost more right
 *   edits than wrong ones on the learner corpora (Italian learners' Spanish or Portuguese spellings are
 *   mostly fixed right: "tratava" → "trattava").
 * In German a lower-case word is capitalized only where it is a noun: after an article, a determiner, a
 * quantifier or numeral, or a preposition ("meinem beruf" → "Beruf", "viel spaß" → "Spaß"); elsewhere it may be
 * a verb or another word ("bitte antwort" is "antworte", "ich wunsch" is "wünsche", "kann mann" is "man").
 */
export async function correctSpelling(text: string, language: string): Promise<string> {
  // German capitalizes every noun: a capital says nothing about names there.
  const german = language === 'de';
  const candidates = words(text, false).filter(({ word, start }) => isCheckable(text, word, start, german));
  const checks = await checkWords(
    language,
    candidates.map((candidate) => candidate.word),
  );
  const counts = await wordCounts(language);
  // German words in an adjective's place get an adjective or nothing (`germanAdjectiveFixes`).
  const adjectives = german
    ? await germanAdjectiveFixes(text, candidates, checks, counts)
    : new Map<number, string | undefined>();
  const fixes: (Edit & { readonly word: string })[] = [];
  checks.forEach((check, index) => {
    const { word, start, end } = candidates[index]!;
    if (language === 'it' && ITALIAN_ELIDED.test(word)) {
      const vowel = vowelAfter(text, end);
      // Before a vowel: the apostrophe put back ("sull albero" → "sull'albero"), unless the word is English too
      // ("all", "dell": below). Before a consonant, Hunspell's full form ("sull banco" → "sul banco").
      if (vowel !== undefined) {
        fixes.push({ start, end: vowel, replacement: `${word}${apostropheOf(text)}`, word });
        return;
      }
    }
    if (check.correct) return;
    if (german && isSwissSpelling(word, check.suggestions)) return;
    if (adjectives.has(start)) {
      const adjective = adjectives.get(start);
      if (adjective !== undefined) fixes.push({ start, end, replacement: adjective, word });
      return;
    }
    const fix = confidentSpellingFix(word, check.suggestions, {
      capitalize: german && afterDeterminer(text, start),
      accentsDecide: !german,
    });
    if (fix === undefined || (counts && !usageBacksFix(word, fix, counts))) return;
    if (language === 'it' && ITALIAN_FUTURE.test(fix) && afterItalianAuxiliary(text, start)) {
      const participle = italianParticiple(word, check.suggestions);
      if (participle !== undefined) fixes.push({ start, end, replacement: participle, word });
      return;
    }
    fixes.push({ start, end, replacement: fix, word });
  });
  const foreign = await englishWords(
    fixes
      .filter((fix) => withoutAccents(fix.word) !== withoutAccents(fix.replacement))
      .map((fix) => fix.word),
  );
  return applyEdits(
    text,
    fixes.filter((fix) => !foreign.has(fix.word)),
  );
}

/**
 * An Italian preposition or word elided before a vowel, written without its apostrophe ("sull", "dell",
 * "quell"). Before a vowel the writer meant the elided form ("sull'albero"), which Hunspell does not
 * suggest; before a consonant the full one, Hunspell's fix ("sull banco" → "sul banco").
 */
const ITALIAN_ELIDED = /^(?:dell|nell|sull|dall|all|coll|quell|bell|sant)$/iu;

/**
 * Where the next word starts (a code point offset), when only spaces come before it from `end` and it starts
 * with a vowel or an h; else undefined.
 */
function vowelAfter(text: string, end: number): number | undefined {
  const spaces = Array.from(text)
    .slice(end)
    .join('')
    .match(/^[ \t]+(?=[aeiouhàèéìòù])/iu)?.[0];
  return spaces === undefined ? undefined : end + spaces.length;
}

/** The apostrophe a text writes with: typographic when it has one, else straight. */
const apostropheOf = (text: string): string => (text.includes('’') ? '’' : "'");

/** An Italian future form (first or third person singular: "seguirò", "sarà"). */
const ITALIAN_FUTURE = /r[òà]$/u;

/** The forms of "avere" and "essere" that make a compound tense with a past participle after them. */
const ITALIAN_AUXILIARY =
  /^(?:ho|hai|ha|abbiamo|avete|hanno|avevo|aveva|avevano|sono|sei|è|siamo|siete|era|erano)$/iu;

/**
 * Whether the word at `start` follows an Italian auxiliary: there a past participle is meant, never a future
 * ("ha seguiro" is "ha seguito", not "ha seguirò"): the fix is the participle among the suggestions, if one.
 */
function afterItalianAuxiliary(text: string, start: number): boolean {
  const previous = Array.from(text)
    .slice(0, start)
    .join('')
    .match(/([\p{L}]+)\s+$/u)?.[1];
  return previous !== undefined && ITALIAN_AUXILIARY.test(previous);
}

/** The one suggestion one letter away from `word` that is a past participle ("seguiro" → "seguito"), if any. */
function italianParticiple(word: string, suggestions: readonly string[]): string | undefined {
  const participles = suggestions.filter(
    (suggestion) => /[aiu]t[oaie]$/u.test(suggestion) && editDistance(word, suggestion) === 1,
  );
  return participles.length === 1 ? matchCase(word, participles[0]!) : undefined;
}

/** A German word with "ss" that Hunspell knows with "ß" instead ("grossen" → "großen"). */
function isSwissSpelling(word: string, suggestions: readonly string[]): boolean {
  if (!word.includes('ss')) return false;
  const lower = word.toLowerCase();
  const variants = new Set([lower.replaceAll('ss', 'ß')]);
  for (let at = lower.indexOf('ss'); at >= 0; at = lower.indexOf('ss', at + 1))
    variants.add(`${lower.slice(0, at)}ß${lower.slice(at + 2)}`);
  return suggestions.some((suggestion) => variants.has(suggestion.toLowerCase()));
}

/**
 * Words after which a German word is a noun: articles and determiners, quantifiers and numerals, and
 * prepositions (alone or fused with an article).
 */
const GERMAN_BEFORE_NOUN = new RegExp(
  `^(?:${[
    'der|die|das|den|dem|des',
    '(?:ein|kein|mein|dein|sein|ihr|unser|eur|euer|dies|jed|welch|manch|solch)(?:e[mnrs]?)?',
    'alle[mnrs]?|viele[mnrs]?|viel|wenige[mnrs]?|wenig|mehr|mehrere[mnrs]?|einige[mnrs]?|paar|beide[mnrs]?|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|\\d+',
    'in|im|ins|an|am|ans|auf|aus|bei|beim|durch|für|gegen|hinter|mit|nach|neben|ohne|pro|seit|über|um|unter|von|vom|vor|während|wegen|zu|zum|zur|zwischen',
  ].join('|')})$`,
  'iu',
);

/** Whether the word at `start` follows a word after which German has a noun (`GERMAN_BEFORE_NOUN`). */
function afterDeterminer(text: string, start: number): boolean {
  const before = Array.from(text).slice(0, start).join('');
  const previous = before.match(/([\p{L}\d]+)\s+$/u)?.[1];
  return previous !== undefined && GERMAN_BEFORE_NOUN.test(previous);
}

/** A German adjective's declension ending (after `eine`, `der`, `am`, ...): the last letters of a word. */
const GERMAN_ADJECTIVE_ENDING = /(?:e[mnrs]?)$/u;

/**
 * Whether the word ending at `end` stands before a German noun (a capitalized word), directly or through
 * more adjectives joined by "und"/"oder" or a comma ("eingenen und persönlichen Meinung"), in one sentence.
 */
function beforeGermanNoun(text: string, end: number): boolean {
  const after = Array.from(text).slice(end).join('');
  return /^(?:(?:,|[ \t]+(?:und|oder))[ \t]+\p{Ll}+e[mnrs]?)*[ \t]+\p{Lu}\p{Ll}/u.test(after);
}

/**
 * Fixes of misspelled German words that stand in an adjective's place: a lower-case word with an adjective's
 * ending (-e, -en, -em, -er, -es) between an article, determiner or preposition and a noun ("eine wunderware Reise", "am näschte Wochenende", "mein
 * eingenen und persönlichen Meinung"). There the fix must be an adjective with the same ending (the
 * writer's declension stays as written): the one suggestion Hunspell's morphology (`analyseWords`) reads as a
 * declined adjective (flag `A` or `C`) and people write ("wunderbare", not the noun "Wunderware"; "nächste",
 * not the verb "naschte"; "eigenen", not "Eingenen"). Several: the word is left alone. None: the ordinary
 * confident fix when it is a lower-case word Hunspell knows with no affix flag at all, an undeclined word
 * ("ein bischen Zeit" → "bisschen"), else the word is left alone. Keyed by the word's start; a word of the
 * map with no value is left alone.
 */
async function germanAdjectiveFixes(
  text: string,
  candidates: readonly { word: string; start: number; end: number }[],
  checks: readonly WordCheck[],
  counts: WordCounts | undefined,
): Promise<Map<number, string | undefined>> {
  const slots = candidates.flatMap((candidate, index) => {
    const { word, start, end } = candidate;
    const check = checks[index]!;
    const ending = word.match(GERMAN_ADJECTIVE_ENDING)?.[0];
    if (check.correct || ending === undefined || word !== word.toLowerCase() || startsSentence(text, start))
      return [];
    if (!afterDeterminer(text, start) || !beforeGermanNoun(text, end)) return [];
    const options = check.suggestions.filter(
      (suggestion) =>
        suggestion === suggestion.toLowerCase() &&
        suggestion.endsWith(ending) &&
        !/[\s'’-]/u.test(suggestion) &&
        withoutAccents(suggestion).charAt(0) === withoutAccents(word).charAt(0) &&
        editDistance(word, suggestion) <= 2 &&
        (!counts || usageBacksFix(word, suggestion, counts)),
    );
    const plain = confidentSpellingFix(word, check.suggestions, { capitalize: false, accentsDecide: false });
    const undeclined =
      plain !== undefined && (!counts || usageBacksFix(word, plain, counts)) ? plain : undefined;
    return [{ start, word, options, undeclined }];
  });
  const fixes = new Map<number, string | undefined>();
  if (slots.length === 0) return fixes;
  // Each option and the option with an "n" more: a stem listed with its declension ("nächste") is analysed
  // with no flag itself, its declined form names it ("nächsten  st:nächste fl:A").
  const asked = [
    ...new Set(
      slots.flatMap(({ options, undeclined }) => [
        ...options.flatMap((option) => [option, `${option}n`]),
        ...(undeclined === undefined ? [] : [undeclined]),
      ]),
    ),
  ];
  const analyses = new Map(
    (await analyseWords('de', asked)).map((lines, index) => [asked[index]!, lines] as const),
  );
  const isAdjective = (form: string) =>
    (analyses.get(form) ?? []).some((line) => /\bfl:[AC]\b/u.test(line)) ||
    (analyses.get(`${form}n`) ?? []).some((line) => line.includes(`st:${form} `) && /\bfl:A\b/u.test(line));
  const isUndeclined = (form: string) => {
    const lines = analyses.get(form) ?? [];
    return lines.length > 0 && lines.every((line) => !line.includes('fl:'));
  };
  for (const { start, word, options, undeclined } of slots) {
    const adjectives = options.filter(isAdjective);
    if (adjectives.length === 1) fixes.set(start, matchCase(word, adjectives[0]!));
    else if (adjectives.length === 0 && undeclined !== undefined && isUndeclined(undeclined))
      fixes.set(start, undeclined);
    else fixes.set(start, undefined);
  }
  return fixes;
}

/**
 * Which of `candidates` are English words (the dictionary-en package): borrowings, names and terms in a text
 * of another language, not its misspellings.
 */
async function englishWords(candidates: readonly string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set();
  const english = (await loadEnglishSpellers())['en-US'];
  return new Set(candidates.filter((word) => english.correct(word) || english.correct(word.toLowerCase())));
}

/**
 * Characters that, right next to a word, make it part of something that is not a word of the language: a
 * code or identifier (`Krb5ticket`, `close-on-exec`, `file_name`, `a.b`), an elided form (`dell'hash`,
 * `qualcos'altro`, whose first part is no word on its own).
 */
const ATTACHED = /[\p{N}_\-/.@'’]/u;

const QUOTE_OPENING = /["“„«‘‹]/u;
const QUOTE_CLOSING = /["”“»’›]/u;

/** Whether a word at `start` of `text` is one the spelling fixer may touch. */
export function isCheckable(text: string, word: string, start: number, nounsCapitalized = false): boolean {
  if (/\d/.test(word) || (word.length > 1 && word === word.toUpperCase())) return false;
  const chars = Array.from(text);
  const before = chars[start - 1] ?? ' ';
  const after = chars[start + Array.from(word).length] ?? ' ';
  // A full stop after the word ends the sentence; one before it ("a.b") belongs to a code.
  // (After an apostrophe is a word: "l’ombrelo". Before one is an elided form: "dell'", "qualcos'".)
  if ((ATTACHED.test(before) && !/['’]/u.test(before)) || (after !== '.' && ATTACHED.test(after)))
    return false;
  if (after === '.' && /\p{L}/u.test(chars[start + Array.from(word).length + 1] ?? '')) return false;
  // A word alone in quotation marks is mentioned, not used: a term or a coinage the writer marked as such
  // ('conseguiu "crackear" o chip' is not "cracker").
  if (QUOTE_OPENING.test(before) && QUOTE_CLOSING.test(after)) return false;
  const capitalized = word[0] !== word[0]?.toLowerCase();
  // German compound nouns are where the dictionary is thinnest ("Ganzzahl" → "Glanzzahl"): left alone.
  if (capitalized && nounsCapitalized) return Array.from(word).length < 8;
  return !capitalized || startsSentence(text, start);
}
