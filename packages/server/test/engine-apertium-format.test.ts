/**
 * The stream encoding and code placement on their own, with Apertium outputs written by hand for the
 * cases real translations rarely produce (a word carrying a code merged away, crossing spans, a lost code).
 */
import { describe, expect, it } from 'vitest';
import { decodeSegment, encodeSegment, stripMarks } from '../src/engines/apertium-format.js';
import { EngineError } from '../src/engines/engine.js';

describe('encodeSegment', () => {
  it('escapes special characters, wraps words of <g> codes and turns <x/>, * and # into superblanks', () => {
    const segment = encodeSegment(' Press <g id="1">big [red]</g> <x id="2"/> a*b #1 &lt;&amp;&#36; ', true);
    expect(segment.stream).toBe('Press [[t:b:0]]big[[/]] [[t:b:0]]\\[red\\][[/]] [x1] a[s2]b [s3]1 \\<&\\$');
    expect(segment).toMatchObject({ leading: ' ', trailing: ' ', hasText: true });
  });

  it('gives nested codes every enclosing index', () => {
    expect(encodeSegment('<g id="1">a <g id="2">b</g></g>', true).stream).toBe(
      '[[t:b:0]]a[[/]] [[t:b:0; t:b:1]]b[[/]]',
    );
  });

  it('keeps tags as text when markup is off', () => {
    expect(encodeSegment('a <b> & c', false).stream).toBe('a \\<b\\> & c');
  });

  it('rejects unbalanced codes with an EngineError', () => {
    expect(() => encodeSegment('a </g>', true)).toThrow(EngineError);
    expect(() => encodeSegment('<g id="1">a', true)).toThrow('apertium: <g> without a matching </g>');
  });
});

describe('decodeSegment', () => {
  const decode = (source: string, output: string) => decodeSegment(output, encodeSegment(source, true));

  it('wraps the first through the last word carrying a code', () => {
    expect(decode('the <g id="1">red car</g> now', 'el [[t:b:0]]coche[[/]] [[t:b:0]]rojo[[/]] ahora\n')).toBe(
      'el <g id="1">coche rojo</g> ahora',
    );
  });

  it('brings back a <g> whose words merged away as an empty code, and a lost <x/> at the end', () => {
    expect(decode('I <g id="1">do</g> not <x id="2"/>know', 'No sé\n')).toBe(
      'No sé<g id="1"></g><x id="2"/>',
    );
  });

  it('keeps an emptied child inside its parent', () => {
    expect(decode('<g id="1">a <g id="2">b</g></g>', '[[t:b:0]]A[[/]]\n')).toBe(
      '<g id="1"><g id="2"></g>A</g>',
    );
  });

  it('shrinks a sibling that would cross another so codes stay nested', () => {
    const out = decode(
      '<g id="a">one two</g> <g id="b">three</g>',
      '[[t:b:0]]uno[[/]] [[t:b:1]]tres[[/]] [[t:b:0]]dos[[/]] [[t:b:1]]más[[/]]\n',
    );
    expect(out).toBe('<g id="a">uno tres dos</g> <g id="b">más</g>');
  });

  it('empties a child whose words fall outside its shrunk parent', () => {
    const out = decode(
      '<g id="b">three</g> <g id="a">one <g id="c">two</g></g>',
      '[[t:b:1]]uno[[/]] [[t:b:0]]tres[[/]] [[t:b:1; t:b:2]]dos[[/]] [[t:b:0]]más[[/]]\n',
    );
    expect(out).toBe('<g id="a"><g id="c"></g>uno</g> <g id="b">tres dos más</g>');
  });

  it('removes unknown-word marks but keeps escaped characters', () => {
    expect(decode('xyzzy @ me', '*xyzzy \\@ #me @you\n')).toBe('xyzzy @ me you');
  });

  it('collapses the spaces a merged-away word leaves, unless the source had runs of spaces', () => {
    expect(decode('He will <x id="1"/> be late.', 'Él será [x0]  tarde.\n')).toBe(
      'Él será <x id="1"/> tarde.',
    );
    expect(decode('a  b', 'un  b\n')).toBe('un  b');
  });

  it('escapes XML again', () => {
    expect(decode('&lt;b&gt; &amp;', '\\<b\\> &\n')).toBe('&lt;b&gt; &amp;');
  });

  it('throws an EngineError for an empty translation of a non-empty segment', () => {
    expect(() => decode('Hello', '\n')).toThrow(
      new EngineError('apertium: empty translation for a non-empty segment', 'apertium'),
    );
  });
});

describe('stripMarks', () => {
  it('removes marks outside blanks and escapes only', () => {
    expect(stripMarks('*hola #mundo \\@ [x1] [[t:b:0]]@rojo[[/]]')).toBe(
      'hola mundo \\@ [x1] [[t:b:0]]rojo[[/]]',
    );
  });
});

describe('wordless <g> codes', () => {
  it('travel as one superblank, in place', () => {
    const segment = encodeSegment('Click <g id="1"></g>here and <g id="2"> <x id="3"/> </g>now.', true);
    expect(segment.stream).toBe('Click [x0]here and [x1]now.');
    expect(decodeSegment('Clic [x0]aquí y [x1]ahora.\n', segment)).toBe(
      'Clic <g id="1"></g>aquí y <g id="2"> <x id="3"/> </g>ahora.',
    );
  });

  it('a <g> holding text still travels on its words', () => {
    expect(encodeSegment('<g id="1"><x id="2"/> Hi</g>', true).stream).toBe('[x1] [[t:b:0]]Hi[[/]]');
  });
});
