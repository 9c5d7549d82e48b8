import { describe, expect, it } from 'vitest';
import {
  createPseudoTranslator,
  createTranslationRun,
  pseudoLocalize,
  type RunSegment,
  type Translator,
} from '../src/index.js';

describe('translation run (local pseudo translator)', () => {
  it('reports a broken source and a reused key with file and position, and translates the rest', async () => {
    const segments: RunSegment[] = [
      { key: 'ok', file: 'page.html', source: 'Fine <x id="1"/> text' },
      { key: 'bad', file: 'page.html', source: 'Broken <g id="1">text', position: { line: 7, column: 2 } },
      { key: 'ok', file: 'page.html', source: 'Same key again', position: { line: 9, column: 1 } },
    ];
    const events: string[] = [];
    const run = createTranslationRun({
      translator: createPseudoTranslator(),
      targetLangs: ['en-XA'],
      onEvent: (e) => events.push(e.type),
    });
    const { targets, report } = await run.translate({ segments });
    expect(report.failures).toEqual([
      {
        locale: 'en-XA',
        key: 'bad',
        file: 'page.html',
        position: { line: 7, column: 2 },
        reason: 'Invalid segment source: <g id="1"> is not closed at offset 21',
      },
      {
        locale: 'en-XA',
        key: 'ok',
        file: 'page.html',
        position: { line: 9, column: 1 },
        reason: "Segment key 'ok' is used twice",
      },
    ]);
    expect(targets.get('en-XA')!.get('bad')).toBe('Broken <g id="1">text');
    expect(report.translated).toBe(1);
    expect(events).toEqual(['start', 'cache', 'failure', 'failure', 'request', 'wave', 'done']);
  });

  it('flags targets longer than maxLength (codes not counted) in the report', async () => {
    const segments: RunSegment[] = [
      { key: 'button', file: 'ui.json', source: 'Save <x id="1"/>', maxLength: 6 },
      { key: 'title', file: 'ui.json', source: 'Settings', maxLength: 40 },
    ];
    const run = createTranslationRun({ translator: createPseudoTranslator(), targetLangs: ['en-XA'] });
    const { report, targets } = await run.translate({ segments });
    const length = [...pseudoLocalize('Save ', 'en-XA')].length;
    expect(targets.get('en-XA')!.get('button')).toBe(pseudoLocalize('Save <x id="1"/>', 'en-XA'));
    expect(report.qa).toEqual([
      {
        locale: 'en-XA',
        key: 'button',
        file: 'ui.json',
        severity: 'major',
        message: `max_length: the target has ${length} characters, the limit is 6`,
      },
    ]);
  });

  it('works in waves, each duplicate in the wave of its first occurrence, and says so in wave events', async () => {
    const sent: string[][] = [];
    const pseudo = createPseudoTranslator();
    const translator: Translator = {
      translateText(texts, options) {
        sent.push(texts);
        return pseudo.translateText(texts, options);
      },
    };
    const sources = ['One apple', 'Two pears', 'One apple', 'Three plums', 'Two pears', 'One apple'];
    const segments: RunSegment[] = sources.map((source, i) => ({ key: `k${i}`, source }));
    const waves: [number, number, number][] = [];
    const run = createTranslationRun({
      translator,
      targetLangs: ['en-XA'],
      waveBytes: 12, // one text per wave
      onEvent: (e) => {
        if (e.type === 'wave') waves.push([e.done, e.total, e.translated]);
      },
    });
    const { targets, report } = await run.translate({ segments });
    expect(sent).toEqual([['One apple'], ['Two pears'], ['Three plums']]);
    expect(waves).toEqual([
      [1, 3, 3],
      [2, 3, 5],
      [3, 3, 6],
    ]);
    expect(report).toMatchObject({ requests: 3, translated: 6 });
    expect(targets.get('en-XA')!.get('k5')).toBe(pseudoLocalize('One apple', 'en-XA'));
  });

  it('without a lock, an existing target is kept (it may be a human edit) and counted as one', async () => {
    const run = createTranslationRun({ translator: createPseudoTranslator(), targetLangs: ['en-XA'] });
    const { targets, report } = await run.translate({
      segments: [
        { key: 'a', source: 'Hello' },
        { key: 'b', source: 'World' },
      ],
      existingTargets: new Map([['en-XA', new Map([['a', 'Hi (by hand)']])]]),
    });
    expect(targets.get('en-XA')).toEqual(
      new Map([
        ['a', 'Hi (by hand)'],
        ['b', pseudoLocalize('World', 'en-XA')],
      ]),
    );
    expect(report).toMatchObject({ humanEdits: 1, translated: 1 });
  });

  it('an untracked target equal to its source (a failure kept in the source language) is translated again', async () => {
    const run = createTranslationRun({ translator: createPseudoTranslator(), targetLangs: ['en-XA'] });
    const { targets, report } = await run.translate({
      segments: [
        { key: 'a', source: 'Hello' },
        { key: 'b', source: '<x id="1"/>' },
      ],
      existingTargets: new Map([
        [
          'en-XA',
          new Map([
            ['a', 'Hello'],
            ['b', '<x id="1"/>'],
          ]),
        ],
      ]),
    });
    expect(targets.get('en-XA')!.get('a')).toBe(pseudoLocalize('Hello', 'en-XA'));
    expect(targets.get('en-XA')!.get('b')).toBe('<x id="1"/>');
    expect(report).toMatchObject({ humanEdits: 0, translated: 1 });
  });

  it('misuse throws a TypeError saying what was expected', () => {
    expect(() => createTranslationRun({ targetLangs: [] })).toThrow(
      'createTranslationRun: expected `targetLangs` to be a non-empty array of language codes',
    );
  });
});

describe('QA-critical targets (local pseudo translator)', () => {
  it('are failures: kept in the source language, not cached, recorded as failed in the lock', async () => {
    const { createMemoryStore, createTranslationCache, TranslationLock } = await import('../src/index.js');
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const lock = await TranslationLock.open(join(await mkdtemp(join(tmpdir(), 'glossa-qa-')), 'glossa.lock'));
    const cache = createTranslationCache([createMemoryStore({ max: 100 })]);
    const segments: RunSegment[] = [
      { key: 'good', file: 'a.md', source: 'Fine text' },
      { key: 'bad', file: 'a.md', source: 'Broken text' },
    ];
    const run = createTranslationRun({
      translator: createPseudoTranslator(),
      targetLangs: ['en-XA'],
      lock,
      cache,
      qa: async (items) =>
        items
          .filter((i) => i.key === 'bad')
          .map((i) => ({ locale: i.locale, key: i.key, severity: 'critical' as const, message: 'moved' })),
    });
    const { targets, report } = await run.translate({ segments });
    expect(report.failures).toEqual([
      { locale: 'en-XA', key: 'bad', file: 'a.md', reason: 'QA critical: moved' },
    ]);
    expect(report.translated).toBe(1);
    expect(targets.get('en-XA')).toEqual(
      new Map([
        ['good', pseudoLocalize('Fine text', 'en-XA')],
        ['bad', 'Broken text'],
      ]),
    );
    expect(lock.state('en-XA', 'bad', 'Broken text', 'Broken text')).toBe('stale');
    const again = await run.translate({ segments, existingTargets: targets });
    expect(again.report).toMatchObject({ cacheHits: 0, translated: 0, unchanged: 1, requests: 1 });
  });
});

describe('a target that came back as its source', () => {
  const echo: Translator = {
    translateText: async (texts) => texts.map((text) => ({ detected_source_language: 'EN', text })),
  };
  const run = (locale: string) =>
    createTranslationRun({ translator: echo, sourceLang: 'en', targetLangs: [locale] }).translate({
      segments: [
        { key: 'sentence', file: 'a.md', source: 'Budgeted <g id="1">this month</g>' },
        { key: 'phrase', file: 'a.md', source: 'categorize <x id="1"/> payees' },
        { key: 'identifier', file: 'a.md', source: 'navbar' },
        { key: 'title', file: 'a.md', source: 'Frontmatter Config' },
        { key: 'brand', file: 'a.md', source: 'TailAdmin' },
      ],
    });

  it('is untranslated, a failure with its file, where it is a phrase (not a word, a name or a title)', async () => {
    const { report } = await run('es');
    expect(report.failures.map((f) => [f.key, f.file, f.reason])).toEqual([
      ['sentence', 'a.md', 'came back unchanged, in the source language (en): no engine translated it'],
      ['phrase', 'a.md', 'came back unchanged, in the source language (en): no engine translated it'],
    ]);
    expect(report.translated).toBe(3);
  });

  it('is right in a variant of the source language', async () => {
    expect((await run('en-GB')).report.failures).toEqual([]);
  });
});
