import { readFileSync } from 'node:fs';
import { createPseudoTranslator, createTranslationRun } from '@glossa/core';
import { describe, expect, it } from 'vitest';
import xliff12ToJs from 'xliff/xliff12ToJs';
import { extractXliff, parseXliff, readXliffTargets, translateXliff } from '../src/index.js';

const fixture = (name: string) => readFileSync(new URL(`./angular-icu/${name}`, import.meta.url), 'utf8');

async function pseudo(xliff: string) {
  return translateXliff(xliff, {
    targetLanguage: 'en-XA',
    translate: async (segments) => {
      const run = createTranslationRun({
        translator: createPseudoTranslator(),
        sourceLang: 'en',
        targetLangs: ['en-XA'],
      });
      const { targets } = await run.translate({ segments });
      return segments.map((s) => targets.get('en-XA')!.get(s.key));
    },
  });
}

describe('ICU inside XLIFF units (Angular)', () => {
  it('each branch is a segment of its own; heads, keywords and selectors are never sent', () => {
    const { segments } = extractXliff(fixture('angular12.xliff'));
    expect(segments.map((s) => [s.key, s.source])).toEqual([
      ['27515543696334242', 'Welcome (\n<x id="INTERPOLATION"/>)&gt; \n<x id="ICU"/>'],
      ['224564336508490126/VAR_PLURAL.=0', 'noone'],
      ['224564336508490126/VAR_PLURAL.=1', 'number one'],
      ['224564336508490126/VAR_PLURAL.other', 'anyone'],
    ]);
  });

  it.each(['angular12.xliff', 'angular20.xliff'])(
    '%s: keywords are never translated, each branch is',
    async (name) => {
      const result = await pseudo(fixture(name));
      expect(result.kept).toEqual([]);
      expect(result.xliff).toMatch(
        /<target[^>]*>\{VAR_PLURAL, plural, =0 \{\[ñöööñéé\]\} =1 \{\[ñûɱƀééŕ ööñéé\]\} other \{\[åñýýöñéé\]\}\}<\/target>/,
      );
    },
  );

  const mixed = `<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="f" source-language="en"><body>
<trans-unit id="a"><source>Use {curly} braces</source></trans-unit>
<trans-unit id="b"><source>You have {n, select, one {a {thing}} other {things}} left</source></trans-unit>
<trans-unit id="c"><source>{count, plural, =1 {one <g id="1">file</g>} other {<x id="2"/> files}}</source></trans-unit>
</body></file></xliff>`;

  it('text around the message is a segment with the message as one code; arguments and XLIFF codes stay codes', () => {
    const { segments, codes } = extractXliff(mixed);
    expect(segments.map((s) => [s.key, s.source])).toEqual([
      ['a', 'Use {curly} braces'],
      ['b', 'You have <x id="icu1"/> left'],
      ['b/n.one', 'a <x id="icu2"/>'],
      ['b/n.other', 'things'],
      ['c/count.=1', 'one <g id="1">file</g>'],
      ['c/count.other', '<x id="2"/> files'],
    ]);
    expect(codes['b']).toEqual({ icu1: { kind: 'x', text: '{n}' } });
    expect(codes['b/n.one']).toEqual({ icu2: { kind: 'x', text: '{thing}' } });
  });

  it('translated branches are put back byte-exact around them; an apostrophe is text (Angular does not quote)', async () => {
    const french: Record<string, string> = {
      a: 'Utilisez des accolades {curly}',
      b: 'Il vous reste <x id="icu1"/>',
      'b/n.one': 'un <x id="icu2"/>',
      'b/n.other': 'des choses',
      'c/count.=1': 'un <g id="1">fichier</g>',
      'c/count.other': 'l\'<x id="2"/> fichiers',
    };
    const result = await translateXliff(mixed, {
      translate: async (segments) => segments.map((s) => french[s.key]),
    });
    expect(result.kept).toEqual([]);
    expect(result.xliff).toContain(
      '<target state="translated">Il vous reste {n, select, one {un {thing}} other {des choses}}</target>',
    );
    expect(result.xliff).toContain(
      `<target state="translated">{count, plural, =1 {un <g id="1">fichier</g>} other {l'<x id="2"/> fichiers}}</target>`,
    );
    expect(readXliffTargets(result.xliff)).toEqual(new Map(Object.entries(french)));
  });

  it('a message nested in a branch is a code there, its branches segments of their own', async () => {
    const nested = `<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en"><file id="f">
<unit id="n"><segment><source>{VAR_SELECT, select, male {He has {VAR_PLURAL, plural, =1 {one cat} other {<ph id="0"/> cats}}} other {They have cats}}</source></segment></unit>
</file></xliff>`;
    const { segments } = extractXliff(nested);
    expect(segments.map((s) => [s.key, s.source])).toEqual([
      ['n/VAR_SELECT.male', 'He has <x id="icu1"/>'],
      ['n/VAR_SELECT.male/VAR_PLURAL.=1', 'one cat'],
      ['n/VAR_SELECT.male/VAR_PLURAL.other', '<x id="0"/> cats'],
      ['n/VAR_SELECT.other', 'They have cats'],
    ]);
    const result = await pseudo(nested);
    expect(result.kept).toEqual([]);
    expect(result.xliff).toContain(
      '<target>{VAR_SELECT, select, male {[Ĥéé ĥååš {VAR_PLURAL, plural, =1 {[öñéé çååţ]} other {[<ph id="0"/> çååţš]}}]} other {[Ţĥéýý ĥååṽéé çååţš]}}</target>',
    );
  });

  it('a branch whose translation adds ICU syntax keeps its unit in the source language', async () => {
    const result = await translateXliff(mixed, {
      translate: async (segments) => segments.map((s) => (s.key === 'b/n.other' ? 'des {choses}' : s.source)),
    });
    expect(result.kept).toEqual([{ key: 'b', reason: 'ICU message b: a translation changed its syntax' }]);
  });

  it('a branch that comes back without its code keeps its unit in the source language', async () => {
    const result = await translateXliff(mixed, {
      translate: async (segments) => segments.map((s) => (s.key === 'c/count.other' ? 'fichiers' : s.source)),
    });
    expect(result.kept).toEqual([{ key: 'c', reason: 'c/count.other: Inline codes changed: missing x#2' }]);
  });
});

describe('an XLIFF file with no units', () => {
  it('and no source language passes as empty', async () => {
    const text = fixture('empty12.xliff');
    expect(parseXliff(text)).toEqual({ version: '1.2', sourceLanguage: '', files: [] });
    const result = await pseudo(text);
    expect(result).toEqual({ xliff: text, filled: 0, kept: [] });
    expect(extractXliff(text)).toEqual({ segments: [], codes: {}, notProse: [] });
    expect(readXliffTargets(text)).toEqual(new Map());
  });

  it('a unit without a source language is still an error', () => {
    expect(() =>
      parseXliff(
        '<xliff version="1.2"><file original="f"><body><trans-unit id="a"><source>x</source></trans-unit></body></file></xliff>',
      ),
    ).toThrow(/no source language/);
  });
});

describe('units that are not prose', () => {
  it('are copied to the target and never sent', async () => {
    const xliff = `<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="f" source-language="en"><body>
<trans-unit id="url"><source>https://example.com/docs/#anchor</source></trans-unit>
<trans-unit id="css"><source>:root { --accent: #007bff; }</source></trans-unit>
<trans-unit id="text"><source>Hello world</source></trans-unit>
</body></file></xliff>`;
    const sent: string[] = [];
    const result = await translateXliff(xliff, {
      translate: async (segments) => {
        sent.push(...segments.map((s) => s.key));
        return segments.map((s) => `¡${s.source}!`);
      },
    });
    expect(sent).toEqual(['text']);
    const extraction = extractXliff(xliff);
    expect(extraction.segments.map((s) => s.key)).toEqual(['text']);
    expect(extraction.notProse).toEqual([
      { key: 'url', kind: 'url' },
      { key: 'css', kind: 'code' },
    ]);
    expect(result.filled).toBe(3);
    expect(result.xliff).toContain('<target state="translated">https://example.com/docs/#anchor</target>');
    expect(result.xliff).toContain('<target state="translated">:root { --accent: #007bff; }</target>');
    expect(result.xliff).toContain('<target state="translated">¡Hello world!</target>');
  });
});

describe('a target language with more plural categories than the source', () => {
  const xliff = `<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="f" source-language="en" target-language="pl"><body>
<trans-unit id="n"><source>{VAR_PLURAL, plural, =0 {none} one {<x id="INTERPOLATION"/> file} other {<x id="INTERPOLATION"/> files}}</source></trans-unit>
</body></file></xliff>`;

  it("one placeholder in several branches (as Angular writes it) is a code of each branch's own", () => {
    expect(extractXliff(xliff).segments.map((s) => [s.key, s.source])).toEqual([
      ['n/VAR_PLURAL.=0', 'none'],
      ['n/VAR_PLURAL.one', '<x id="INTERPOLATION"/> file'],
      ['n/VAR_PLURAL.other', '<x id="INTERPOLATION~2"/> files'],
    ]);
  });

  it('gets each of its categories, from the `other` translation, and its targets read back by branch', async () => {
    const result = await translateXliff(xliff, {
      translate: async (segments) => segments.map((s) => s.source.replace(/files?|none/, (w) => `[${w}]`)),
    });
    expect(result.kept).toEqual([]);
    expect(result.xliff).toContain(
      '<target state="translated">{VAR_PLURAL, plural, =0 {[none]} one {<x id="INTERPOLATION"/> [file]} ' +
        'other {<x id="INTERPOLATION"/> [files]} few {<x id="INTERPOLATION"/> [files]} ' +
        'many {<x id="INTERPOLATION"/> [files]}}</target>',
    );
    expect([...readXliffTargets(result.xliff)]).toEqual([
      ['n/VAR_PLURAL.=0', '[none]'],
      ['n/VAR_PLURAL.one', '<x id="INTERPOLATION"/> [file]'],
      ['n/VAR_PLURAL.other', '<x id="INTERPOLATION~2"/> [files]'],
    ]);
    // The `xliff` library reads the written file: the unit's target has the five branches.
    const js = await xliff12ToJs(result.xliff);
    const target = JSON.stringify(js.resources.f?.n?.target);
    expect(target.match(/\b(one|other|few|many) \{/g)).toEqual(['one {', 'other {', 'few {', 'many {']);
  });
});
