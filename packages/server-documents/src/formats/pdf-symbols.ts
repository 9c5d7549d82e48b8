/**
 * Characters of symbol fonts (Symbol, Wingdings) as Unicode. Word writes a Symbol or Wingdings character
 * as its font code in the private use area (U+F020–U+F0FF: `•` is U+F0B7 in Symbol, `✓` U+F0FC in
 * Wingdings), and a PDF exported from Word or LibreOffice keeps that code as the character's Unicode
 * (LibreOffice draws it in OpenSymbol, whose name no longer says which font it came from). Mapped to the
 * Unicode character the font shows, the text can be translated and drawn in DejaVu again.
 *
 * Which table: the font's name when it says (`Symbol`, `Wingdings`); otherwise (OpenSymbol, a font
 * without a name) a list marker — the first character of a line — is read as Wingdings when Wingdings has
 * it (Word's bullet library: `▪` U+F0A7, `➢` U+F0D8, `✓` U+F0FC, `❖` U+F076 …), and any other character as
 * Symbol (Greek letters, math), except the Symbol codes that are pieces of tall brackets, which never
 * stand alone in a line of text, read as Wingdings. Codes with no DejaVu glyph in either table stay as
 * they are.
 */

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

/**
 * Wingdings to Unicode, for the characters DejaVu draws (emoji-only ones — folders, clocks, faces other
 * than ☺ ☹ — are left out); Wingdings' wide arrows are drawn as the plain and heavy arrows.
 */
const WINGDINGS: Record<number, number> = {
  32: 0x20,
  34: 0x2702,
  35: 0x2701,
  40: 0x260e,
  41: 0x2706,
  42: 0x2709,
  62: 0x2707,
  63: 0x270d,
  65: 0x270c,
  69: 0x261c,
  70: 0x261e,
  71: 0x261d,
  72: 0x261f,
  74: 0x263a,
  76: 0x2639,
  78: 0x2620,
  81: 0x2708,
  82: 0x263c,
  84: 0x2744,
  86: 0x271e,
  88: 0x2720,
  89: 0x2721,
  90: 0x262a,
  91: 0x262f,
  93: 0x2638,
  108: 0x25cf,
  110: 0x25a0,
  111: 0x25a1,
  113: 0x2751,
  114: 0x2752,
  116: 0x29eb,
  117: 0x25c6,
  118: 0x2756,
  120: 0x2327,
  122: 0x2318,
  158: 0xb7,
  159: 0x2022,
  160: 0x25aa,
  161: 0x25cb,
  164: 0x25c9,
  165: 0x25ce,
  167: 0x25aa,
  168: 0x25fb,
  170: 0x2726,
  171: 0x2605,
  172: 0x2736,
  173: 0x2734,
  174: 0x2739,
  175: 0x2735,
  179: 0x2311,
  181: 0x272a,
  182: 0x2730,
  213: 0x232b,
  214: 0x2326,
  216: 0x27a2,
  223: 0x2190,
  224: 0x2192,
  225: 0x2191,
  226: 0x2193,
  227: 0x2196,
  228: 0x2197,
  229: 0x2199,
  230: 0x2198,
  231: 0x2b05,
  232: 0x27a1,
  233: 0x2b06,
  234: 0x2b07,
  235: 0x2b09,
  236: 0x2b08,
  237: 0x2b0b,
  238: 0x2b0a,
  239: 0x21e6,
  240: 0x21e8,
  241: 0x21e7,
  242: 0x21e9,
  243: 0x2b04,
  244: 0x21f3,
  245: 0x2b00,
  246: 0x2b01,
  247: 0x2b03,
  248: 0x2b02,
  249: 0x25ad,
  250: 0x25ab,
  251: 0x2717,
  252: 0x2713,
  253: 0x2612,
  254: 0x2611,
};
// ♈–♓, ①–⑩, ❶–❿.
for (let k = 0; k < 12; k++) WINGDINGS[0x5e + k] = 0x2648 + k;
for (let k = 0; k < 10; k++) {
  WINGDINGS[0x81 + k] = 0x2460 + k;
  WINGDINGS[0x8c + k] = 0x2776 + k;
}

/** Symbol codes that are pieces of tall brackets and braces: never alone in a line of text. */
const isBracketPiece = (code: number) => (code >= 0xe6 && code <= 0xef) || (code >= 0xf3 && code <= 0xfe);

export type SymbolFontKind = 'symbol' | 'wingdings' | 'unknown';

/** Which symbol font a font's name says it is (`ABCDEF+Wingdings-Regular`, `Symbol`, `SymbolMT`). */
export function symbolFontKind(name: string): SymbolFontKind {
  const bare = name.replace(/^[A-Z]{6}\+/, '');
  if (/^wingdings(?![-\s]?[23])/i.test(bare)) return 'wingdings';
  if (/^symbol/i.test(bare)) return 'symbol';
  return 'unknown';
}

/**
 * The text with its symbol-font codes (U+F020–U+F0FF) as Unicode; `kinds[i]` is the font kind of the UTF-16
 * unit `i`, and `startsLine` says the text is the first on its line (its first character may be a list
 * marker). Each code becomes one UTF-16 unit, so positions are kept.
 */
export function unicodeForSymbols(
  text: string,
  kinds: readonly SymbolFontKind[],
  startsLine: boolean,
): string {
  if (!/[\uf020-\uf0ff]/.test(text)) return text;
  const first = text.search(/\S/);
  return text.replace(/[\uf020-\uf0ff]/g, (char, at: number) => {
    const code = char.charCodeAt(0) - 0xf000;
    const kind = kinds[at] ?? 'unknown';
    const marker = startsLine && at === first;
    const table =
      kind === 'wingdings'
        ? WINGDINGS
        : kind === 'symbol'
          ? SYMBOL
          : (marker || isBracketPiece(code)) && WINGDINGS[code] !== undefined
            ? WINGDINGS
            : SYMBOL;
    const mapped = table[code];
    return mapped === undefined ? char : String.fromCharCode(mapped);
  });
}
