/**
 * Pseudo-localization: a deterministic, pure transform for the pseudo-locales `en-XA` and `ar-XB`,
 * shared by the server's pseudo engine and the framework's core.
 *
 * - `en-XA`: letters get accents (`Save` → `Šåvé`), vowels are repeated so the words grow by about 35%,
 *   and the whole text is bracketed (`[…]`) so truncation shows.
 * - `ar-XB`: the text is embedded right-to-left (RLE … PDF) and every word with letters is wrapped in
 *   RLM + RLO … PDF + RLM, so it renders mirrored the way a right-to-left language lays out (numbers stay
 *   left-to-right, as they do in Arabic).
 * A text with nothing to localize (empty, whitespace, only codes) comes back unchanged.
 *
 * Never changed: inline codes and tags (`<g id="1">`, `</g>`, `<x id="2"/>`, any `<…>` tag), XML entities
 * (`&lt;`, `&#38;`), and placeholders (`{{name}}`, `{0}`, `{name}`, `${name}`, `%s`, `%1$d`, `%(name)s`, `%@`),
 * ICU arguments whole (`{count, plural, one {# item} other {# items}}`, nested up to three deep).
 */
import type { PseudoLocale } from './languages.js';

/** How much longer `en-XA` makes the translatable letters (0.35 = 35%), before the two brackets. */
export const PSEUDO_EXPANSION = 0.35;

const PROTECTED = new RegExp(
  [
    '<\\/?[A-Za-z][^<>]*>', // a tag or inline code
    '&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#x[0-9A-Fa-f]+);', // an XML/HTML entity
    '\\{\\{[^{}]*\\}\\}', // {{name}}
    '\\$\\{[^{}]*\\}', // ${name}
    '\\{(?:[^{}]|\\{(?:[^{}]|\\{[^{}]*\\})*\\})*\\}', // {0}, {name}, an ICU argument nested up to 3 deep
    '%(?:\\d+\\$)?(?:\\([A-Za-z_][A-Za-z0-9_]*\\))?[-+0#]*\\d*(?:\\.\\d+)?[sdifuxXoeEgGcp@%]', // printf
  ].join('|'),
  'g',
);

const ACCENTED: Readonly<Record<string, string>> = {
  a: 'å', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'î', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ö', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'û', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Å', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Î', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ',
  N: 'Ñ', O: 'Ö', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Û', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
}; // biome-ignore format: an alphabet per line reads best

const VOWELS = new Set('aeiouyAEIOUY');
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;

const RLE = '\u202B'; // RIGHT-TO-LEFT EMBEDDING
const RLO = '\u202E'; // RIGHT-TO-LEFT OVERRIDE
const PDF = '\u202C'; // POP DIRECTIONAL FORMATTING
const RLM = '\u200F'; // RIGHT-TO-LEFT MARK

interface Piece {
  readonly text: string;
  readonly protected: boolean;
}

/** Splits text into translatable runs and protected runs (codes, entities, placeholders). */
function split(text: string): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(PROTECTED)) {
    if (match.index > last) pieces.push({ text: text.slice(last, match.index), protected: false });
    pieces.push({ text: match[0], protected: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), protected: false });
  return pieces;
}

/** Accents letters and repeats vowels, spreading `PSEUDO_EXPANSION` extra characters evenly over them. */
function accent(pieces: readonly Piece[]): string {
  const free = pieces.filter((p) => !p.protected).map((p) => p.text);
  const letters = free.join('').replace(/\s/g, '').length;
  const vowelCount = [...free.join('')].filter((ch) => VOWELS.has(ch)).length;
  const extra = Math.round(letters * PSEUDO_EXPANSION);
  let vowelIndex = 0;
  let out = '';
  for (const piece of pieces) {
    if (piece.protected) {
      out += piece.text;
      continue;
    }
    for (const ch of piece.text) {
      const mapped = ACCENTED[ch] ?? ch;
      out += mapped;
      if (VOWELS.has(ch)) {
        // Vowel i gets floor((i+1)·extra/V) − floor(i·extra/V) copies: `extra` in total, evenly spread.
        const copies =
          Math.floor(((vowelIndex + 1) * extra) / vowelCount) - Math.floor((vowelIndex * extra) / vowelCount);
        out += mapped.repeat(copies);
        vowelIndex++;
      }
    }
  }
  // No vowel to stretch (digits, symbols, other scripts): pad at the end so the length still grows.
  if (vowelCount === 0 && extra > 0) out += ' ' + '·'.repeat(Math.max(0, extra - 1));
  return out;
}

/** Wraps every word in RLM + RLO … PDF + RLM so it renders mirrored, the whole text in RLE … PDF. */
function mirror(pieces: readonly Piece[]): string {
  const body = pieces
    .map((p) =>
      p.protected
        ? p.text
        : // Numbers stay left-to-right in right-to-left languages: only words with letters are mirrored.
          p.text.replace(WORD, (word) => (/\p{L}/u.test(word) ? RLM + RLO + word + PDF + RLM : word)),
    )
    .join('');
  return RLE + body + PDF;
}

/**
 * Pseudo-localizes `text` for `locale` (`en-XA` or `ar-XB`, any case). Deterministic: the same input
 * always gives the same output. Codes, entities and placeholders come back byte for byte.
 *
 * @throws {RangeError} when `locale` is not a pseudo-locale.
 */
export function pseudoLocalize(text: string, locale: PseudoLocale | (string & {})): string {
  const lower = locale.toLowerCase();
  if (lower !== 'en-xa' && lower !== 'ar-xb') {
    throw new RangeError(`pseudoLocalize: expected locale 'en-XA' or 'ar-XB', got ${JSON.stringify(locale)}`);
  }
  const pieces = split(text);
  // Nothing to localize (empty, whitespace, only codes): the text comes back as it is.
  if (pieces.every((p) => p.protected || p.text.trim() === '')) return text;
  if (lower === 'ar-xb') return mirror(pieces);
  return '[' + accent(pieces) + ']';
}
