import { describe, expect, test } from 'vitest';
import { wrapLines } from '../src/formats.js';
import { extract, merge } from '../src/index.js';

describe('wrapping a hard-wrapped paragraph again', () => {
  test('greedy at the width, continuation lines take the prefix', () => {
    expect(wrapLines('one two three four five', { width: 9, firstColumn: 2, prefix: '> ' })).toBe(
      'one two\n> three\n> four\n> five',
    );
  });

  test('breaks only at a single space before a letter; a longer word stays whole', () => {
    const wrap = { width: 6, firstColumn: 0, prefix: '' };
    expect(wrapLines('costs 5 euros - or # more', wrap)).toBe('costs 5\neuros -\nor #\nmore');
    expect(wrapLines('a  b extraordinarily c', wrap)).toBe('a  b\nextraordinarily\nc');
  });

  test('never inside a link, inline HTML or a code span', () => {
    const wrap = { width: 4, firstColumn: 0, prefix: '' };
    expect(
      wrapLines('see [the docs](a.md "a title") and `a code` or <b class="x">bold</b> \\[not a link', wrap),
    ).toBe('see [the docs](a.md "a title")\nand `a code`\nor <b class="x">bold</b> \\[not\na\nlink');
  });

  test('never inside $math$; display math $$ … $$ starts a line, and what follows it the next', () => {
    const wrap = { width: 200, firstColumn: 0, prefix: '' };
    expect(wrapLines('when $a \\ne 0$ they are $$ x = {-b \\over 2a} $$ and so on', wrap)).toBe(
      'when $a \\ne 0$ they are\n$$ x = {-b \\over 2a} $$\nand so on',
    );
    expect(wrapLines('sum $x + y$ of both', { width: 4, firstColumn: 0, prefix: '' })).toBe(
      'sum $x + y$\nof\nboth',
    );
  });

  test('a translated paragraph keeps its source layout and reads back as the same text', () => {
    const source =
      'A paragraph that the author\nwrapped by hand at a short width.\n\nOne line stays one line.\n';
    const extraction = extract(source);
    const [wrapped, single] = extraction.segments;
    const output = merge(extraction, {
      [wrapped!.key]: 'Un párrafo que la autora ajustó a mano con un ancho corto, más largo ahora.',
      [single!.key]: 'Una línea sigue siendo una línea, aunque la traducción sea bastante más larga.',
    });
    expect(output).toBe(
      'Un párrafo que la autora ajustó a\nmano con un ancho corto, más\nlargo ahora.\n\n' +
        'Una línea sigue siendo una línea, aunque la traducción sea bastante más larga.\n',
    );
    expect(extract(output).segments.map((segment) => segment.source)).toEqual([
      'Un párrafo que la autora ajustó a mano con un ancho corto, más largo ahora.',
      'Una línea sigue siendo una línea, aunque la traducción sea bastante más larga.',
    ]);
  });
});
