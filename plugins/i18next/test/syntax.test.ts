import { createPseudoTranslator, createTranslationRun } from '@glossa/core';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type Catalog, detectSyntax, extractCatalog } from '../src/index.js';

async function pseudo(catalog: Catalog, syntax?: 'auto' | 'icu' | 'vue' | 'i18next') {
  const extraction = extractCatalog(catalog, { file: 'c.json', ...(syntax && { syntax }) });
  const run = createTranslationRun({
    translator: createPseudoTranslator(),
    sourceLang: 'en',
    targetLangs: ['en-XA'],
  });
  const { targets } = await run.translate({ segments: extraction.segments });
  return { extraction, built: buildCatalog(extraction, targets.get('en-XA')!, { locale: 'en-XA' }) };
}

describe('message syntax', () => {
  it('is detected from the values and reported', () => {
    expect(detectSyntax({ a: 'Hi {{name}}', b: '{n, plural, one {# x} other {# xs}}' })).toBe('i18next');
    expect(detectSyntax({ a: 'Hi {name}', b: '{n, plural, one {# x} other {# xs}}' })).toBe('icu');
    expect(detectSyntax({ a: 'Hi {name}', b: 'See @:common.more' })).toBe('vue');
    expect(detectSyntax({ a: 'no apples | {count} apples' })).toBe('vue');
    expect(detectSyntax({ a: 'Hello <link>docs</link> {name}' })).toBe('icu');
    expect(detectSyntax({ a: 'Hello' })).toBe('i18next');
    const e = extractCatalog({ a: 'Hi {name}' });
    expect([e.syntax, e.syntaxDetected]).toEqual(['icu', true]);
    expect(extractCatalog({ a: 'Hi {name}' }, { syntax: 'vue' }).syntaxDetected).toBe(false);
    expect(() => extractCatalog({}, { syntax: 'fluent' as 'icu' })).toThrow(RangeError);
  });

  it('icu: each branch is a segment, keywords and arguments are not translated', async () => {
    const catalog = {
      inbox:
        'You have {count, plural, =0 {no messages} one {# message} other {# messages}} from <b>{name}</b>.',
      sel: '{gender, select, female {She} male {He} other {They}} replied',
    };
    const { extraction, built } = await pseudo(catalog);
    expect(extraction.syntax).toBe('icu');
    expect(extraction.segments.map((s) => s.key)).toEqual([
      'c.json#inbox',
      'c.json#inbox/count.=0',
      'c.json#inbox/count.one',
      'c.json#inbox/count.other',
      'c.json#sel',
      'c.json#sel/gender.female',
      'c.json#sel/gender.male',
      'c.json#sel/gender.other',
    ]);
    const inbox = built['inbox'] as string;
    expect(inbox).toBe(
      '[Ýööûû ĥåṽéé {count, plural, =0 {[ñöö ɱééššååĝééš]} one {[# ɱéššååĝéé]} other {[# ɱééššååĝééš]}} ƒŕööɱ <b>{name}</b>.]',
    );
    expect(built['sel']).toBe('[{gender, select, female {[Šĥéé]} male {[Ĥéé]} other {[Ţĥéýý]}} ŕéþļîîééð]');
  });

  it('vue: choices and linked messages survive pseudo-localization', async () => {
    const { extraction, built } = await pseudo({
      apples: 'no apples | one apple | {count} apples',
      link: 'See @:apples',
    });
    expect(extraction.syntax).toBe('vue');
    expect((built['apples'] as string).split(' | ')).toHaveLength(3);
    expect(built['apples']).toMatch(/\{count\}/);
    expect(built['link']).toMatch(/@:apples/);
  });

  it('a value that does not parse as ICU is read as i18next and reported', () => {
    const e = extractCatalog({ a: 'Hi {name}', b: 'broken {count, plural, one {x}' });
    expect(e.kept).toEqual([
      { key: '#b', reason: 'syntax', message: expect.stringMatching(/not closed|no 'other'|Unexpected end/) },
    ]);
    expect(e.segments.map((s) => s.key)).toEqual(['#a', '#b']);
  });
});

describe('values that are not prose', () => {
  it('are not sent and stay as they are, pseudo-locale included', async () => {
    const catalog = {
      url: 'https://example.com',
      css: ':root {\n  --color-sidebarItemSelected: #007bff;\n}',
      expr: "{isSearching\n  ? 'No matching shortcuts'\n  : 'None'}",
      id: 'versionInfo.latestVersion',
      number: '100%',
      prose: 'Visit https://actualbudget.org/contact/ or [read this](https://x.org/a#reset-sync).',
    };
    const { extraction, built } = await pseudo(catalog, 'i18next');
    expect(extraction.kept.map((k) => [k.key, k.reason])).toEqual([
      ['c.json#url', 'url'],
      ['c.json#css', 'code'],
      ['c.json#expr', 'code'],
      ['c.json#id', 'identifier'],
      ['c.json#number', 'no-words'],
    ]);
    const { prose, ...rest } = built;
    expect(rest).toEqual({
      url: catalog.url,
      css: catalog.css,
      expr: catalog.expr,
      id: catalog.id,
      number: '100%',
    });
    expect(prose).toContain('https://actualbudget.org/contact/');
    expect(prose).toContain('](https://x.org/a#reset-sync)');
    expect(prose).not.toContain('Visit');
  });
});

describe('plural groups', () => {
  it('only a base key with _other and another form is a group; suffixes alone are keys', async () => {
    const catalog = {
      labels: {
        arrowhead_crowfoot_many: 'Crow foot (many)',
        arrowhead_crowfoot_one: 'Crow foot (one)',
        arrowhead_crowfoot_one_or_many: 'Crow foot (one or many)',
      },
      item_one: 'one item',
      item_other: '{{count}} items',
    };
    const { extraction, built } = await pseudo(catalog);
    expect([...extraction.plurals.keys()]).toEqual(['item']);
    expect(Object.keys(built['labels'] as Catalog)).toEqual([
      'arrowhead_crowfoot_many',
      'arrowhead_crowfoot_one',
      'arrowhead_crowfoot_one_or_many',
    ]);
    expect(Object.keys(built)).toEqual(['labels', 'item_one', 'item_other']);
  });
});
