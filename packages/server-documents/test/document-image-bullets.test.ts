/**
 * A bulleted list in an image: Tesseract reads the three items as one paragraph, the bullets as
 * low-confidence "*", "¢" or "+." words. Each item must be translated and drawn as its own line, the
 * bullets left where they are.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTsv, recognize } from '../src/formats/ocr.js';
import { translateFile } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const ITEMS = ['Home delivery', 'News and offers', 'Customer support'];

/** A white image with a bulleted list rendered by sharp (Pango, DejaVu Sans 30). */
async function bulletedList(): Promise<Buffer> {
  const text = await sharp({
    text: {
      text: `<span foreground="#000000">${ITEMS.map((item) => `• ${item}`).join('\n')}</span>`,
      font: 'DejaVu Sans 30',
      dpi: 96,
      rgba: true,
    },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: 900, height: 320, channels: 3, background: '#ffffff' } })
    .composite([{ input: text, left: 40, top: 30 }])
    .png()
    .toBuffer();
}

function tesseract(image: Buffer, lang: string, format: 'txt' | 'tsv' = 'txt'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'tesseract',
      ['stdin', 'stdout', '-l', lang, '--psm', '3', ...(format === 'tsv' ? ['tsv'] : [])],
      { env: { ...process.env, OMP_THREAD_LIMIT: '1' } },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    child.stdin?.end(image);
  });
}

/** A TSV as Tesseract writes it: a line row (level 4), then its words (level 5). */
const tsv = (
  rows: [level: number, line: number, word: number, box: number[], confidence: number, text: string][],
) =>
  [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    ...rows.map(([level, line, word, box, confidence, text]) =>
      [level, 1, 1, 1, line, word, ...box, confidence, text].join('\t'),
    ),
  ].join('\n');

describe('bulleted lists in images', () => {
  it('each bulleted line starts a block of its own, without its bullet; a wrapped item stays whole', () => {
    const reading = parseTsv(
      tsv([
        [4, 1, 0, [40, 30, 300, 40], -1, ''],
        [5, 1, 1, [40, 30, 120, 32], 96, 'Services:'],
        [4, 2, 0, [40, 78, 321, 40], -1, ''],
        [5, 2, 1, [40, 88, 12, 12], 24, '*'],
        [5, 2, 2, [75, 79, 112, 31], 96, 'Home'],
        [5, 2, 3, [204, 78, 157, 40], 96, 'delivery,'],
        [4, 3, 0, [75, 126, 200, 32], -1, ''],
        [5, 3, 1, [75, 126, 200, 32], 95, 'every day'],
        [4, 4, 0, [40, 174, 389, 40], -1, ''],
        [5, 4, 1, [40, 184, 12, 12], 58, '¢'],
        [5, 4, 2, [73, 174, 192, 32], 96, 'Customer'],
        [5, 4, 3, [280, 176, 149, 38], 96, 'support'],
        [4, 5, 0, [40, 222, 300, 32], -1, ''],
        [5, 5, 1, [40, 222, 300, 32], 96, 'Call'],
      ]),
    );
    expect(reading.blocks.map((block) => block.text)).toEqual([
      'Services:',
      'Home delivery, every day',
      'Customer support',
      'Call',
    ]);
    // The item's box starts at its text: the bullet is not covered when the translation is drawn.
    expect(reading.blocks[1]!.left).toBe(75);
  });

  it('a line starting with a word, a number or a long dash is not a bullet', () => {
    const reading = parseTsv(
      tsv([
        [4, 1, 0, [40, 30, 300, 40], -1, ''],
        [5, 1, 1, [40, 30, 20, 30], 96, 'I'],
        [5, 1, 2, [70, 30, 120, 32], 96, 'agree'],
        [4, 2, 0, [40, 78, 321, 40], -1, ''],
        [5, 2, 1, [40, 80, 40, 4], 90, '—'],
        [5, 2, 2, [90, 79, 112, 31], 96, 'said'],
        [4, 3, 0, [40, 126, 300, 40], -1, ''],
        [5, 3, 1, [40, 130, 14, 20], 96, '1.'],
        [5, 3, 2, [70, 126, 120, 32], 96, 'Open'],
      ]),
    );
    expect(reading.blocks.map((block) => block.text)).toEqual(['I agree — said 1. Open']);
  });

  it('Apertium en→es: each item translated and drawn on its own line, the bullets kept, none billed', async () => {
    const image = await bulletedList();
    // What this test is about: Tesseract reads the list as one paragraph.
    const rows = (await tesseract(image, 'eng', 'tsv')).split('\n').map((row) => row.split('\t'));
    const paragraphs = new Set(rows.filter((row) => row[0] === '5').map((row) => `${row[2]}/${row[3]}`));
    expect(paragraphs.size).toBeLessThan(3);

    const { bytes, final } = await translateFile(t, 'list.png', image, {
      source_lang: 'EN',
      target_lang: 'ES',
    });
    expect(final.billed_characters).toBe(ITEMS.join('').length);
    const read = (await tesseract(bytes, 'spa')).split('\n').filter((line) => /\p{L}/u.test(line));
    expect(read).toHaveLength(3);
    expect(read.join(' ')).not.toMatch(/delivery|offers|support/);
    // The bullets are still drawn: dark pixels at the first bullet's centre.
    const { data } = await sharp(bytes)
      .extract({ left: 46, top: 46, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]!).toBeLessThan(100);
  });

  it('a bullet Tesseract reads as a letter ("e") still starts its item: no "Home News" line', async () => {
    // test/fixtures/bulleted-menu.png: "• Home / • News / • Contact" (README): Tesseract reads the second
    // bullet as "e", the first and third as "«" and "¢".
    const image = await readFile(new URL('./fixtures/bulleted-menu.png', import.meta.url));
    const rows = (await tesseract(image, 'eng', 'tsv')).split('\n').map((row) => row.split('\t'));
    const firsts = rows.filter((row) => row[0] === '5' && row[5] === '1').map((row) => row[11]);
    expect(firsts).toContain('e');
    expect((await recognize(image, 'en')).blocks.map((block) => block.text)).toEqual([
      'Home',
      'News',
      'Contact',
    ]);

    const { bytes, final } = await translateFile(t, 'menu.png', image, {
      source_lang: 'EN',
      target_lang: 'ES',
    });
    expect(final.billed_characters).toBe('HomeNewsContact'.length);
    const read = (await tesseract(bytes, 'spa')).split('\n').filter((line) => /\p{L}/u.test(line));
    expect(read).toHaveLength(3);
  });
});
