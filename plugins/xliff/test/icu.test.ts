import { readFileSync } from 'node:fs';
import { createPseudoTranslator, createTranslationRun } from '@glossa/core';
import { describe, expect, it } from 'vitest';
import { parseXliff, translateXliff } from '../src/index.js';

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
  it('head, selectors and closing braces are codes; branch texts are text', () => {
    const unit = parseXliff(fixture('angular12.xliff')).files[0]!.units[1]!;
    expect(unit.segments[0]!.source).toBe(
      '<x id="icu1"/><g id="icu1.0">noone</g><g id="icu1.1">number one</g><g id="icu1.2">anyone</g><x id="icu1/end"/>',
    );
    expect(unit.codes['icu1.2']).toEqual({ kind: 'g', open: ' other {', close: '}' });
  });

  it.each(['angular12.xliff', 'angular20.xliff'])(
    '%s: keywords are never translated, branch texts are',
    async (name) => {
      const result = await pseudo(fixture(name));
      expect(result.kept).toEqual([]);
      expect(result.xliff).toMatch(
        /<target[^>]*>\{VAR_PLURAL, plural, =0 \{ñöööñé\} =1 \{ñûûɱƀééŕ öñéé\} other \{ååñýööñéé\}\}<\/target>/,
      );
    },
  );

  it('a target whose engine moved the ICU syntax is kept in the source language', async () => {
    const result = await translateXliff(fixture('angular12.xliff'), {
      translate: async (segments) =>
        segments.map((s) => s.source.replace(/^(<x id="icu1"\/>)(.*)(<x id="icu1\/end"\/>)$/, '$2$3 $1')),
    });
    expect(result.kept).toEqual([
      { key: '224564336508490126', reason: 'ICU message icu1: its closing brace moved before its head' },
    ]);
  });

  it('text outside an ICU message in the same unit stays text; a brace that is not ICU stays text', () => {
    const xliff = `<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="f" source-language="en"><body>
<trans-unit id="a"><source>Use {curly} braces</source></trans-unit>
<trans-unit id="b"><source>You have {n, select, one {a {thing}} other {things}} left</source></trans-unit>
</body></file></xliff>`;
    const [a, b] = parseXliff(xliff).files[0]!.units;
    expect(a!.segments[0]!.source).toBe('Use {curly} braces');
    expect(b!.segments[0]!.source).toBe(
      'You have <x id="icu1"/><g id="icu1.0">a <x id="icu1#0"/></g><g id="icu1.1">things</g><x id="icu1/end"/> left',
    );
  });
});

describe('an XLIFF file with no units', () => {
  it('and no source language passes as empty', async () => {
    const text = fixture('empty12.xliff');
    expect(parseXliff(text)).toEqual({ version: '1.2', sourceLanguage: '', files: [] });
    const result = await pseudo(text);
    expect(result).toEqual({ xliff: text, filled: 0, kept: [] });
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
    expect(result.filled).toBe(3);
    expect(result.xliff).toContain('<target state="translated">https://example.com/docs/#anchor</target>');
    expect(result.xliff).toContain('<target state="translated">:root { --accent: #007bff; }</target>');
    expect(result.xliff).toContain('<target state="translated">¡Hello world!</target>');
  });
});
