import mammoth from 'mammoth';
import {
  degrees,
  PDFArray,
  type PDFDict,
  PDFDocument,
  PDFName,
  type PDFNumber,
  PDFString,
  rgb,
  StandardFonts,
} from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { styledRuns } from './document-pdf-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** The PDF translated en → es by the server, and the text items of its first page (blank ones left out). */
async function translatedTextItems(name: string, pdf: PDFDocument) {
  const { bytes } = await translateFile(t, name, await pdf.save(), { target_lang: 'ES', source_lang: 'EN' });
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const items = (await (await document.getPage(1)).getTextContent()).items.filter(
    (item) => 'str' in item && item.str.trim() !== '',
  ) as { str: string; transform: number[]; width: number }[];
  await document.destroy();
  return items;
}

describe('pdf layout: turned text, alignment, paragraphs, spacing, links', () => {
  it('turned text (a vertical margin title) is redrawn turned, in its place', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    page.drawText('The house is big.', { x: 50, y: 300, size: 16, font, rotate: degrees(90) });
    page.drawText('The cat is black.', { x: 100, y: 700, size: 12, font });
    const items = await translatedTextItems('turned.pdf', pdf);
    const turned = items.find((item) => item.str.includes('La casa es grande.'))!;
    const [a, b, , , x, y] = turned.transform.map((value) => Math.round(value));
    expect([a, b, x, y]).toEqual([0, 16, 50, 300]);
    const level = items.find((item) => item.str.includes('El gato es negro.'))!;
    expect(level.transform.map((value) => Math.round(value))).toEqual([12, 0, 0, 12, 100, 700]);
  });

  it('alignment is kept: a centred title stays centred, right-aligned lines keep their right edge', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([600, 842]);
    const title = 'The house is big.';
    page.drawText(title, { x: 300 - font.widthOfTextAtSize(title, 24) / 2, y: 760, size: 24, font });
    for (const [text, y] of [
      ['The dog is in the garden.', 600],
      ['The cat is black.', 586],
    ] as const)
      page.drawText(text, { x: 500 - font.widthOfTextAtSize(text, 12), y, size: 12, font });
    page.drawText('Good morning, my friend.', { x: 72, y: 400, size: 12, font });
    const items = await translatedTextItems('aligned.pdf', pdf);
    const edges = (text: string) => {
      const item = items.find((candidate) => candidate.str.includes(text))!;
      return { left: item.transform[4]!, right: item.transform[4]! + item.width };
    };
    const centred = edges('La casa es grande.');
    expect(Math.abs((centred.left + centred.right) / 2 - 300)).toBeLessThan(1);
    const rights = items.filter((item) => item.transform[5]! < 650 && item.transform[5]! > 500);
    expect(rights.length).toBeGreaterThan(1);
    for (const item of rights) expect(Math.abs(item.transform[4]! + item.width - 500)).toBeLessThan(1);
    expect(edges('Buenos días').left).toBeCloseTo(72, 3);
  });

  it('two paragraphs with no space between them: the short last line ends the first (two blocks)', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    const first = 'The house is big and the garden is green. The dog is in the garden and the cat is black.';
    page.drawText(first, { x: 72, y: 700, size: 12, font, maxWidth: 220, lineHeight: 14 });
    const lines = Math.ceil(font.widthOfTextAtSize(first, 12) / 220);
    page.drawText('The car is red.', { x: 72, y: 700 - lines * 14, size: 12, font });
    const { bytes } = await translateFile(t, 'paragraphs.pdf', await pdf.save(), {
      target_lang: 'ES',
      source_lang: 'EN',
      output_format: 'docx',
    });
    const { value } = await mammoth.extractRawText({ buffer: bytes });
    const paragraphs = value.split('\n').filter((line) => line.trim() !== '');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]).toMatch(/^La casa es grande .* el gato es negros?\.$/);
    expect(paragraphs[1]).toBe('El coche es rojo.');
  });

  it('a justified paragraph is drawn justified: every line but the last reaches the right edge', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    const words =
      'The house is big and the garden is green. The dog is in the garden and the cat is black. Good morning, my friend. The car is red and the house is big.'.split(
        ' ',
      );
    const [left, measure, size] = [72, 240, 12];
    const lines: string[][] = [[]];
    for (const word of words) {
      const line = lines.at(-1)!;
      if (line.length > 0 && font.widthOfTextAtSize([...line, word].join(' '), size) > measure)
        lines.push([word]);
      else line.push(word);
    }
    lines.forEach((line, index) => {
      const y = 700 - index * 14;
      const last = index === lines.length - 1;
      const used = line.reduce((sum, word) => sum + font.widthOfTextAtSize(word, size), 0);
      const gap =
        last || line.length < 2 ? font.widthOfTextAtSize(' ', size) : (measure - used) / (line.length - 1);
      let x = left;
      for (const word of line) {
        page.drawText(word, { x, y, size, font });
        x += font.widthOfTextAtSize(word, size) + gap;
      }
    });
    expect(lines.length).toBeGreaterThan(3);
    const items = await translatedTextItems('justified.pdf', pdf);
    const rows = new Map<number, { left: number; right: number }>();
    for (const item of items) {
      const y = Math.round(item.transform[5]!);
      const row = rows.get(y) ?? { left: Number.POSITIVE_INFINITY, right: 0 };
      rows.set(y, {
        left: Math.min(row.left, item.transform[4]!),
        right: Math.max(row.right, item.transform[4]! + item.width),
      });
    }
    const ordered = [...rows.entries()].sort((a, b) => b[0] - a[0]).map(([, row]) => row);
    expect(ordered.length).toBeGreaterThan(2);
    for (const row of ordered) expect(row.left).toBeCloseTo(left, 3);
    for (const row of ordered.slice(0, -1)) expect(Math.abs(row.right - (left + measure))).toBeLessThan(0.5);
    expect(ordered.at(-1)!.right).toBeLessThan(left + measure - 1);
  });

  it('words in different faces on one line are spaced by one space of the face before the gap', async () => {
    const pdf = await PDFDocument.create();
    const regular = await pdf.embedFont(StandardFonts.Helvetica);
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
    const page = pdf.addPage([595, 842]);
    let x = 72;
    for (const [text, font] of [
      ['Note:', bold],
      [' the house is big and the garden is green and the ', regular],
      ['cat', bold],
      [' is black.', regular],
    ] as const) {
      page.drawText(text, { x, y: 700, size: 12, font });
      x += font.widthOfTextAtSize(text, 12);
    }
    const items = await translatedTextItems('spaced.pdf', pdf);
    expect(items.length).toBeGreaterThan(2);
    for (let i = 1; i < items.length; i++) {
      const [previous, item] = [items[i - 1]!, items[i]!];
      if (Math.abs(previous.transform[5]! - item.transform[5]!) > 1) continue;
      const gap = item.transform[4]! - (previous.transform[4]! + previous.width);
      // One space of DejaVu Sans (0.318 em) or Sans Bold (0.348 em) at 12 pt, give or take a trailing space.
      expect(gap, `${previous.str} → ${item.str}`).toBeGreaterThan(-0.5);
      expect(gap).toBeLessThan(12 * 0.36);
    }
  });

  it('a link over a run of its own style follows the words to where the translation drew them', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    let x = 72;
    const parts = [
      ['Good morning, the house is big. Visit ', rgb(0, 0, 0)],
      ['the garden', rgb(0, 0, 1)],
      [' today.', rgb(0, 0, 0)],
    ] as const;
    let linkRect: number[] = [];
    for (const [text, color] of parts) {
      const width = font.widthOfTextAtSize(text, 12);
      page.drawText(text, { x, y: 700, size: 12, font, color });
      if (text === 'the garden') linkRect = [x, 697, x + width, 711];
      x += width;
    }
    const link = pdf.context.register(
      pdf.context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: linkRect,
        Border: [0, 0, 0],
        A: { S: 'URI', URI: PDFString.of('https://example.org/garden') },
      }),
    );
    page.node.set(PDFName.of('Annots'), pdf.context.obj([link]));
    const { bytes } = await translateFile(t, 'link.pdf', await pdf.save(), {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    const blue = (await styledRuns(bytes)).find((run) => run.color.join(',') === '0,0,255')!;
    expect(blue.text).toMatch(/jardín/);
    const reopened = await PDFDocument.load(bytes);
    const annotations = reopened.getPage(0).node.Annots()!;
    const rect = (reopened.context.lookup(annotations.get(0)) as PDFDict)
      .lookup(PDFName.of('Rect'), PDFArray)
      .asArray()
      .map((value) => (value as PDFNumber).asNumber());
    expect(rect[0]).toBeCloseTo(blue.x, 1);
    expect(rect[2]).toBeCloseTo(blue.x + blue.width, 1);
    expect(rect[1]! < blue.y && rect[3]! > blue.y).toBe(true);
    // It moved: the blue words no longer start where they started.
    expect(Math.abs(rect[0]! - linkRect[0]!)).toBeGreaterThan(5);
  });
});
