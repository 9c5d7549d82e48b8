/**
 * Characters of symbol fonts (Symbol, Wingdings, Wingdings 2, Wingdings 3, Webdings) as Unicode. Word writes
 * a symbol font's character as its font code in the private use area (U+F020–U+F0FF: `•` is U+F0B7 in
 * Symbol, `✓` U+F0FC in Wingdings, U+F050 in Wingdings 2), and a PDF exported from Word or LibreOffice keeps
 * that code as the character's Unicode. Mapped to the Unicode character the font shows (Symbol: Adobe's
 * Symbol encoding; the four others: the Unicode Consortium's mapping, see dingbats.ts), the text can be
 * translated and drawn again (in DejaVu, or Symbola for the symbols DejaVu lacks: see pdf-draw.ts).
 *
 * Which font a code is from:
 * - the font's name when it says (`Symbol`, `SymbolMT`, `Wingdings-Regular`, `Wingdings2`, `Webdings` …:
 *   Word embeds the fonts themselves);
 * - LibreOffice, without those fonts installed, draws their characters in OpenSymbol (its PDF names
 *   OpenSymbol only): the outline of the glyph it drew tells, from the glyphs LibreOffice 7.4 draws for
 *   every code of the five fonts (opensymbol-glyphs.ts; where several codes drew the same glyph, the one
 *   whose code the text shows). A code LibreOffice has no glyph for (Wingdings 3's `⯈` U+F084, Webdings'
 *   `✔` U+F061 …: 503 of the 1,100 codes) is drawn as OpenSymbol's empty box, and the PDF's text gives all
 *   such boxes of a document the code of the first: what the character was is lost, and it is read as
 *   what the page shows, `▯` (U+25AF).
 * - otherwise (an unknown glyph, another producer): a list marker — the first character of a line — is
 *   Wingdings' (Word's bullet library: `▪` U+F0A7, `⮚` U+F0D8, `✓` U+F0FC, `❖` U+F076 …), and any other
 *   character Symbol's (Greek letters, math), except the Symbol codes that are pieces of tall brackets,
 *   which never stand alone in a line of text, read as Wingdings.
 * A code a font has no Unicode character for (Wingdings 0xFF, the Windows logo; codes outside a font's
 * range) stays as it is: drawing it fails the job with a message that names it (pdf.ts), never dropped.
 */

import { createHash } from 'node:crypto';
import fontkit from '@pdf-lib/fontkit';
import { WEBDINGS, WINGDINGS, WINGDINGS_2, WINGDINGS_3 } from './dingbats.js';
import { OPENSYMBOL_BOX, OPENSYMBOL_GLYPHS } from './opensymbol-glyphs.js';

/** Symbol (Adobe Symbol encoding, `0x20`–`0xFE`) to Unicode; brackets' extender pieces as their closest single glyph. */
const SYMBOL: Record<number, number> = {
  32: 0x20,
  33: 0x21,
  34: 0x2200,
  35: 0x23,
  36: 0x2203,
  37: 0x25,
  38: 0x26,
  39: 0x220b,
  40: 0x28,
  41: 0x29,
  42: 0x2217,
  43: 0x2b,
  44: 0x2c,
  45: 0x2212,
  46: 0x2e,
  47: 0x2f,
  64: 0x2245,
  91: 0x5b,
  92: 0x2234,
  93: 0x5d,
  94: 0x22a5,
  95: 0x5f,
  96: 0x203e,
  123: 0x7b,
  124: 0x7c,
  125: 0x7d,
  126: 0x223c,
  160: 0x20ac,
  161: 0x3d2,
  162: 0x2032,
  163: 0x2264,
  164: 0x2044,
  165: 0x221e,
  166: 0x192,
  167: 0x2663,
  168: 0x2666,
  169: 0x2665,
  170: 0x2660,
  171: 0x2194,
  172: 0x2190,
  173: 0x2191,
  174: 0x2192,
  175: 0x2193,
  176: 0xb0,
  177: 0xb1,
  178: 0x2033,
  179: 0x2265,
  180: 0xd7,
  181: 0x221d,
  182: 0x2202,
  183: 0x2022,
  184: 0xf7,
  185: 0x2260,
  186: 0x2261,
  187: 0x2248,
  188: 0x2026,
  189: 0x7c,
  190: 0x2015,
  191: 0x21b5,
  192: 0x2135,
  193: 0x2111,
  194: 0x211c,
  195: 0x2118,
  196: 0x2297,
  197: 0x2295,
  198: 0x2205,
  199: 0x2229,
  200: 0x222a,
  201: 0x2283,
  202: 0x2287,
  203: 0x2284,
  204: 0x2282,
  205: 0x2286,
  206: 0x2208,
  207: 0x2209,
  208: 0x2220,
  209: 0x2207,
  210: 0xae,
  211: 0xa9,
  212: 0x2122,
  213: 0x220f,
  214: 0x221a,
  215: 0x22c5,
  216: 0xac,
  217: 0x2227,
  218: 0x2228,
  219: 0x21d4,
  220: 0x21d0,
  221: 0x21d1,
  222: 0x21d2,
  223: 0x21d3,
  224: 0x25ca,
  225: 0x27e8,
  226: 0xae,
  227: 0xa9,
  228: 0x2122,
  229: 0x2211,
  230: 0x239b,
  231: 0x239c,
  232: 0x239d,
  233: 0x23a1,
  234: 0x23a2,
  235: 0x23a3,
  236: 0x23a7,
  237: 0x23a8,
  238: 0x23a9,
  239: 0x23aa,
  241: 0x27e9,
  242: 0x222b,
  243: 0x2320,
  244: 0x23ae,
  245: 0x2321,
  246: 0x239e,
  247: 0x239f,
  248: 0x23a0,
  249: 0x23a4,
  250: 0x23a5,
  251: 0x23a6,
  252: 0x23ab,
  253: 0x23ac,
  254: 0x23ad,
};
// Digits, `:;<=>?` are themselves; letters are Greek (`a` α, `A` Α, `j` ϕ, `J` ϑ, `V` ς, `v` ϖ).
for (let code = 0x30; code <= 0x3f; code++) SYMBOL[code] = code;
[...'ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ'].forEach((char, i) => {
  SYMBOL[0x41 + i] = char.codePointAt(0)!;
});
[...'αβχδεφγηιϕκλμνοπθρστυϖωξψζ'].forEach((char, i) => {
  SYMBOL[0x61 + i] = char.codePointAt(0)!;
});

/** Symbol codes that are pieces of tall brackets and braces: never alone in a line of text. */
const isBracketPiece = (code: number) => (code >= 0xe6 && code <= 0xef) || (code >= 0xf3 && code <= 0xfe);

/** A symbol font; `box`: LibreOffice drew OpenSymbol's empty box (it had no glyph for the code). */
export type SymbolFontKind =
  | 'symbol'
  | 'wingdings'
  | 'wingdings2'
  | 'wingdings3'
  | 'webdings'
  | 'box'
  | 'unknown';

/** A font's Unicode character for a code (0x20–0xFF), or undefined. */
const TABLES: Record<Exclude<SymbolFontKind, 'unknown'>, (code: number) => number | undefined> = {
  symbol: (code) => SYMBOL[code],
  wingdings: (code) => WINGDINGS[code - 0x20] || undefined,
  wingdings2: (code) => WINGDINGS_2[code - 0x20] || undefined,
  wingdings3: (code) => WINGDINGS_3[code - 0x20] || undefined,
  webdings: (code) => WEBDINGS[code - 0x20] || undefined,
  // ▯: the box the document shows.
  box: () => 0x25af,
};

/** Which symbol font a font's name says it is (`ABCDEF+Wingdings-Regular`, `Wingdings2`, `Symbol`, `SymbolMT`). */
export function symbolFontKind(name: string): SymbolFontKind {
  const bare = name.replace(/^[A-Z]{6}\+/, '');
  if (/^wingdings[-\s_]?2/i.test(bare)) return 'wingdings2';
  if (/^wingdings[-\s_]?3/i.test(bare)) return 'wingdings3';
  if (/^wingdings/i.test(bare)) return 'wingdings';
  if (/^webdings/i.test(bare)) return 'webdings';
  if (/^symbol/i.test(bare)) return 'symbol';
  return 'unknown';
}

/** Fonts by their letter in OPENSYMBOL_GLYPHS. */
const LETTERS: Record<string, SymbolFontKind> = {
  s: 'symbol',
  w: 'wingdings',
  '2': 'wingdings2',
  '3': 'wingdings3',
  b: 'webdings',
};

/**
 * The font of a character LibreOffice drew in OpenSymbol, from its glyph's fingerprint (`glyphPrinter`) and
 * the code its text shows (`0x20`–`0xFF`): the font of a code drawn with that glyph, that code first;
 * `unknown` for a glyph LibreOffice does not draw for any of them.
 */
export function openSymbolKind(print: string | undefined, code: number): SymbolFontKind {
  const entry = print === undefined ? undefined : OPENSYMBOL_GLYPHS[print];
  if (print === OPENSYMBOL_BOX) return 'box';
  if (entry === undefined) return 'unknown';
  const drawn = entry
    .split(' ')
    .map((label) => ({ kind: LETTERS[label[0]!]!, code: Number.parseInt(label.slice(1), 16) }));
  return (drawn.find((candidate) => candidate.code === code) ?? drawn[0]!).kind;
}

/**
 * The text with its symbol-font codes (U+F020–U+F0FF) as Unicode; `kinds[i]` is the font of the UTF-16
 * unit `i`, and `startsLine` says the text is the first on its line (its first character may be a list
 * marker).
 */
export function unicodeForSymbols(
  text: string,
  kinds: readonly SymbolFontKind[],
  startsLine: boolean,
): string {
  return symbolsAsUnicode(text, kinds, startsLine).text;
}

/**
 * `unicodeForSymbols`, with where each UTF-16 unit of the result comes from in the text given (a
 * character outside the Basic Multilingual Plane — most Wingdings and Webdings pictures — takes two units
 * for the code's one).
 */
export function symbolsAsUnicode(
  text: string,
  kinds: readonly SymbolFontKind[],
  startsLine: boolean,
): { text: string; from: number[] } {
  const from = Array.from(text, (_, i) => i);
  if (!/[\uf020-\uf0ff]/.test(text)) return { text, from };
  const first = text.search(/\S/);
  let result = '';
  const units: number[] = [];
  for (let at = 0; at < text.length; at++) {
    const unit = text[at]!;
    const code = unit.charCodeAt(0) - 0xf000;
    let char = unit;
    if (code >= 0x20 && code <= 0xff) {
      const known = kinds[at] ?? 'unknown';
      const marker = startsLine && at === first;
      const kind = known !== 'unknown' ? known : marker || isBracketPiece(code) ? 'wingdings' : 'symbol';
      const mapped = TABLES[kind](code);
      if (mapped !== undefined) char = String.fromCodePoint(mapped);
    }
    result += char;
    for (let k = 0; k < char.length; k++) units.push(at);
  }
  return { text: result, from: units };
}

/** What pdf.js keeps of a loaded font with `fontExtraProperties`: its name and its font file, as pdf.js rewrote it. */
export interface EmbeddedFont {
  readonly name: string;
  readonly data?: Uint8Array;
}

const printers = new WeakMap<object, (fontChar: string) => string | undefined>();

/**
 * A fingerprint of the outline of each glyph of an embedded font (the glyph pdf.js draws for a `fontChar`):
 * the SHA-1 of its path, 12 hex digits; `empty` for a glyph without contours; undefined when the font file
 * cannot be read.
 */
export function glyphPrinter(font: EmbeddedFont): (fontChar: string) => string | undefined {
  let printer = printers.get(font);
  if (printer) return printer;
  let parsed: ReturnType<typeof fontkit.create> | undefined;
  try {
    parsed = font.data ? fontkit.create(Buffer.from(font.data)) : undefined;
  } catch {
    parsed = undefined;
  }
  const cache = new Map<string, string | undefined>();
  printer = (fontChar) => {
    if (!parsed) return undefined;
    if (!cache.has(fontChar)) {
      let print: string | undefined;
      try {
        const path = parsed.glyphForCodePoint(fontChar.codePointAt(0)!).path.toSVG();
        print = path === '' ? 'empty' : createHash('sha1').update(path).digest('hex').slice(0, 12);
      } catch {
        print = undefined;
      }
      cache.set(fontChar, print);
    }
    return cache.get(fontChar);
  };
  printers.set(font, printer);
  return printer;
}
