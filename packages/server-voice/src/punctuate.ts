/**
 * Transcripts as written text, before they are sent or translated: the recognizer gives lower-case words
 * without punctuation ("i would like a ticket for monday"), which engines translate badly ("i Gustaría…",
 * "la reunión en monday"). Each final utterance becomes a sentence: the pronoun "I" and its contractions,
 * weekdays, months, languages and nationalities in their written case; the terms of the session's
 * spoken-term collection and the source terms of its glossary as they are written there; the first
 * letter upper-case; a question mark after an utterance that opens like a question, else a full stop.
 * English only (the one transcribed language here); other sources get the sentence case and the stop.
 */
import { applySpokenTerms } from './terms.js';

/** English words always written with a capital. */
const PROPER = new Map(
  [
    'I',
    "I'm",
    "I'd",
    "I'll",
    "I've",
    'Monday',
    'Tuesday',
    'Wednesday',
    'Thursday',
    'Friday',
    'Saturday',
    'Sunday',
    'January',
    'February',
    'April',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
    'English',
    'Spanish',
    'French',
    'German',
    'Italian',
    'Portuguese',
    'Catalan',
    'Dutch',
    'Chinese',
    'Japanese',
    'Russian',
    'Arabic',
    'Europe',
    'European',
    'America',
    'American',
    'Internet',
  ].map((word) => [word.toLowerCase(), word]),
);

/** Words that open an English question on their own ("what time is it", "where is the station"). */
const WH_WORDS = new Set('what where when why who whom whose which how'.split(' '));
/** Auxiliaries that open a question when a subject follows ("would you…", "is it…", "have you…"). */
const AUXILIARIES = new Set(
  (
    "is are am was were do does did can could will would shall should may might must have has had isn't " +
    "aren't wasn't weren't don't doesn't didn't can't couldn't won't wouldn't shouldn't haven't hasn't"
  ).split(' '),
);
const PRONOUNS = new Set('i you he she it we they there anyone someone everyone anybody somebody'.split(' '));
const SUBJECTS = new Set(
  'i you he she it we they there this that these those the a an my your his her our their anyone someone everyone anybody somebody'.split(
    ' ',
  ),
);

/** "may" and "march" are common words too: capitalized only next to a day number or "in"/"of". */
const AMBIGUOUS_MONTHS =
  /\b(may|march)\b(?=\s+(?:\d|first|second|third|[a-z]+(?:th|st|nd|rd)\b))|(?<=\b(?:in|of|since|until)\s+)(may|march)\b(?!\s+(?:i|we|you|he|she|it|they|be|have|not)\b)/g;

export interface PunctuateOptions {
  /** The transcript's language (lower-case code). */
  readonly language: string;
  /** Terms written as they must appear (spoken terms, glossary source terms). */
  readonly terms?: readonly string[] | undefined;
}

/** One recognized utterance as a written sentence. */
export function punctuate(raw: string, options: PunctuateOptions): string {
  let text = raw.trim().replace(/\s+/g, ' ');
  if (!text) return text;
  const english = options.language.toLowerCase().split('-')[0] === 'en';
  if (english) {
    text = text.replace(/[\p{L}']+/gu, (word) => PROPER.get(word.toLowerCase()) ?? word);
    text = text.replace(AMBIGUOUS_MONTHS, (month) => month[0]!.toUpperCase() + month.slice(1));
  }
  if (options.terms?.length) text = applySpokenTerms(text, options.terms);
  text = text.replace(/^\p{Ll}/u, (letter) => letter.toUpperCase());
  if (/[.!?…]["')\]]?$/u.test(text)) return text;
  const [first = '', second = ''] = text.toLowerCase().split(' ');
  // "have a nice day", "do the dishes": after have/do, only a pronoun makes a question.
  const subject = /^(have|has|had|do|does|did)$/.test(first) ? PRONOUNS.has(second) : SUBJECTS.has(second);
  const question = WH_WORDS.has(first) || (AUXILIARIES.has(first) && subject);
  return `${text}${english && question ? '?' : '.'}`;
}
