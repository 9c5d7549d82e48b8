import { describe, expect, test } from 'vitest';
import createxliff from 'xliff/createxliff';
import createxliff12 from 'xliff/createxliff12';
import xliff2js from 'xliff/xliff2js';
import xliff12ToJs from 'xliff/xliff12ToJs';
import { exportXliff, importXliff, parseXliff } from '../src/index.js';

// Interop with the `xliff` npm package, both ways, on what it reads faithfully: one segment per unit,
// plain text, notes. (It keeps only the last <segment> of a unit, loses `state` and drops spaces
// between inline elements, so the adapter reads XLIFF with its own safe parser.)
const segments = [
  { key: 'home.title', source: 'Welcome home', notes: ['Page title'] },
  { key: 'home.cta', source: 'Fish &amp; chips &lt;today&gt;' },
];
const targets = new Map([['home.title', 'Bienvenue']]);

describe('the xliff package reads what exportXliff writes', () => {
  test('XLIFF 2.1', async () => {
    const xml = exportXliff(segments, {
      version: '2.1',
      sourceLanguage: 'en',
      targetLanguage: 'fr',
      file: 'app',
      targets,
    });
    const js = await xliff2js(xml);
    expect(js.sourceLanguage).toBe('en');
    expect(js.targetLanguage).toBe('fr');
    expect(js.resources['app']).toEqual({
      'home.title': { source: 'Welcome home', target: 'Bienvenue', note: 'Page title' },
      'home.cta': { source: 'Fish & chips <today>' },
    });
  });

  test('XLIFF 1.2', async () => {
    const xml = exportXliff(segments, {
      version: '1.2',
      sourceLanguage: 'en',
      targetLanguage: 'fr',
      file: 'app',
      targets,
    });
    const js = await xliff12ToJs(xml);
    expect(js.resources['app']).toEqual({
      'home.title': { source: 'Welcome home', target: 'Bienvenue', note: 'Page title' },
      'home.cta': { source: 'Fish & chips <today>' },
    });
  });
});

describe('parseXliff reads what the xliff package writes', () => {
  const sources = { 'a.b': 'Hello & goodbye', c: 'Second <one>' };
  const translated = { 'a.b': 'Hallo & tschüss' };

  test('XLIFF 2.0 from createxliff', async () => {
    const document = parseXliff(await createxliff('en', 'de', sources, translated, 'ns'));
    expect(document).toMatchObject({ version: '2.0', sourceLanguage: 'en', targetLanguage: 'de' });
    expect(document.files[0]!.units.map((unit) => [unit.id, unit.segments])).toEqual([
      ['a.b', [{ source: 'Hello &amp; goodbye', target: 'Hallo &amp; tschüss' }]],
      ['c', [{ source: 'Second &lt;one&gt;' }]],
    ]);
    expect(importXliff(await createxliff('en', 'de', sources, translated, 'ns'))).toEqual([
      { key: 'a.b', source: 'Hello &amp; goodbye', target: 'Hallo &amp; tschüss', origin: 'machine' },
    ]);
  });

  test('XLIFF 1.2 from createxliff12', async () => {
    const document = parseXliff(await createxliff12('en', 'de', sources, translated, 'ns'));
    expect(document.files[0]!.units.map((unit) => [unit.id, unit.segments])).toEqual([
      ['a.b', [{ source: 'Hello &amp; goodbye', target: 'Hallo &amp; tschüss' }]],
      ['c', [{ source: 'Second &lt;one&gt;' }]],
    ]);
  });
});
