import { describe, expect, it } from 'vitest';
import {
  decodeGlossaryEntries,
  encodeGlossaryEntries,
  formatGlossaryCsv,
  GlossaError,
  glossaryEntriesToMap,
  parseGlossaryFile,
} from '../src/index.js';

describe('glossary entries', () => {
  const entries = [
    { source: 'big, red', target: 'grande "rojo"' },
    { source: 'cat', target: 'gato' },
  ];

  it('encodes data as TSV, trimming terms, and passes ready text through', () => {
    expect(encodeGlossaryEntries([{ source: ' cat ', target: 'gato' }, ...entries.slice(0, 1)])).toEqual({
      entries: 'cat\tgato\nbig, red\tgrande "rojo"',
      entries_format: 'tsv',
    });
    expect(encodeGlossaryEntries(new Map([['a', 'b']]))).toEqual({ entries: 'a\tb', entries_format: 'tsv' });
    expect(encodeGlossaryEntries({ text: 'a,b', format: 'csv' })).toEqual({
      entries: 'a,b',
      entries_format: 'csv',
    });
    expect(() => encodeGlossaryEntries([])).toThrow(new TypeError('Expected at least one glossary entry'));
    expect(() => encodeGlossaryEntries([{ source: 'a'.repeat(1025), target: 'b' }])).toThrow(
      new RangeError('Glossary entry 1: source term is over 1024 UTF-8 bytes'),
    );
  });

  it('round-trips CSV with quoting, and reads TSV and CSV files by the service rules', () => {
    const csv = formatGlossaryCsv(entries);
    expect(csv).toBe('"big, red","grande ""rojo"""\ncat,gato');
    expect(parseGlossaryFile(csv, 'csv')).toEqual(entries);
    expect(parseGlossaryFile('cat\tgato\n\ndog\tperro\n', 'tsv')).toEqual([
      { source: 'cat', target: 'gato' },
      { source: 'dog', target: 'perro' },
    ]);
    expect(() => parseGlossaryFile('cat\tgato\ncat\tmichi', 'tsv')).toThrow(
      new RangeError("Invalid glossary entries. Line 2: duplicate source term 'cat'."),
    );
  });

  it('decodes the TSV the service sends, and refuses a line without a tab', () => {
    expect(decodeGlossaryEntries('cat\tgato\r\ndog\tperro\n')).toEqual([
      { source: 'cat', target: 'gato' },
      { source: 'dog', target: 'perro' },
    ]);
    expect(() => decodeGlossaryEntries('cat gato')).toThrow(GlossaError);
    expect(glossaryEntriesToMap(entries).get('cat')).toBe('gato');
  });
});
