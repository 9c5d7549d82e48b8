import { createPseudoTranslator, createTranslationRun } from '@glossa/core';
import { describe, expect, it } from 'vitest';
import { buildCatalog, CatalogError, extractCatalog } from '../src/index.js';

const catalog = {
  greeting: 'Hello {{name}}, you have <0>{{count}} messages</0>.',
  nested: { seeAlso: 'See $t(greeting) and {{when, datetime}}.', raw: 'Path: {{- path}}' },
  items_one: 'One item',
  items_other: '{{count}} items',
  place_ordinal_one: '{{count}}st place',
  place_ordinal_two: '{{count}}nd place',
  place_ordinal_few: '{{count}}rd place',
  place_ordinal_other: '{{count}}th place',
  friend_male: 'A boyfriend',
  friend_female: 'A girlfriend',
  list: ['First', 'Second'],
  version: 3,
};

describe('extractCatalog', () => {
  it('turns interpolation, formatting, unescaped values, nesting and Trans tags into codes', () => {
    const { segments } = extractCatalog(catalog, { file: 'common.json' });
    const byKey = Object.fromEntries(segments.map((s) => [s.key, s.source]));
    expect(byKey['common.json#greeting']).toBe(
      'Hello <x id="1"/>, you have <g id="2"><x id="3"/> messages</g>.',
    );
    expect(byKey['common.json#nested.seeAlso']).toBe('See <x id="1"/> and <x id="2"/>.');
    expect(byKey['common.json#nested.raw']).toBe('Path: <x id="1"/>');
    expect(byKey['common.json#friend_male']).toBe('A boyfriend'); // context keys are ordinary strings
    expect(byKey['common.json#list.1']).toBe('Second');
    expect(segments).toHaveLength(13);
  });

  it('rejects text that is not a JSON object with a CatalogError naming the file', () => {
    expect(() => extractCatalog('{"a": ', { file: 'bad.json' })).toThrow(CatalogError);
    expect(() => extractCatalog('[1]', { file: 'list.json' })).toThrow(/list.json: expected a JSON object/);
  });
});

async function pseudo(locale: string) {
  const extraction = extractCatalog(catalog, { file: 'common.json' });
  const run = createTranslationRun({
    translator: createPseudoTranslator(),
    sourceLang: 'en',
    targetLangs: [locale],
  });
  const { targets } = await run.translate({ segments: extraction.segments });
  return buildCatalog(extraction, targets.get(locale)!, { locale });
}

describe('buildCatalog', () => {
  it('expands plurals to the target locale forms from Intl.PluralRules (Arabic: six forms)', async () => {
    const out = await pseudo('ar');
    expect(Object.keys(out).filter((k) => k.startsWith('items_'))).toEqual(
      ['zero', 'one', 'two', 'few', 'many', 'other'].map((c) => `items_${c}`),
    );
    expect(out.items_few).toBe(out.items_other); // a form English lacks takes the translated `other`
    expect(String(out.items_other)).toContain('{{count}}');
  });

  it('writes only the forms a language has (Japanese: other) and ordinal forms separately', async () => {
    const out = await pseudo('ja');
    expect(Object.keys(out).filter((k) => k.startsWith('items_'))).toEqual(['items_other']);
    expect(Object.keys(out).filter((k) => k.startsWith('place_'))).toEqual(['place_ordinal_other']);
    expect(out.place_ordinal_other).toContain('{{count}}');
  });

  it('keeps codes byte for byte, the structure, arrays and non-string values', async () => {
    const out = await pseudo('en-XA');
    expect(out.greeting).toMatch(/^\[.*\{\{name\}\}.*<0>\{\{count\}\} .*<\/0>\.\]$/);
    expect((out.nested as Record<string, string>).seeAlso).toContain('$t(greeting)');
    expect((out.nested as Record<string, string>).seeAlso).toContain('{{when, datetime}}');
    expect((out.nested as Record<string, string>).raw).toContain('{{- path}}');
    expect(Array.isArray(out.list) && out.list.length).toBe(2);
    expect(out.version).toBe(3);
    expect(Object.keys(out).filter((k) => k.startsWith('place_ordinal_'))).toEqual(
      ['one', 'two', 'few', 'other'].map((c) => `place_ordinal_${c}`),
    );
  });

  it('keeps the source and reports a target whose codes cannot be decoded', () => {
    const extraction = extractCatalog({ a: 'Hi {{name}}' }, { file: 'x.json' });
    const problems: string[] = [];
    const out = buildCatalog(extraction, new Map([['x.json#a', 'Hola <x id="9"/>']]), {
      locale: 'es',
      onProblem: (p) => problems.push(p.key),
    });
    expect(out.a).toBe('Hi {{name}}');
    expect(problems).toEqual(['x.json#a']);
  });
});
