import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createPseudoTranslator,
  createTranslationRun,
  LockFileError,
  type RunSegment,
  TranslationLock,
  type Translator,
} from '../src/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('glossa.lock', () => {
  it('tells missing, current, stale, human-edit and untracked targets apart', async () => {
    const lock = await TranslationLock.open(join(dir, 'glossa.lock'));
    lock.record('es', 'a', 'Hello', 'Hola');
    expect(lock.state('es', 'a', 'Hello', undefined)).toBe('missing');
    expect(lock.state('es', 'a', 'Hello', 'Hola')).toBe('current');
    expect(lock.state('es', 'a', 'Hello there', 'Hola')).toBe('stale');
    expect(lock.state('es', 'a', 'Hello', '¡Hola!')).toBe('human-edit');
    expect(lock.state('es', 'b', 'Bye', 'Adiós')).toBe('untracked');
  });

  it('keeps the words left in a machine output while that output stands, and reads them back', async () => {
    const path = join(dir, 'glossa.lock');
    const lock = await TranslationLock.open(path);
    lock.record('es', 'a', 'Open the color picker.', 'Abierto el color picker.');
    lock.recordLeft('es', 'a', ['picker', 'picker']);
    lock.recordLeft('es', 'none', ['picker']);
    lock.recordFailure('es', 'f', 'Budgeted');
    lock.recordLeft('es', 'f', ['Budgeted']);
    const at = (l: TranslationLock, target: string | undefined) =>
      l.leftWords('es', 'a', 'Open the color picker.', target);
    expect(at(lock, 'Abierto el color picker.')).toEqual(['picker']);
    expect(at(lock, 'Abre el selector de color.')).toEqual([]);
    expect(at(lock, undefined)).toEqual([]);
    expect(lock.leftWords('es', 'a', 'Open the picker.', 'Abierto el color picker.')).toEqual([]);
    expect(lock.get('es', 'none')).toBeUndefined();
    expect(lock.get('es', 'f')?.left).toBeUndefined();
    await lock.save();
    expect(await readFile(path, 'utf8')).toContain('"left": ["picker"]');
    const reread = await TranslationLock.open(path);
    expect(at(reread, 'Abierto el color picker.')).toEqual(['picker']);
    // The same output recorded again (a cache hit after the output file was deleted) keeps them ...
    reread.record('es', 'a', 'Open the color picker.', 'Abierto el color picker.');
    expect(at(reread, 'Abierto el color picker.')).toEqual(['picker']);
    // ... a new output drops them, as recording no words does.
    reread.record('es', 'a', 'Open the color picker.', 'Abre el selector de color.');
    expect(at(reread, 'Abre el selector de color.')).toEqual([]);
    reread.record('es', 'a', 'Open the color picker.', 'Abierto el color picker.');
    expect(at(reread, 'Abierto el color picker.')).toEqual([]);
    reread.recordLeft('es', 'a', ['picker']);
    reread.recordLeft('es', 'a', []);
    expect(reread.get('es', 'a')?.left).toBeUndefined();
  });

  it('saves a stable, sorted, one-entry-per-line file and reads it back', async () => {
    const path = join(dir, 'glossa.lock');
    const lock = await TranslationLock.open(path);
    lock.record('fr', 'z.md#1', 'Zed', 'Zède');
    lock.record('es', 'b.md#1', 'Bee', 'Abeja');
    lock.record('es', 'a.md#1', 'A', 'A');
    await lock.save();
    const text = await readFile(path, 'utf8');
    expect(text.split('\n').map((l) => l.replace(/"[0-9a-f]{16}"/g, 'H'))).toEqual([
      '{',
      '  "version": 1,',
      '  "entries": {',
      '    "es": {',
      '      "a.md#1": { "source": H, "target": H },',
      '      "b.md#1": { "source": H, "target": H }',
      '    },',
      '    "fr": {',
      '      "z.md#1": { "source": H, "target": H }',
      '    }',
      '  }',
      '}',
      '',
    ]);
    const again = await TranslationLock.open(path);
    expect(again.state('fr', 'z.md#1', 'Zed', 'Zède')).toBe('current');
  });

  it('prunes entries of deleted segments', async () => {
    const path = join(dir, 'glossa.lock');
    const lock = await TranslationLock.open(path);
    lock.record('es', 'a', 'A', 'A');
    lock.record('es', 'b', 'B', 'B');
    expect(lock.prune('es', ['a'])).toEqual(['b']);
    expect(lock.prune('fr', ['a'])).toEqual([]);
    await lock.save();
    expect((await TranslationLock.open(path)).size('es')).toBe(1);
  });

  it('an invalid lock is a LockFileError naming the file', async () => {
    const path = join(dir, 'glossa.lock');
    await writeFile(path, '{"version": 1, "entries": ');
    await expect(TranslationLock.open(path)).rejects.toThrow(LockFileError);
    await writeFile(path, '{"version": 7, "entries": {}}');
    await expect(TranslationLock.open(path)).rejects.toThrow(
      `${path}: expected {"version": 1, "entries": {...}}`,
    );
  });
});

describe('human-edit guard', () => {
  const segments: RunSegment[] = [
    { key: 'a', source: 'Save the file' },
    { key: 'b', source: 'Open the <g id="1">menu</g>' },
    { key: 'c', source: 'Close the window' },
  ];

  it('never overwrites an edited target, retranslates stale machine output, reports staleness and harvests edits', async () => {
    const lock = await TranslationLock.open(join(dir, 'glossa.lock'));
    const sent: string[] = [];
    const pseudo = createPseudoTranslator();
    const counting: Translator = {
      translateText: (texts, options) => {
        sent.push(...texts);
        return pseudo.translateText(texts, options);
      },
    };
    const run = createTranslationRun({
      translator: counting,
      sourceLang: 'en',
      targetLangs: ['en-XA'],
      lock,
    });
    const first = await run.translate({ segments });
    expect(sent).toEqual(segments.map((s) => s.source));
    const machine = first.targets.get('en-XA')!;

    // A person edits "a"; the source of "c" changes; "b" stays.
    const edited = new Map(machine).set('a', 'Sauvegarder (edited by hand)');
    const changed = segments.map((s) => (s.key === 'c' ? { ...s, source: 'Close the dialog' } : s));
    sent.length = 0;
    const second = await run.translate({ segments: changed, existingTargets: new Map([['en-XA', edited]]) });
    expect(sent).toEqual(['Close the dialog']);
    expect(second.targets.get('en-XA')!.get('a')).toBe('Sauvegarder (edited by hand)');
    expect(second.targets.get('en-XA')!.get('b')).toBe(machine.get('b'));
    expect(second.report).toMatchObject({ humanEdits: 1, unchanged: 1, translated: 1 });

    // The edit survives a source change too, and shows up as stale.
    const later = changed.map((s) => (s.key === 'a' ? { ...s, source: 'Save the document' } : s));
    const targetsNow = second.targets.get('en-XA')!;
    sent.length = 0;
    const third = await run.translate({ segments: later, existingTargets: new Map([['en-XA', targetsNow]]) });
    expect(sent).toEqual([]);
    expect(third.targets.get('en-XA')!.get('a')).toBe('Sauvegarder (edited by hand)');
    expect(
      lock.staleness(
        'en-XA',
        later.map((s) => ({ ...s, target: targetsNow.get(s.key) })),
      ),
    ).toEqual([{ locale: 'en-XA', key: 'a', state: 'human-edit' }]);
    expect(
      lock.humanEdits(
        'en-XA',
        later.map((s) => ({ ...s, target: targetsNow.get(s.key) })),
      ),
    ).toEqual([{ key: 'a', source: 'Save the document', target: 'Sauvegarder (edited by hand)' }]);
  });
});
