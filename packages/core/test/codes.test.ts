import { describe, expect, it } from 'vitest';
import {
  decodeWithCodes,
  encodeWithCodes,
  extractIcu,
  flattenPairs,
  InlineSyntaxError,
  i18nextCodes,
  inlinePlainText,
  MessageFormatError,
  parseInline,
  printfCodes,
  restorePairs,
  serializeInline,
  verifyCodes,
} from '../src/index.js';

describe('inline XML', () => {
  it('parses codes and decodes entities', () => {
    expect(parseInline('a &lt;b&gt; <g id="1">c &amp; <x id="2"/></g>&#233;')).toEqual([
      { type: 'text', text: 'a <b> ' },
      { type: 'open', id: '1' },
      { type: 'text', text: 'c & ' },
      { type: 'x', id: '2' },
      { type: 'close', id: '1' },
      { type: 'text', text: 'é' },
    ]);
    expect(inlinePlainText('Hi <g id="1">there</g><x id="2"/>')).toBe('Hi there');
  });

  it.each([
    ['<b>bold</b>', "Unexpected '<' (only <g id>, </g> and <x id/> are allowed) at offset 0"],
    ['<g id="1">open', '<g id="1"> is not closed at offset 14'],
    ['close</g>', "'</g>' without an open <g> at offset 5"],
    ['<x id="1"/><x id="1"/>', "Code id '1' is used twice at offset 11"],
    ['a & b', "Unescaped '&' at offset 2"],
    ['<x/>', "'<x/>' has no id at offset 0"],
  ])('rejects %s with a positioned error', (source, message) => {
    expect(() => parseInline(source)).toThrow(InlineSyntaxError);
    expect(() => parseInline(source)).toThrow(message);
  });

  it('verifies returned codes: same ids, valid nesting', () => {
    const source = 'Click <g id="1">here</g> for <x id="2"/>.';
    expect(verifyCodes(source, 'Haz clic <g id="1">aquí</g> para <x id="2"/>.')).toBeUndefined();
    expect(verifyCodes(source, '<x id="2"/> <g id="1">aquí</g>')).toBeUndefined();
    expect(verifyCodes(source, 'Haz clic aquí <x id="2"/>')).toBe('Inline codes changed: missing g#1');
    expect(verifyCodes(source, '<g id="1">a</g><x id="2"/><x id="3"/>')).toBe(
      'Inline codes changed: unexpected x#3',
    );
    expect(verifyCodes(source, '<g id="1">a<x id="2"/>')).toBe('<g id="1"> is not closed at offset 22');
    expect(verifyCodes(source, '<x id="2"/><x id="1"/>')).toBe(
      'Inline codes changed: missing g#1; unexpected x#1',
    );
  });

  it('refuses a target where a reordering engine moved a code out of its pair or emptied a pair', () => {
    // `See [`npm`](/x) and *the [docs](/d)*.`: inline code inside a link, a link inside emphasis.
    const source = 'See <g id="1"><x id="2"/></g> and <g id="3">the <g id="4">docs</g></g>.';
    expect(
      verifyCodes(source, 'Ver <g id="1"><x id="2"/></g> y <g id="3">la <g id="4">documentación</g></g>.'),
    ).toBeUndefined();
    expect(
      verifyCodes(source, 'Ver <g id="3">la <g id="4">documentación</g></g> y <g id="1"><x id="2"/></g>.'),
    ).toBeUndefined();
    expect(verifyCodes(source, 'Ver <x id="2"/><g id="1"></g> y <g id="3">la <g id="4">doc</g></g>.')).toBe(
      'Inline code x#2 moved out of <g id="1">',
    );
    expect(verifyCodes(source, 'Ver <g id="1"><x id="2"/></g> y la <g id="4">doc</g><g id="3"></g>.')).toBe(
      'Inline code g#4 moved out of <g id="3">',
    );
    expect(verifyCodes('a <g id="1">b</g> <x id="2"/>', 'a <g id="1">b <x id="2"/></g>')).toBe(
      'Inline code x#2 moved into a pair',
    );
    expect(verifyCodes('Open <g id="1">the cart</g> now', 'Abre <g id="1"> </g> el carrito')).toBe(
      '<g id="1"> lost all its text',
    );
  });

  it('flattens pairs for the second encoding and restores them, refusing crossed pairs', () => {
    const source = 'A <g id="1">b <g id="2">c</g></g> <x id="3"/>';
    const flat = flattenPairs(source);
    expect(flat).toBe('A <x id="1.o"/>b <x id="2.o"/>c<x id="2.c"/><x id="1.c"/> <x id="3"/>');
    expect(restorePairs(flat)).toEqual({ target: source });
    expect(restorePairs('<x id="1.o"/><x id="2.o"/><x id="1.c"/><x id="2.c"/><x id="3"/>')).toEqual({
      error: 'Paired code 1 came back crossed or reversed',
    });
    expect(restorePairs('<x id="1.c"/><x id="1.o"/>')).toEqual({
      error: 'Paired code 1 came back crossed or reversed',
    });
  });
});

describe('code finders', () => {
  it('i18next: interpolation, formats, nesting, Trans components', () => {
    const text =
      'Hi {{name}}, <0>see $t(common.more)</0><1/> {{count, number}} {{- raw}} <strong>x</strong> a<b';
    const encoded = encodeWithCodes(text, i18nextCodes);
    expect(encoded.source).toBe(
      'Hi <x id="1"/>, <g id="2">see <x id="3"/></g><x id="4"/> <x id="5"/> <x id="6"/> <g id="7">x</g> a&lt;b',
    );
    expect(encoded.codes['2']).toEqual({ kind: 'g', open: '<0>', close: '</0>' });
    expect(encoded.codes['5']).toEqual({ kind: 'x', text: '{{count, number}}' });
    expect(decodeWithCodes(encoded.source, encoded.codes)).toBe(text);
    expect(
      decodeWithCodes(
        '<x id="4"/><g id="7">y</g> <x id="1"/> <g id="2"><x id="3"/></g> <x id="5"/><x id="6"/>',
        encoded.codes,
      ),
    ).toBe('<1/><strong>y</strong> {{name}} <0>$t(common.more)</0> {{count, number}}{{- raw}}');
  });

  it('i18next: an unpaired component tag becomes a standalone code', () => {
    const encoded = encodeWithCodes('a <0>b', i18nextCodes);
    expect(encoded.source).toBe('a <x id="1"/>b');
  });

  it('printf: %s, %1$s, %(name)s, precision, %%; "100% sure" stays text', () => {
    const text = '%1$s has %(count)d items at %.2f, 100% sure %% %s %@';
    const encoded = encodeWithCodes(text, printfCodes);
    expect(encoded.source).toBe(
      '<x id="1"/> has <x id="2"/> items at <x id="3"/>, 100% sure <x id="4"/> <x id="5"/> <x id="6"/>',
    );
    expect(Object.values(encoded.codes).map((c) => c.text)).toEqual([
      '%1$s',
      '%(count)d',
      '%.2f',
      '%%',
      '%s',
      '%@',
    ]);
    expect(decodeWithCodes(encoded.source, encoded.codes)).toBe(text);
  });

  it('decoding an unknown id is a RangeError', () => {
    expect(() => decodeWithCodes('<x id="9"/>', {})).toThrow(RangeError);
  });
});

describe('ICU MessageFormat', () => {
  const message =
    "You have {count, plural, offset:1 =0 {no messages} one {# message from {name}} other {# messages}} in '{'inbox'}'. It''s {d, date, short}.";

  it('turns arguments into codes and plural branches into segments', () => {
    const { segments } = extractIcu(message, 'k');
    expect(segments).toEqual([
      {
        key: 'k',
        source: 'You have <x id="1"/> in {inbox}. It\'s <x id="2"/>.',
        codes: { '1': { kind: 'x', text: '{count}' }, '2': { kind: 'x', text: '{d, date, short}' } },
      },
      { key: 'k/count.=0', source: 'no messages', codes: {} },
      {
        key: 'k/count.one',
        source: '<x id="1"/> message from <x id="2"/>',
        codes: { '1': { kind: 'x', text: '#' }, '2': { kind: 'x', text: '{name}' } },
      },
      { key: 'k/count.other', source: '<x id="1"/> messages', codes: { '1': { kind: 'x', text: '#' } } },
    ]);
  });

  it('rebuilds byte for byte without translations, and quotes what translations need', () => {
    const icu = extractIcu(message, 'k');
    expect(icu.rebuild(new Map())).toBe(message);
    const targets = new Map([
      ['k', 'Tienes <x id="1"/> en {bandeja}. Es <x id="2"/>.'],
      ['k/count.=0', 'ningún mensaje'],
      ['k/count.one', '<x id="1"/> mensaje d\'<x id="2"/> #1'],
      ['k/count.other', '<x id="1"/> mensajes'],
    ]);
    expect(icu.rebuild(targets)).toBe(
      "Tienes {count, plural, offset:1 =0 {ningún mensaje} one {# mensaje d''{name} '#'1} other {# messages}}".replace(
        '{# messages}',
        '{# mensajes}',
      ) + " en '{'bandeja'}'. Es {d, date, short}.",
    );
  });

  it('a select inside a plural keeps # as the plural count; selectordinal branches too', () => {
    const icu = extractIcu(
      '{g, select, female {{n, plural, one {# file} other {# files}}} other {{n, selectordinal, one {#st} other {#th}}}}',
      'm',
    );
    expect(icu.segments.map((s) => s.key)).toEqual([
      'm/g.female/n.one',
      'm/g.female/n.other',
      'm/g.other/n.one',
      'm/g.other/n.other',
    ]);
    expect(icu.segments[0]!.source).toBe('<x id="1"/> file');
    expect(icu.segments[2]!.source).toBe('<x id="1"/>st');
    expect(icu.rebuild(new Map([['m/g.female/n.one', '<x id="1"/> Datei #']]))).toBe(
      "{g, select, female {{n, plural, one {# Datei '#'} other {# files}}} other {{n, selectordinal, one {#st} other {#th}}}}",
    );
  });

  it('rich-text tags become paired codes in the same segment; <br/> a standalone one', () => {
    const message =
      'Read <link>the {doc} guide</link> first.<br/>{n, plural, one {<b>#</b> file} other {<b>#</b> files}}';
    const icu = extractIcu(message, 't');
    expect(icu.segments).toEqual([
      {
        key: 't',
        source: 'Read <g id="1">the <x id="2"/> guide</g> first.<x id="3"/><x id="4"/>',
        codes: {
          '1': { kind: 'g', open: '<link>', close: '</link>' },
          '2': { kind: 'x', text: '{doc}' },
          '3': { kind: 'x', text: '<br/>' },
          '4': { kind: 'x', text: '{n}' },
        },
      },
      {
        key: 't/n.one',
        source: '<g id="1"><x id="2"/></g> file',
        codes: { '1': { kind: 'g', open: '<b>', close: '</b>' }, '2': { kind: 'x', text: '#' } },
      },
      {
        key: 't/n.other',
        source: '<g id="1"><x id="2"/></g> files',
        codes: { '1': { kind: 'g', open: '<b>', close: '</b>' }, '2': { kind: 'x', text: '#' } },
      },
    ]);
    expect(icu.rebuild(new Map())).toBe(message);
    expect(
      icu.rebuild(
        new Map([
          ['t', 'Lee primero <g id="1">la guía <x id="2"/></g> (a &lt; b).<x id="3"/><x id="4"/>'],
          ['t/n.one', '<g id="1"><x id="2"/></g> archivo'],
        ]),
      ),
    ).toBe(
      "Lee primero <link>la guía {doc}</link> (a '<' b).<br/>{n, plural, one {<b>#</b> archivo} other {<b>#</b> files}}",
    );
  });

  it.each([
    ['{count, plural, one {x}}', "'count' has no 'other' branch"],
    ['Hello {name', 'Unexpected end of message'],
    ['a } b', "Unmatched '}' at offset 2"],
    ['{n, plural, one {x} other {y}', "'n' is not closed"],
    ['a <b>bold', '<b> is not closed'],
    ['a </b> b', "Unexpected '</b>'"],
    ['{n, plural, other {<b>x}}</b>', '<b> is not closed'],
  ])('rejects %s', (bad, message) => {
    expect(() => extractIcu(bad, 'k')).toThrow(MessageFormatError);
    expect(() => extractIcu(bad, 'k')).toThrow(message);
  });
});

describe('bad input never crashes', () => {
  // A seeded generator over the characters that matter to each parser.
  function randomStrings(alphabet: string[], count: number, seed: number): string[] {
    let s = seed;
    const next = () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31;
    };
    return Array.from({ length: count }, () =>
      Array.from(
        { length: Math.floor(next() * 30) },
        () => alphabet[Math.floor(next() * alphabet.length)]!,
      ).join(''),
    );
  }

  it('parseInline: 5,000 random strings give tokens or an InlineSyntaxError, and round trip when valid', () => {
    const parts = [
      '<g id="1">',
      '</g>',
      '<x id="2"/>',
      '<x id="3"/>',
      '<',
      '>',
      '&',
      '&amp;',
      '&#x41;',
      'a',
      ' ',
      '"',
      'é',
    ];
    let valid = 0;
    for (const text of randomStrings(parts, 5000, 1)) {
      try {
        const tokens = parseInline(text);
        valid++;
        expect(parseInline(serializeInline(tokens))).toEqual(tokens);
      } catch (error) {
        expect(error).toBeInstanceOf(InlineSyntaxError);
      }
    }
    expect(valid).toBeGreaterThan(100);
  });

  it('extractIcu: 5,000 random messages give segments or a MessageFormatError; rebuild gives the input back', () => {
    const parts = [
      '{',
      '}',
      "'",
      '#',
      ',',
      ' plural',
      ' select',
      ' one ',
      ' other ',
      'n',
      'x',
      ' ',
      '=0 ',
      '<b>',
      '</b>',
      '<br/>',
      '<',
    ];
    let valid = 0;
    for (const text of randomStrings(parts, 5000, 2)) {
      try {
        const icu = extractIcu(text, 'k');
        valid++;
        expect(icu.rebuild(new Map())).toBe(text);
      } catch (error) {
        expect(error).toBeInstanceOf(MessageFormatError);
      }
    }
    expect(valid).toBeGreaterThan(100);
  });

  it('encode/decode: every finder result round trips on random text', () => {
    const parts = [
      '{{a}}',
      '{{',
      '}}',
      '<0>',
      '</0>',
      '<1/>',
      '$t(k)',
      '%s',
      '%1$d',
      '%',
      '<',
      '&',
      'x',
      ' ',
    ];
    for (const text of randomStrings(parts, 3000, 3)) {
      for (const finder of [i18nextCodes, printfCodes]) {
        const encoded = encodeWithCodes(text, finder);
        expect(decodeWithCodes(encoded.source, encoded.codes)).toBe(text);
      }
    }
  });
});
