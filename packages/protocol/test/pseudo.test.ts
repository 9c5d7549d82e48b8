import { describe, expect, it } from 'vitest';
import { pseudoLocalize } from '../src/pseudo.js';

/** Outputs pinned from the first implementation (escaped: the marks are invisible), so a faster one stays byte-identical. */
const PINNED: [input: string, enXA: string, arXB: string][] = [
  [
    'Save your changes.',
    '[\u0160\u00e5\u1e7d\u00e9\u00e9 \u00fd\u00fd\u00f6\u00f6\u00fb\u00fb\u0155 \u00e7\u0125\u00e5\u00e5\u00f1\u011d\u00e9\u00e9\u0161.]',
    '\u202b\u200f\u202eSave\u202c\u200f \u200f\u202eyour\u202c\u200f \u200f\u202echanges\u202c\u200f.\u202c',
  ],
  [
    'Hello <b>world</b> &amp; {name}: %s items',
    '[\u0124\u00e9\u00e9\u013c\u013c\u00f6\u00f6 <b>\u0175\u00f6\u00f6\u0155\u013c\u00f0</b> &amp; {name}: %s \u00ee\u00ee\u0163\u00e9\u00e9\u00e9\u0271\u0161]',
    '\u202b\u200f\u202eHello\u202c\u200f <b>\u200f\u202eworld\u202c\u200f</b> &amp; {name}: %s \u200f\u202eitems\u202c\u200f\u202c',
  ],
  [
    'na\u00efve caf\u00e9 \ud83d\ude00 \u65e5\u672c\u8a9e',
    '[\u00f1\u00e5\u00e5\u00ef\u1e7d\u00e9\u00e9\u00e9 \u00e7\u00e5\u00e5\u00e5\u0192\u00e9 \ud83d\ude00 \u65e5\u672c\u8a9e]',
    '\u202b\u200f\u202ena\u00efve\u202c\u200f \u200f\u202ecaf\u00e9\u202c\u200f \ud83d\ude00 \u200f\u202e\u65e5\u672c\u8a9e\u202c\u200f\u202c',
  ],
  [
    'a\u00a0b\u3000c\u2003d',
    '[\u00e5\u00e5\u00a0\u0180\u3000\u00e7\u2003\u00f0]',
    '\u202b\u200f\u202ea\u202c\u200f\u00a0\u200f\u202eb\u202c\u200f\u3000\u200f\u202ec\u202c\u200f\u2003\u200f\u202ed\u202c\u200f\u202c',
  ],
  ['12345', '[12345 \u00b7]', '\u202b12345\u202c'],
  [
    'Rhythm gym',
    '[\u0154\u0125\u00fd\u00fd\u0163\u0125\u0271 \u011d\u00fd\u00fd\u00fd\u0271]',
    '\u202b\u200f\u202eRhythm\u202c\u200f \u200f\u202egym\u202c\u200f\u202c',
  ],
  ['   ', '   ', '   '],
  ['<x id="1"/>', '<x id="1"/>', '<x id="1"/>'],
  [
    'Lone \ud800 surrogate',
    '[\u013b\u00f6\u00f1\u00e9\u00e9 \ud800 \u0161\u00fb\u00fb\u0155\u0155\u00f6\u00f6\u011d\u00e5\u00e5\u0163\u00e9\u00e9]',
    '\u202b\u200f\u202eLone\u202c\u200f \ud800 \u200f\u202esurrogate\u202c\u200f\u202c',
  ],
  [
    '{count, plural, one {# item} other {# items}} left',
    '[{count, plural, one {# item} other {# items}} \u013c\u00e9\u00e9\u0192\u0163]',
    '\u202b{count, plural, one {# item} other {# items}} \u200f\u202eleft\u202c\u200f\u202c',
  ],
  [
    "It\u2019s 5 o'clock",
    "[\u00ce\u00ce\u0163\u2019\u0161 5 \u00f6\u00f6'\u00e7\u013c\u00f6\u00f6\u00f6\u00e7\u0137]",
    "\u202b\u200f\u202eIt\u2019s\u202c\u200f 5 \u200f\u202eo'clock\u202c\u200f\u202c",
  ],
];

describe('pseudoLocalize', () => {
  it.each(PINNED)('gives the pinned output for %j', (input, enXA, arXB) => {
    expect(pseudoLocalize(input, 'en-XA')).toBe(enXA);
    expect(pseudoLocalize(input, 'ar-XB')).toBe(arXB);
  });

  it('accepts the locale in any case and refuses another locale', () => {
    expect(pseudoLocalize('Save', 'EN-xa')).toBe(pseudoLocalize('Save', 'en-XA'));
    expect(() => pseudoLocalize('Save', 'fr')).toThrow(RangeError);
  });

  it('handles a text longer than one output chunk', () => {
    const text = 'Save your changes. '.repeat(2000);
    const out = pseudoLocalize(text, 'en-XA');
    expect(out.startsWith('[Šåṽé')).toBe(true);
    expect(out.endsWith('. ]')).toBe(true);
    expect(out.length).toBe(text.length + Math.round(text.replace(/\s/g, '').length * 0.35) + 2);
  });

  it('keeps a lone surrogate in a code and a surrogate pair in the text as they are', () => {
    expect(pseudoLocalize('<x id="\ud800"/> ok', 'en-XA')).toBe('[<x id="\ud800"/> ööķ]');
    expect(pseudoLocalize('Smile \ud83d\ude00', 'en-XA')).toBe('[Šɱîîļéé \ud83d\ude00]');
  });
});
