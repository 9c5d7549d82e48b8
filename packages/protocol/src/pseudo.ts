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

/** A protected run starts with one of these; a text without any is one translatable run. */
const PROTECTED_START = /[<&{$%]/;

/** Splits text into translatable runs and protected runs (codes, entities, placeholders). */
function split(text: string): Piece[] {
  if (!PROTECTED_START.test(text)) return [{ text, protected: false }];
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

/** UTF-16 units that `\s` matches (ECMAScript WhiteSpace and LineTerminator). */
function isSpace(unit: number): boolean {
  if (unit < 0x80) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/** ASCII code → the UTF-16 unit of its accented letter, or itself; and which codes are vowels. */
const ACCENTED_BY_CODE = Array.from({ length: 128 }, (_, code) => code);
for (const [letter, accented] of Object.entries(ACCENTED))
  ACCENTED_BY_CODE[letter.charCodeAt(0)] = accented.charCodeAt(0);
const IS_VOWEL = Array.from({ length: 128 }, (_, code) => VOWELS.has(String.fromCharCode(code)));

/** Output buffer of `accent`, reused: the text is built as UTF-16 units and made a string once. */
let buffer = new Uint16Array(1024);

/** Little-endian machines (all Node targets but s390x) decode UTF-16 units natively, in one call. */
const utf16 = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? new TextDecoder('utf-16le') : undefined;

/** `wellFormed`: no lone surrogate, which the decoder would turn into U+FFFD. */
function fromUnits(units: Uint16Array, length: number, wellFormed: boolean): string {
  if (utf16 && wellFormed) return utf16.decode(units.subarray(0, length));
  let out = '';
  // fromCharCode takes the units as arguments: in chunks, so a long text stays within the stack.
  for (let start = 0; start < length; start += 8192) {
    out += String.fromCharCode.apply(null, units.subarray(start, Math.min(length, start + 8192)) as never);
  }
  return out;
}

/**
 * Accents letters and repeats vowels, spreading `PSEUDO_EXPANSION` extra characters evenly over them.
 * Only ASCII letters change (into one UTF-16 unit each), so the loops walk UTF-16 units: other
 * characters, surrogate pairs included, are copied as they are.
 */
function accent(pieces: readonly Piece[]): string {
  let letters = 0;
  let vowelCount = 0;
  let length = 0;
  let surrogates = false;
  for (const piece of pieces) {
    const text = piece.text;
    length += text.length;
    if (piece.protected) {
      surrogates ||= /[\uD800-\uDFFF]/.test(text);
      continue;
    }
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) {
        if (IS_VOWEL[unit]) vowelCount++;
        if (unit !== 0x20 && (unit < 0x09 || unit > 0x0d)) letters++;
      } else {
        if (!isSpace(unit)) letters++;
        if (unit >= 0xd800 && unit <= 0xdfff) surrogates = true;
      }
    }
  }
  const extra = Math.round(letters * PSEUDO_EXPANSION);
  // Every input unit, the repeated vowels (`extra` in total) and, without vowels, the padding.
  if (buffer.length < length + extra + 2) buffer = new Uint16Array(2 * (length + extra + 2));
  const out = buffer;
  let n = 0;
  let vowelIndex = 0;
  for (const piece of pieces) {
    const text = piece.text;
    if (piece.protected) {
      for (let i = 0; i < text.length; i++) out[n++] = text.charCodeAt(i);
      continue;
    }
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80) {
        out[n++] = unit;
        continue;
      }
      const mapped = ACCENTED_BY_CODE[unit]!;
      out[n++] = mapped;
      if (IS_VOWEL[unit]) {
        // Vowel i gets floor((i+1)·extra/V) − floor(i·extra/V) copies: `extra` in total, evenly spread.
        let copies =
          Math.floor(((vowelIndex + 1) * extra) / vowelCount) - Math.floor((vowelIndex * extra) / vowelCount);
        while (copies-- > 0) out[n++] = mapped;
        vowelIndex++;
      }
    }
  }
  // No vowel to stretch (digits, symbols, other scripts): pad at the end so the length still grows.
  if (vowelCount === 0 && extra > 0) {
    out[n++] = 0x20;
    for (let i = 1; i < extra; i++) out[n++] = 0xb7; // ·
  }
  // Pairs decode the same either way; only lone surrogates need the slower path.
  return fromUnits(out, n, !surrogates);
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
