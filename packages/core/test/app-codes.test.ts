import { describe, expect, it } from 'vitest';
import {
  decodeWithCodes,
  encodeWithCodes,
  extractIcu,
  extractVue,
  followCase,
  i18nextCodes,
  notProse,
} from '../src/index.js';

const encode = (text: string) => encodeWithCodes(text, i18nextCodes);

describe('i18next codes as apps write them', () => {
  it('named and self-closing Trans components are codes, paired by name', () => {
    const e = encode('<allocatedAmount /> <italic>of <totalAmount /></italic> <bold>Text Elements</bold>');
    expect(e.source).toBe('<x id="1"/> <g id="2">of <x id="3"/></g> <g id="4">Text Elements</g>');
    expect(e.codes['2']).toEqual({ kind: 'g', open: '<italic>', close: '</italic>' });
    expect(e.codes['3']).toEqual({ kind: 'x', text: '<totalAmount />' });
    expect(decodeWithCodes('<g id="4">Elementos</g> <x id="1"/> <g id="2">de <x id="3"/></g>', e.codes)).toBe(
      '<bold>Elementos</bold> <allocatedAmount /> <italic>de <totalAmount /></italic>',
    );
  });

  it('single-brace arguments are standalone codes', () => {
    expect(encode('Using server: <1>{url}</1>').source).toBe('Using server: <g id="1"><x id="2"/></g>');
    const e = encode('New version available: {versionInfo.latestVersion}');
    expect(e.codes['1']).toEqual({ kind: 'x', text: '{versionInfo.latestVersion}' });
  });

  it('URLs, e-mails and Markdown link targets are codes; the link text is not', () => {
    const text =
      'Visit https://actualbudget.org/contact/. [Learn more](https://x.org/docs/#what-does-it-mean), [ctrl+z](#undo) or a@b.org';
    const e = encode(text);
    expect(e.source).toBe('Visit <x id="1"/>. <g id="2">Learn more</g>, <g id="3">ctrl+z</g> or <x id="4"/>');
    expect(e.codes['2']).toEqual({ kind: 'g', open: '[', close: '](https://x.org/docs/#what-does-it-mean)' });
    expect(decodeWithCodes(e.source, e.codes)).toBe(text);
  });

  it('an attribute (a link target) travels inside its tag code', () => {
    const e = encode('See <a href="https://x.org/#anchor">the docs</a>');
    expect(e.codes['1']).toEqual({ kind: 'g', open: '<a href="https://x.org/#anchor">', close: '</a>' });
  });

  it('$t nesting with an options object stays one code', () => {
    const e = encode('from $t(budget-template-source, {"count": {{sourceCount}}}) and');
    expect(e.source).toBe('from <x id="1"/> and');
  });
});

describe('notProse', () => {
  it.each([
    ['https://example.com', 'url'],
    ['a@b.org', 'email'],
    ['src/app/main.ts', 'path'],
    [':root {\n  --color-sidebarItemSelected: #007bff;\n}', 'code'],
    ["{isSearching\n  ? 'No matching shortcuts'\n  : 'None'}", 'code'],
    ['QUERY("{queryName}")', 'code'],
    ['{"a": 1}', 'code'],
    ['#ff0000', 'code'],
    ['versionInfo.latestVersion', 'identifier'],
    ['SCREAMING_CASE', 'identifier'],
    ['100%', 'no-words'],
    ['12:00', 'no-words'],
  ])('%j is %s', (value, kind) => {
    expect(notProse(value)).toBe(kind);
  });

  it.each(['Budgeted', 'e-mail', 'and/or', 'Sign in', 'OK', 'Hello {{name}}'])('%j is prose', (value) => {
    expect(notProse(value)).toBeUndefined();
  });
});

describe('followCase', () => {
  it('the first letter follows the source', () => {
    expect(followCase('budgeted', 'Presupuestado', 'es')).toBe('presupuestado');
    expect(followCase('Budgeted', 'presupuestado', 'es')).toBe('Presupuestado');
    expect(followCase('an API key', 'Una API', 'es')).toBe('una API');
  });

  it('no capital after a code mid-sentence where the source has none', () => {
    expect(followCase('<x id="1"/> payee', '<x id="1"/> Solo beneficiario', 'es')).toBe(
      '<x id="1"/> solo beneficiario',
    );
    expect(followCase('(+<x id="1"/> more)', '(+<x id="1"/> Más)', 'es')).toBe('(+<x id="1"/> más)');
    expect(followCase('Open <g id="1">the file</g> now', 'Abre <g id="1">El archivo</g> Ahora', 'es')).toBe(
      'Abre <g id="1">el archivo</g> ahora',
    );
  });

  it('a capital letter alone is lowered too ("Y", "À", "V{version}")', () => {
    expect(followCase('and login', 'Y login', 'es')).toBe('y login');
    expect(followCase('v<x id="1"/>', 'V<x id="1"/>', 'fr')).toBe('v<x id="1"/>');
  });

  it('acronyms stay, German nouns stay capitalised', () => {
    expect(followCase('an api', 'API clave', 'es')).toBe('API clave');
    expect(followCase('<x id="1"/> items', '<x id="1"/> Elemente', 'de')).toBe('<x id="1"/> Elemente');
  });
});

describe('vue-i18n messages', () => {
  it('choices are segments; placeholders and linked messages are codes', () => {
    const m = extractVue('no apples | one apple with @:fruit.name | {count} apples', 'k');
    expect(m.segments).toEqual([
      { key: 'k/|0', source: 'no apples', codes: {} },
      {
        key: 'k/|1',
        source: 'one apple with <x id="1"/>',
        codes: { '1': { kind: 'x', text: '@:fruit.name' } },
      },
      { key: 'k/|2', source: '<x id="1"/> apples', codes: { '1': { kind: 'x', text: '{count}' } } },
    ]);
    const targets = new Map([
      ['k/|0', 'ninguna manzana'],
      ['k/|1', 'una manzana con <x id="1"/> @ 1|2'],
      ['k/|2', '<x id="1"/> manzanas'],
    ]);
    expect(m.rebuild(targets)).toBe(
      "ninguna manzana | una manzana con @:fruit.name {'@'} 1{'|'}2 | {count} manzanas",
    );
    expect(m.rebuild(new Map())).toBe('no apples | one apple with @:fruit.name | {count} apples');
  });
});

describe("ICU in Angular's dialect", () => {
  const message = "{n, plural, =1 {l'{name}} other {# it's '{x}'}}";

  it('an apostrophe quotes nothing and # is text, in the source and in the rebuilt message', () => {
    const angular = extractIcu(message, 'k', { dialect: 'angular' });
    expect(angular.segments.map((s) => [s.key, s.source])).toEqual([
      ['k/n.=1', 'l\'<x id="1"/>'],
      ['k/n.other', "# it's '<x id=\"1\"/>'"],
    ]);
    const targets = new Map([
      ['k/n.=1', 'd\'<x id="1"/>'],
      ['k/n.other', "# c'est '<x id=\"1\"/>'"],
    ]);
    expect(angular.rebuild(targets)).toBe("{n, plural, =1 {d'{name}} other {# c'est '{x}'}}");
  });

  it("the default dialect reads '{ as a quote: there the same message does not close", () => {
    expect(() => extractIcu(message, 'k')).toThrow(/has no 'other' branch/);
  });
});

describe('plural categories of the target language', () => {
  const message =
    '{n, plural, =0 {no files} one {# file} other {# files}} and {p, selectordinal, other {#th}}';
  const m = extractIcu(message, 'k');
  const targets = new Map([
    ['k/n.=0', 'brak plików'],
    ['k/n.one', '<x id="1"/> plik'],
    ['k/n.other', '<x id="1"/> plików'],
    ['k', '<x id="1"/> i <x id="2"/>'],
  ]);

  it('a locale adds the categories it has and the source lacks, from `other`, after it', () => {
    expect(m.rebuild(targets, { locale: 'pl' })).toBe(
      '{n, plural, =0 {brak plików} one {# plik} other {# plików} few {# plików} many {# plików}} i ' +
        '{p, selectordinal, other {#th}}',
    );
    // English ordinals have one/two/few; exact selectors (=0) are not categories.
    expect(m.rebuild(new Map(), { locale: 'en' })).toBe(
      '{n, plural, =0 {no files} one {# file} other {# files}} and ' +
        '{p, selectordinal, other {#th} one {#th} two {#th} few {#th}}',
    );
  });

  it('categories the source language has too are left out: its author chose the branches', () => {
    expect(m.rebuild(new Map(), { locale: 'en-XA', sourceLocale: 'en' })).toBe(message);
    expect(m.rebuild(targets, { locale: 'pl', sourceLocale: 'en' })).toContain(
      'other {# plików} few {# plików} many {# plików}}',
    );
  });

  it('without a locale, or with one that is not a language tag, the branches stay the source’s', () => {
    expect(m.rebuild(targets)).toBe(
      '{n, plural, =0 {brak plików} one {# plik} other {# plików}} i {p, selectordinal, other {#th}}',
    );
    expect(m.rebuild(targets, { locale: 'not a tag' })).toBe(m.rebuild(targets));
  });

  it('select has no categories to add', () => {
    const select = extractIcu('{g, select, female {she} other {they}}', 'k');
    expect(select.rebuild(new Map(), { locale: 'pl' })).toBe('{g, select, female {she} other {they}}');
  });
});
