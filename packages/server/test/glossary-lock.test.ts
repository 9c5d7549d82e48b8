import { describe, expect, it } from 'vitest';
import { lockTerms } from '../src/glossaries/lock.js';
import { TermMatcher } from '../src/glossaries/matcher.js';

const matcher = (entries: Record<string, string>) =>
  new TermMatcher(Object.entries(entries).map(([source, target]) => ({ source, target })));

describe('TermMatcher', () => {
  it('matches whole words, case-insensitively, the longest term at each position', () => {
    const terms = matcher({ file: 'archivo', 'file server': 'servidor', 'C++': 'C++' });
    expect(terms.find('The File server, a file, profile, files and C++.')).toEqual([
      { start: 4, end: 15, target: 'servidor' },
      { start: 19, end: 23, target: 'archivo' },
      { start: 44, end: 47, target: 'C++' },
    ]);
  });

  it('matches terms of scripts without spaces anywhere, and counts astral characters right', () => {
    const terms = matcher({ 東京: 'Tokio', '😀 smile': 'sonrisa' });
    expect(terms.find('東京都に行く')).toEqual([{ start: 0, end: 2, target: 'Tokio' }]);
    expect(terms.find('a 😀 smile')).toEqual([{ start: 2, end: 10, target: 'sonrisa' }]);
  });

  it('lower-cases per character, so the match keeps the text offsets (İ lower-cases to two characters)', () => {
    expect(matcher({ istanbul: 'Estambul' }).find('İstanbul')).toEqual([]);
    expect(matcher({ i̇stanbul: 'Estambul' }).find('İstanbul now')).toEqual([
      { start: 0, end: 8, target: 'Estambul' },
    ]);
  });
});

describe('lockTerms', () => {
  it('plain text: escapes it, numbers codes from 1, puts target terms back and decodes entities', () => {
    const locked = lockTerms('File & more <files>', false, [matcher({ file: 'archivo' })]);
    expect(locked.text).toBe('<g id="1">File</g> &amp; more &lt;files&gt;');
    expect(locked.locked).toBe(true);
    expect(locked.unlock('<g id="1">Lima</g> &amp; más &lt;files&gt;')).toBe('Archivo & más <files>');
  });

  it('markup: terms only outside tags, ids above the caller codes, target escaped', () => {
    const locked = lockTerms('Open <g id="1">file</g> &amp; id', true, [matcher({ file: 'A&B', id: 'x' })]);
    expect(locked.text).toBe('Open <g id="1"><g id="2">file</g></g> &amp; <g id="3">id</g>');
    expect(locked.unlock('Abre <g id="1"><g id="2">lima</g></g> &amp; <g id="3">carné</g>')).toBe(
      'Abre <g id="1">A&amp;B</g> &amp; x',
    );
  });

  it('a code the engine lost is appended, a code it split or repeated is used once, unknown ids are dropped', () => {
    const locked = lockTerms('the file and the window', false, [
      matcher({ file: 'archivo', window: 'ventana' }),
    ]);
    expect(locked.unlock('el <g id="1">lima</g> y <g id="1">otra</g> <x id="9"/>')).toBe(
      'el archivo y  ventana',
    );
    // An engine that returns a term's code as a standalone one still gets the term.
    expect(locked.unlock('el <x id="1"/> y la <g id="2">ventana</g>')).toBe('el archivo y la ventana');
  });

  it('applies matchers in order: the second only sees what the first left', () => {
    const first = matcher({ 'file server': 'servidor' });
    const second = matcher({ file: 'archivo', server: 'máquina', disk: 'disco' });
    const locked = lockTerms('file server disk', false, [first, second]);
    expect(locked.unlock(locked.text)).toBe('servidor disco');
  });

  it('with nothing to lock, says so', () => {
    expect(lockTerms('nothing here', false, [matcher({ file: 'archivo' })]).locked).toBe(false);
  });
});
