import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  exportXliff,
  importXliff,
  parseXliff,
  type SegmentState,
  serializeXliff,
  translateXliff,
  type XliffDocument,
  type XliffUnit,
} from '../src/index.js';

// Generated units: text with XML specials and spaces between codes, nested <g>, <x/>, codes with and
// without original data, notes, size limits, several segments per unit, states and sub-states.
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const text = fc.stringMatching(/^[a-zA-Z0-9 &<>"'.,é€😀-]{0,12}$/u).map(escapeXml);
const word = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9 ]{0,8}$/);
const states: SegmentState[] = ['initial', 'translated', 'reviewed', 'final'];

interface Inline {
  xml: string;
  codes: Record<string, { kind: 'g' | 'x'; open?: string; close?: string; text?: string }>;
}

/** Inline XML whose code ids are drawn from `next` so they are unique in the unit. */
function inline(next: () => string): fc.Arbitrary<Inline> {
  const piece: fc.Arbitrary<Inline> = fc.letrec<{ piece: Inline }>((tie) => ({
    piece: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text.map((xml) => ({ xml, codes: {} })),
      fc.tuple(fc.option(word, { nil: undefined })).map(([native]) => {
        const id = next();
        return {
          xml: `<x id="${id}"/>`,
          codes: native ? { [id]: { kind: 'x' as const, text: native } } : {},
        };
      }),
      // One half of a pair whose other half is in another segment: 1.2 bx/bpt, ex/ept; 2.x sc, ec.
      fc
        .tuple(fc.constantFrom('open', 'close', 'close-ref'), fc.option(word, { nil: undefined }))
        .map(([half, native]) => {
          const id = half === 'close-ref' ? `${next()}/end` : next();
          const code =
            half === 'open'
              ? { kind: 'x' as const, open: native ?? '' }
              : { kind: 'x' as const, close: native ?? '' };
          return { xml: `<x id="${id}"/>`, codes: { [id]: code } };
        }),
      fc.tuple(fc.array(tie('piece'), { maxLength: 3 }), fc.boolean()).map(([children, native]) => {
        const id = next();
        const codes = Object.assign({}, ...children.map((child) => child.codes));
        if (native) codes[id] = { kind: 'g', open: '<b>', close: '</b>' };
        return { xml: `<g id="${id}">${children.map((child) => child.xml).join('')}</g>`, codes };
      }),
    ),
  })).piece;
  return fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => ({
    xml: pieces.map((p) => p.xml).join(''),
    codes: Object.assign({}, ...pieces.map((p) => p.codes)),
  }));
}

function unit(version: '1.2' | '2.1'): fc.Arbitrary<XliffUnit> {
  return fc
    .record({
      id: word,
      notes: fc.array(word, { maxLength: 2 }),
      maxLength: fc.option(fc.nat(200), { nil: undefined }),
      count: fc.integer({ min: 1, max: 3 }),
      seed: fc.nat(),
      state: fc.constantFrom(...states),
      subState: fc.option(
        word.map((w) => `acme:${w.replace(/ /g, '')}`),
        { nil: undefined },
      ),
      translated: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    })
    .chain((shape) => {
      let id = 0;
      const next = () => String(++id);
      return fc
        .array(fc.tuple(inline(next), inline(next)), { minLength: shape.count, maxLength: shape.count })
        .map((pairs) => {
          const codes = Object.assign(
            {},
            ...pairs.flatMap(([source, target], index) =>
              shape.translated[index] ? [source.codes, target.codes] : [source.codes],
            ),
          );
          const segments = pairs.map(([source, target], index) => {
            const hasTarget = shape.translated[index]!;
            // 1.2 keeps one state per unit (on <target>) and no sub-state.
            const extra =
              version === '1.2'
                ? { state: shape.state }
                : {
                    state: states[(shape.seed + index) % 4]!,
                    ...(shape.subState ? { subState: shape.subState } : {}),
                  };
            return {
              ...(shape.count > 1 ? { id: `s${index + 1}` } : {}),
              source: source.xml,
              ...(hasTarget ? { target: target.xml, ...extra } : {}),
            };
          });
          return {
            id: shape.id,
            notes: shape.notes,
            ...(shape.maxLength === undefined ? {} : { maxLength: shape.maxLength }),
            codes,
            segments,
          };
        });
    });
}

function document(version: '1.2' | '2.1'): fc.Arbitrary<XliffDocument> {
  return fc
    .uniqueArray(unit(version), { minLength: 1, maxLength: 4, selector: (u) => u.id })
    .map((units) => ({
      version,
      sourceLanguage: 'en',
      targetLanguage: 'de',
      files: [{ id: 'f1', units }],
    }));
}

describe.each(['1.2', '2.1'] as const)('XLIFF %s property', (version) => {
  test('extract → merge → extract yields identical units', async () => {
    await fc.assert(
      fc.asyncProperty(document(version), async (doc) => {
        const written = serializeXliff(doc, version);
        const extracted = parseXliff(written);
        expect(extracted).toEqual(doc);
        // Merge: fill the missing targets in place with the sources; extracting again gives the same
        // units, each missing target now equal to its source.
        const merged = await translateXliff(written, {
          translate: async (segments) => segments.map((s) => s.source),
        });
        const again = parseXliff(merged.xliff);
        expect(
          again.files[0]!.units.map((u) => ({ ...u, segments: u.segments.map((s) => s.source) })),
        ).toEqual(doc.files[0]!.units.map((u) => ({ ...u, segments: u.segments.map((s) => s.source) })));
        for (const [i, u] of again.files[0]!.units.entries())
          for (const [s, segment] of u.segments.entries()) {
            const before = doc.files[0]!.units[i]!.segments[s]!;
            expect(segment.target).toBe(before.target?.trim() ? before.target : before.source);
          }
        expect(serializeXliff(parseXliff(serializeXliff(again, version)), version)).toBe(
          serializeXliff(again, version),
        );
      }),
      { numRuns: 150 },
    );
  });
});

describe('exportXliff / importXliff', () => {
  const segments = [
    {
      key: 'docs/a.md#paragraph-1',
      source: 'Read <g id="1">the guide</g> <x id="2"/>.',
      notes: ['Intro'],
      maxLength: 80,
    },
    { key: 'docs/a.md#heading-1', source: 'Welcome' },
  ];
  const codes = {
    'docs/a.md#paragraph-1': {
      '1': { kind: 'g' as const, open: '[', close: '](/g)' },
      '2': { kind: 'x' as const, text: '`npm i`' },
    },
  };

  test('XLIFF 2.1 export, exact output', () => {
    expect(
      exportXliff(segments, { sourceLanguage: 'en', targetLanguage: 'de', codes, file: 'docs/a.md' }),
    ).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0" version="2.1" srcLang="en" trgLang="de">',
        '  <file id="docs/a.md">',
        '    <slr:profiles generalProfile="xliff:codepoints"/>',
        '    <unit id="docs/a.md#paragraph-1" slr:sizeRestriction="80">',
        '      <notes>',
        '        <note>Intro</note>',
        '      </notes>',
        '      <originalData>',
        '        <data id="1_o">[</data>',
        '        <data id="1_c">](/g)</data>',
        '        <data id="2_x">`npm i`</data>',
        '      </originalData>',
        '      <segment>',
        '        <source>Read <pc id="1" dataRefStart="1_o" dataRefEnd="1_c">the guide</pc> <ph id="2" dataRef="2_x"/>.</source>',
        '      </segment>',
        '    </unit>',
        '    <unit id="docs/a.md#heading-1">',
        '      <segment>',
        '        <source>Welcome</source>',
        '      </segment>',
        '    </unit>',
        '  </file>',
        '</xliff>',
        '',
      ].join('\n'),
    );
  });

  test('XLIFF 1.2 export writes native codes as bpt/ept/ph and maxwidth', () => {
    const xml = exportXliff(segments, { version: '1.2', sourceLanguage: 'en', codes });
    expect(xml).toContain('<trans-unit id="docs/a.md#paragraph-1" maxwidth="80" size-unit="char">');
    expect(xml).toContain(
      '<source>Read <bpt id="1">[</bpt>the guide<ept id="1">](/g)</ept> <ph id="2">`npm i`</ph>.</source>',
    );
    expect(parseXliff(xml).files[0]!.units[0]).toEqual({
      id: 'docs/a.md#paragraph-1',
      notes: ['Intro'],
      maxLength: 80,
      codes: codes['docs/a.md#paragraph-1'],
      segments: [{ source: segments[0]!.source }],
    });
  });

  test('a pair split over two segments is written as sc/ec (2.1) and bpt/ept (1.2) and read back', () => {
    const document: XliffDocument = {
      version: '2.1',
      sourceLanguage: 'en',
      files: [
        {
          id: 'f',
          units: [
            {
              id: 'u',
              notes: [],
              codes: { '1': { kind: 'x', open: '<b>' }, '1/end': { kind: 'x', close: '</b>' } },
              segments: [
                { id: 's1', source: 'One <x id="1"/>bold.' },
                { id: 's2', source: 'Still bold<x id="1/end"/>.' },
              ],
            },
          ],
        },
      ],
    };
    const v2 = serializeXliff(document, '2.1');
    expect(v2).toContain('<source>One <sc id="1" dataRef="1_o"/>bold.</source>');
    expect(v2).toContain('<source>Still bold<ec startRef="1" dataRef="1_c"/>.</source>');
    const v12 = serializeXliff(document, '1.2');
    expect(v12).toContain(
      '<seg-source><mrk mtype="seg" mid="s1">One <bpt id="1">&lt;b&gt;</bpt>bold.</mrk><mrk mtype="seg" mid="s2">Still bold<ept id="1">&lt;/b&gt;</ept>.</mrk></seg-source>',
    );
    expect(parseXliff(v2)).toEqual(document);
    expect(parseXliff(v12)).toEqual({ ...document, version: '1.2' });
  });

  test('import marks reviewed and final targets as human edits', () => {
    const xml = `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="de"><file id="f">
      <unit id="a"><segment state="reviewed"><source>One</source><target>Eins</target></segment></unit>
      <unit id="b"><segment state="translated"><source>Two</source><target>Zwei</target></segment></unit>
      <unit id="c"><segment id="x" state="final"><source>Three.</source><target>Drei.</target></segment><segment id="y"><source>Four.</source></segment></unit>
    </file></xliff>`;
    expect(importXliff(xml)).toEqual([
      { key: 'a', source: 'One', target: 'Eins', state: 'reviewed', origin: 'human' },
      { key: 'b', source: 'Two', target: 'Zwei', state: 'translated', origin: 'machine' },
      { key: 'c#x', source: 'Three.', target: 'Drei.', state: 'final', origin: 'human' },
    ]);
  });
});
