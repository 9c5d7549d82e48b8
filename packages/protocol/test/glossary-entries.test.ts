import { describe, expect, it } from 'vitest';
import {
  checkGlossaryName,
  formatGlossaryEntries,
  MAX_GLOSSARY_BYTES,
  parseGlossaryEntries,
  utf8Length,
} from '../src/index.js';

const fail = (detail: string, message = 'Invalid glossary entries.') => ({ ok: false, message, detail });

describe('parseGlossaryEntries', () => {
  it('reads TSV, skipping blank lines and trimming terms', () => {
    expect(parseGlossaryEntries('file\tarchivo\r\n\n button \tbotón\n', 'tsv')).toEqual({
      ok: true,
      entries: [
        { source: 'file', target: 'archivo' },
        { source: 'button', target: 'botón' },
      ],
    });
  });

  it('keeps tab and carriage return as padding around a CSV term', () => {
    expect(parseGlossaryEntries('\tfile ,archivo\r', 'csv')).toEqual({
      ok: true,
      entries: [{ source: 'file', target: 'archivo' }],
    });
  });

  it('reads CSV with RFC 4180 quotes and optional language columns', () => {
    const csv = '"save, now",guardar\nfile,archivo,en,es\n"say ""hi""",decir hola';
    expect(parseGlossaryEntries(csv, 'csv', { source_lang: 'EN', target_lang: 'es' })).toEqual({
      ok: true,
      entries: [
        { source: 'save, now', target: 'guardar' },
        { source: 'file', target: 'archivo' },
        { source: 'say "hi"', target: 'decir hola' },
      ],
    });
  });

  it.each([
    ['a\tb\na\tc', 'tsv', "Line 2: duplicate source term 'a'."],
    ['a\tb\n\tc', 'tsv', 'Line 2: empty source term.'],
    ['a\t ', 'tsv', 'Line 1: empty target term.'],
    ['a b', 'tsv', 'Line 1: expected source<TAB>target.'],
    ['a\tb\tc', 'tsv', 'Line 1: expected source<TAB>target.'],
    ['a\u0007\tb', 'tsv', 'Line 1: source term contains a control or separator character.'],
    ['a\tb\u2028c', 'tsv', 'Line 1: target term contains a control or separator character.'],
    ['a\tb\u2028', 'tsv', 'Line 1: target term contains a control or separator character.'],
    ['a\tb\n\u2029x\ty', 'tsv', 'Line 2: source term contains a control or separator character.'],
    ['a\u000b\tb', 'tsv', 'Line 1: source term contains a control or separator character.'],
    ['a,b\u000c', 'csv', 'Line 1: target term contains a control or separator character.'],
    ['a\tb\rc', 'tsv', 'Line 1: target term contains a control or separator character.'],
    ['a\t\u2028', 'tsv', 'Line 1: target term contains a control or separator character.'],
    ['a,b,c', 'csv', 'Line 1: expected source,target[,source_lang,target_lang].'],
    ['"a,b', 'csv', 'Line 1: broken CSV quoting.'],
    ['"a"x,b', 'csv', 'Line 1: broken CSV quoting.'],
    ['a,b,en,de', 'csv', 'Line 1: language columns do not match en-es.'],
    ['\n\n', 'tsv', 'No entries.'],
  ] as const)('refuses %j (%s) naming the line', (text, format, detail) => {
    expect(parseGlossaryEntries(text, format, { source_lang: 'en', target_lang: 'es' })).toEqual(
      fail(detail),
    );
  });

  it('accepts a term of 1024 UTF-8 bytes and refuses 1025 (bytes, not characters)', () => {
    const at = 'é'.repeat(512);
    expect(utf8Length(at)).toBe(1024);
    expect(parseGlossaryEntries(`${at}\tx`, 'tsv').ok).toBe(true);
    expect(parseGlossaryEntries(`x\t${at}a`, 'tsv')).toEqual(
      fail('Line 1: target term is longer than 1024 UTF-8 bytes.'),
    );
  });

  it('accepts entries of exactly 10 MiB and refuses one byte more', () => {
    const line = `${'a'.repeat(1000)}\t${'b'.repeat(1000)}\n`; // 2002 bytes
    const lines: string[] = [];
    for (let i = 0; lines.length * 2002 + 2002 <= MAX_GLOSSARY_BYTES; i++)
      lines.push(`${i}${line.slice(String(i).length)}`);
    const body = lines.join('');
    const padded = body + '\n'.repeat(MAX_GLOSSARY_BYTES - utf8Length(body));
    expect(utf8Length(padded)).toBe(MAX_GLOSSARY_BYTES);
    const result = parseGlossaryEntries(padded, 'tsv');
    expect(result.ok && result.entries.length).toBe(lines.length);
    expect(parseGlossaryEntries(`${padded}\n`, 'tsv')).toEqual(
      fail(`Entries exceed ${MAX_GLOSSARY_BYTES} bytes.`, 'Glossary too large.'),
    );
  });

  it('formats entries back as TSV', () => {
    expect(
      formatGlossaryEntries([
        { source: 'file', target: 'archivo' },
        { source: 'car', target: 'coche' },
      ]),
    ).toBe('file\tarchivo\ncar\tcoche');
  });
});

describe('utf8Length', () => {
  it.each([['a'], ['é'], ['中'], ['😀'], ['\ud800'], ['a\udc00b'], ['mixed é中😀 text'], ['']])(
    'counts %j as Buffer.byteLength does',
    (text) => {
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
    },
  );
});

describe('checkGlossaryName', () => {
  it('accepts 1024 UTF-8 bytes and refuses 1025, and refuses a blank name', () => {
    expect(checkGlossaryName('ü'.repeat(512))).toBeUndefined();
    expect(checkGlossaryName(`${'ü'.repeat(512)}x`)).toBe(
      "Parameter 'name' is too long (at most 1024 UTF-8 bytes).",
    );
    expect(checkGlossaryName('  ')).toBe("Parameter 'name' must not be empty.");
  });
});
