import { describe, expect, it } from 'vitest';
import { extractDocusaurus, extractIcu } from '../src/index.js';

describe('extractDocusaurus', () => {
  it("keeps '{label}' a placeholder between apostrophes (ICU would read it as quoted text)", () => {
    const message = "Expand sidebar category '{label}'";
    const m = extractDocusaurus(message, 'code.json#k');
    expect(m.segments).toEqual([
      {
        key: 'code.json#k',
        source: 'Expand sidebar category \'<x id="1"/>\'',
        codes: { '1': { kind: 'x', text: '{label}' } },
      },
    ]);
    // What ICU makes of the same message: no code at all, the placeholder is text.
    expect(extractIcu(message, 'k').segments[0]!.source).toBe('Expand sidebar category {label}');
    const target = new Map([['code.json#k', 'Expandir la categoría \'<x id="1"/>\'']]);
    expect(m.rebuild(target)).toBe("Expandir la categoría '{label}'");
  });

  it('splits plural forms at | into segments of their own; the separators and spaces stay', () => {
    const m = extractDocusaurus('One post|{count} posts', 'k');
    expect(m.segments.map((s) => [s.key, s.source])).toEqual([
      ['k/|0', 'One post'],
      ['k/|1', '<x id="1"/> posts'],
    ]);
    const targets = new Map([
      ['k/|0', 'Una entrada'],
      ['k/|1', '<x id="1"/> entradas'],
    ]);
    expect(m.rebuild(targets)).toBe('Una entrada|{count} entradas');
    expect(extractDocusaurus('a | b', 'k').rebuild(new Map([['k/|1', 'c']]))).toBe('a | c');
  });

  it("protects only what interpolate() replaces: {word}; {{x}}, { x } and ICU arguments' commas are text", () => {
    const m = extractDocusaurus('Hi {name}, {{x}} { y } {n, plural, one {#}}', 'k');
    expect(m.segments[0]!.codes).toEqual({
      '1': { kind: 'x', text: '{name}' },
      '2': { kind: 'x', text: '{x}' },
    });
    expect(m.segments[0]!.source).toBe('Hi <x id="1"/>, {<x id="2"/>} { y } {n, plural, one {#}}');
  });

  it('escapes markup-like text and leaves messages without words unsent', () => {
    const m = extractDocusaurus('a < b & {c}', 'k');
    expect(m.segments[0]!.source).toBe('a &lt; b &amp; <x id="1"/>');
    expect(m.rebuild(new Map([['k', 'x &lt; y &amp; <x id="1"/>']]))).toBe('x < y & {c}');
    expect(extractDocusaurus('{count} · {x}', 'k').segments).toEqual([]);
  });

  it('a | in a translation stays text (U+FF5C), not a new plural form; an unknown target keeps the source', () => {
    const m = extractDocusaurus('Docs|{n} docs', 'k');
    expect(m.rebuild(new Map([['k/|0', 'A | B']]))).toBe('A \uFF5C B|{n} docs');
    expect(m.rebuild(new Map())).toBe('Docs|{n} docs');
  });
});
