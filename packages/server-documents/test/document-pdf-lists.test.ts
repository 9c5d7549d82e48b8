/**
 * List items in PDFs keep their hanging indent (issue 21): a marker (`•`, `1.`) set apart from its text by a
 * tab is drawn where it was, and the translated text from where the item's text started, its wrapped
 * lines too (test/fixtures/list-items.pdf: LibreOffice's PDF of a Word document, see the README there).
 * Before, the item was drawn as "• text" with one space, its wrapped lines under the marker.
 */
import { readFileSync } from 'node:fs';
import mammoth from 'mammoth';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { styledRuns } from './document-pdf-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const fixture = readFileSync(new URL('./fixtures/list-items.pdf', import.meta.url));

it('a bullet and a number stay at the marker column, the translated text (all its lines) at the hanging indent', async () => {
  const { bytes, final } = await translateFile(t, 'list-items.pdf', fixture, {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(final.status).toBe('done');
  const runs = await styledRuns(bytes);
  // Lines by baseline: where each starts, and its text.
  const lines = new Map<number, { x: number; text: string }[]>();
  for (const run of runs) {
    const y = Math.round(run.y);
    lines.set(y, [...(lines.get(y) ?? []), { x: run.x, text: run.text }]);
  }
  const rows = [...lines.values()].map((parts) => ({
    x: Math.min(...parts.map((part) => part.x)),
    parts,
    text: parts.map((part) => part.text).join(''),
  }));
  expect(rows[0]!.text).toBe('La casa es grande.');
  expect(rows[0]!.x).toBeCloseTo(72.1, 0);
  // The long item: its marker at 90.1, its text at 108.1 on its first line, and its wrapped lines at 108.1.
  const item = rows.findIndex((row) => row.text.startsWith('•'));
  const [marker, ...text] = rows[item]!.parts;
  expect(marker).toMatchObject({ text: '•' });
  expect(marker!.x).toBeCloseTo(90.1, 0);
  expect(text[0]!.x).toBeCloseTo(108.1, 0);
  expect(text.map((part) => part.text).join('')).toMatch(/^El gato es negro/);
  const wrapped = rows.slice(item + 1).findIndex((row) => row.text.startsWith('•'));
  expect(wrapped).toBeGreaterThan(0);
  for (const row of rows.slice(item + 1, item + 1 + wrapped)) expect(row.x).toBeCloseTo(108.1, 0);
  // The second bullet, the numbered items, the closing paragraph.
  const second = rows[item + 1 + wrapped]!;
  expect(second.parts[0]).toMatchObject({ text: '•' });
  expect(second.parts[1]!.x).toBeCloseTo(108.1, 0);
  const numbered = rows.filter((row) => /^[12]\./.test(row.text));
  expect(numbered.map((row) => row.parts[0]!.text)).toEqual(['1.', '2.']);
  for (const row of numbered) {
    expect(row.parts[0]!.x).toBeCloseTo(90.1, 0);
    expect(row.parts[1]!.x).toBeCloseTo(108.1, 0);
  }
  expect(
    numbered[0]!.parts
      .slice(1)
      .map((part) => part.text)
      .join(''),
  ).toBe('El gato es negro.');
  expect(rows.at(-1)!.x).toBeCloseTo(72.1, 0);
});

it('as a DOCX (output_format=docx): the marker, a tab, the translated text', async () => {
  const { bytes, final } = await translateFile(t, 'list-items.pdf', fixture, {
    target_lang: 'ES',
    source_lang: 'EN',
    output_format: 'docx',
  });
  expect(final.status).toBe('done');
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
  const paragraphs = value.split('\n').filter((line) => line.trim() !== '');
  expect(paragraphs).toContain('1.\tEl gato es negro.');
  expect(paragraphs.find((line) => line.startsWith('•'))).toMatch(/^•\tEl gato es negro/);
});
