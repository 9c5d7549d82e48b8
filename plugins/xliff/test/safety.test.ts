import { describe, expect, test } from 'vitest';
import { parseXliff, translateXliff, XliffError } from '../src/index.js';

function caught(run: () => unknown): XliffError {
  try {
    run();
  } catch (error) {
    if (error instanceof XliffError) return error;
    throw error;
  }
  throw new Error('expected an XliffError');
}

describe('unsafe and bad XML', () => {
  test('an external entity (XXE) is refused before anything is read', () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE xliff [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<xliff version="2.1" srcLang="en"><file id="f"><unit id="u"><segment><source>&secret;</source></segment></unit></file></xliff>`;
    const error = caught(() => parseXliff(xml));
    expect(error.code).toBe('doctype_refused');
    expect(error.message).toBe('2:63: DOCTYPE is not allowed (refusing entity declarations)');
  });

  test('an entity bomb (billion laughs) is refused', () => {
    const entities = Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`,
    ).join('');
    const xml = `<!DOCTYPE x [<!ENTITY l0 "lol">${entities}]><xliff version="2.1" srcLang="en"><file id="f"/>&l9;</xliff>`;
    expect(caught(() => parseXliff(xml)).code).toBe('doctype_refused');
  });

  test('an undeclared entity is malformed XML with its position', () => {
    const error = caught(() =>
      parseXliff('<xliff version="2.1" srcLang="en">\n  <file id="f">&nbsp;</file></xliff>'),
    );
    expect(error.code).toBe('malformed_xml');
    expect([error.line, error.column]).toEqual([2, 21]);
  });

  test('not XLIFF, an unknown version, a unit without id, an unknown state', () => {
    expect(caught(() => parseXliff('<html/>')).message).toBe('1:7: root element is <html>, expected <xliff>');
    expect(caught(() => parseXliff('<xliff version="3.0"/>')).message).toBe(
      '1:22: unsupported XLIFF version "3.0" (1.2, 2.0 and 2.1 are read)',
    );
    const base = (unit: string) => `<xliff version="2.1" srcLang="en"><file id="f">${unit}</file></xliff>`;
    expect(caught(() => parseXliff(base('<unit><segment><source>x</source></segment></unit>'))).code).toBe(
      'invalid_xliff',
    );
    expect(
      caught(() => parseXliff(base('<unit id="u"><segment state="done"><source>x</source></segment></unit>')))
        .message,
    ).toMatch(/unknown segment state "done"/);
  });

  test('translateXliff keeps a segment whose target breaks its codes, and says why', async () => {
    const xml =
      '<xliff version="2.1" srcLang="en"><file id="f"><unit id="u"><segment><source>A <pc id="1">b</pc></source></segment></unit></file></xliff>';
    const result = await translateXliff(xml, { translate: async () => ['A b'] });
    expect(result).toEqual({
      xliff: xml,
      filled: 0,
      kept: [{ key: 'u', reason: 'Inline codes changed: missing g#1' }],
    });
  });

  test('misuse throws TypeError', async () => {
    // @ts-expect-error: translate is required
    await expect(translateXliff('<xliff/>', {})).rejects.toThrow(
      new TypeError('translateXliff: option `translate` must be an async function, got undefined'),
    );
  });
});
