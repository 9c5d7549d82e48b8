/**
 * Table cells stay separate segments in PDFs and images, even on one line (issue 21): the fixtures are
 * LibreOffice's PDF and PNG exports of test/fixtures/table-cells.fodt (see the README there): a bordered
 * table of short cells, one cell wrapped over two lines, and a borderless two-column table.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { keepInitialCase } from '@glossa/server/feature';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { styledRuns } from './document-pdf-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const ES = { target_lang: 'ES', source_lang: 'EN' };
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

it('pdf (Apertium en→es): each cell of a row translated on its own and drawn in its cell', async () => {
  const { bytes } = await translateFile(t, 'table-cells.pdf', fixture('table-cells.pdf'), ES);
  const runs = await styledRuns(bytes);
  /** The texts drawn on the baseline `y`, with where each starts. */
  const row = (y: number) =>
    runs.filter((run) => Math.abs(run.y - y) < 1).map((run) => [Math.round(run.x), run.text] as const);
  // Before: one segment per row ("El gato negro en la casa"), drawn from the first cell across the others.
  expect(row(756.7)).toEqual([
    [60, 'El animal'],
    [220, 'El color'],
    [381, expect.stringMatching(/^El (sitio|lugar)$/)],
  ]);
  expect(row(736.5)).toEqual([
    [60, 'El gato'],
    [220, 'negro'],
    [381, 'en la casa'],
  ]);
  expect(row(716.3)).toEqual([
    [60, 'El perro'],
    [220, 'blanco'],
    [381, 'en el jardín'],
  ]);
  // A cell in lower case stays in lower case (Apertium writes "Negro": every segment in sentence case).
  // The wrapped cell is one segment: its translation starts in its cell and stays left of the page edge.
  const wrapped = runs.filter((run) => run.x > 370 && run.y < 700 && run.y > 670);
  expect(wrapped.map((run) => run.text).join(' ')).toMatch(/^en el árbol .*río$/);
  // The borderless table: two cells, two segments; the paragraph after the table is its own.
  expect(row(647.9)).toEqual([
    [60, expect.stringMatching(/^E[Ll] agua .*\.$/)],
    [301, 'El coche es rojo.'],
  ]);
  expect(row(664.7)).toEqual([[57, 'El libro es en la mesa.']]);
});

/** Tesseract's words with their left edges. */
function words(image: Buffer, lang: string): Promise<{ text: string; left: number; top: number }[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'tesseract',
      ['stdin', 'stdout', '-l', lang, 'tsv'],
      { env: { ...process.env, OMP_THREAD_LIMIT: '1' } },
      (error, stdout) =>
        error
          ? reject(error)
          : resolve(
              stdout
                .split('\n')
                .map((row) => row.split('\t'))
                .filter((cells) => cells[0] === '5' && (cells[11] ?? '').trim() !== '')
                .map((cells) => ({ text: cells[11]!.trim(), left: Number(cells[6]), top: Number(cells[7]) })),
            ),
    );
    child.stdin?.end(image);
  });
}

it('png (LibreOffice page image, Apertium en→es): each cell translated on its own and drawn in its column', async () => {
  const source = fixture('table-cells.png');
  // The columns' left edges as OCR reads the source.
  const read = await words(source, 'eng');
  const leftOf = (word: string) => read.find((w) => w.text === word)!.left;
  const columns = [leftOf('cat'), leftOf('black'), leftOf('house') - 60];
  const { bytes, final } = await translateFile(t, 'table-cells.png', source, ES);
  expect(final.status).toBe('done');
  const drawn = await words(bytes, 'spa');
  const at = (word: string) => {
    // OCR may read a cell's border with the word next to it ("|negro").
    const found = drawn.find((w) => w.text.toLowerCase().includes(word));
    if (!found) throw new Error(`'${word}' not read in ${drawn.map((w) => w.text).join(' ')}`);
    return found;
  };
  // Before: "El gato negro en la casa" drawn as one text from the first column ("negro" near x 150).
  expect(Math.abs(at('negro').left - columns[1]!)).toBeLessThan(25);
  expect(at('jardín').left).toBeGreaterThan(columns[2]!);
  expect(at('gato').left).toBeLessThan(columns[1]! - 40);
}, 60_000);

it('a segment that starts in lower case keeps it (not for German targets, whose nouns are capitalized)', () => {
  expect(keepInitialCase('black', 'Negro', false, 'es')).toBe('negro');
  expect(keepInitialCase('<g id="1">black</g> cat', '<g id="1">Negro</g> gato', true, 'es')).toBe(
    '<g id="1">negro</g> gato',
  );
  expect(keepInitialCase('&amp; black', '&amp; Negro', true, 'es')).toBe('&amp; negro');
  expect(keepInitialCase('The cat', 'El gato', false, 'es')).toBe('El gato');
  expect(keepInitialCase('house', 'Haus', false, 'de')).toBe('Haus');
  expect(keepInitialCase('42 cats', '42 Gatos', false, 'es')).toBe('42 gatos');
});
