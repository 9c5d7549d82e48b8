/**
 * PDF and image document benchmark: documents per minute through the whole job (upload, extract, translate,
 * rebuild, status polling, download) with Apertium (en→es), 4 documents in flight, for a 10-page PDF (about
 * 30 lines a page in 10 paragraphs), the same with a bold blue first word in every paragraph (blocks of
 * two styles: markup with a code), and a 1200 × 800 PNG with 8 lines of text. Baseline measured in the same
 * run: the same text sent to POST /v2/translate (50 texts a request), so the ratio is what reading and
 * rewriting the file costs on top of translating its text (for images: OCR and drawing). Every document
 * has different sentences, so the engine output cache never answers. One PDF and one PNG are translated
 * first, untimed (loading pdf.js and Tesseract's data is a cost of the first document of a process).
 *   pnpm --filter @glossa/server bench:document-pdf
 */
import { readFileSync } from 'node:fs';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { startBenchService } from './document-service.js';

const DOCUMENTS = 4;
const sentences = readFileSync(new URL('../../server/bench/apertium-sentences.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '');
/** A word of letters only that names (document, paragraph, sentence), so no two units are the same. */
const label = (...numbers: number[]) =>
  `Zq${numbers.map((value) => value.toString(26).replace(/./g, (digit) => String.fromCharCode(97 + Number.parseInt(digit, 26)))).join('x')}`;
const sentence = (n: number) => `${label(n)} ${sentences[n % sentences.length]!}`;

/** Paragraphs of document `n`: 10 pages of 10 paragraphs of 3 sentences. */
const pdfParagraphs = (n: number) =>
  Array.from({ length: 100 }, (_, i) => [0, 1, 2].map((s) => sentence(n * 301 + i * 3 + s)).join(' '));

async function makePdf(n: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const paragraphs = pdfParagraphs(n);
  for (let page = 0; page < 10; page++) {
    const sheet = pdf.addPage([595, 842]);
    let y = 780;
    for (const paragraph of paragraphs.slice(page * 10, page * 10 + 10)) {
      sheet.drawText(paragraph, { x: 56, y, size: 10, font, maxWidth: 480, lineHeight: 12 });
      y -= 12 * Math.ceil(font.widthOfTextAtSize(paragraph, 10) / 480) + 18;
    }
  }
  return pdf.save();
}

/** The same paragraphs with the first word of each in bold blue: blocks of two styles (markup with a code). */
async function makeStyledPdf(n: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const paragraphs = pdfParagraphs(n);
  for (let page = 0; page < 10; page++) {
    const sheet = pdf.addPage([595, 842]);
    let y = 780;
    for (const paragraph of paragraphs.slice(page * 10, page * 10 + 10)) {
      const [head = '', ...rest] = paragraph.split(' ');
      sheet.drawText(head, { x: 56, y, size: 10, font: bold, color: rgb(0.1, 0.2, 0.7) });
      const x = 56 + bold.widthOfTextAtSize(`${head} `, 10);
      const width = 480 - (x - 56);
      sheet.drawText(rest.join(' '), { x, y, size: 10, font, maxWidth: width, lineHeight: 12 });
      y -= 12 * Math.ceil(font.widthOfTextAtSize(paragraph, 10) / width) + 18;
    }
  }
  return pdf.save();
}

const imageLines = (n: number) => Array.from({ length: 8 }, (_, i) => sentence(n * 53 + i).slice(0, 50));

async function makePng(n: number): Promise<Buffer> {
  const overlays = await Promise.all(
    imageLines(n).map(async (line, i) => ({
      input: await sharp({ text: { text: line, font: 'DejaVu Sans 22', dpi: 96, rgba: true } })
        .png()
        .toBuffer(),
      left: 40,
      top: 40 + i * 90,
    })),
  );
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: '#ffffff' } })
    .composite(overlays)
    .png()
    .toBuffer();
}

const service = await startBenchService('document-pdf');

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const cases = [
  { name: '10-page PDF', file: 'report.pdf', make: makePdf, texts: pdfParagraphs },
  {
    name: '10-page PDF, a bold blue word per paragraph',
    file: 'styled.pdf',
    make: makeStyledPdf,
    texts: pdfParagraphs,
  },
  { name: '1200×800 PNG, 8 lines', file: 'poster.png', make: makePng, texts: imageLines },
] as const;
// Warm-up (not timed): the first PDF of a process loads pdf.js (about 1.3 s), the first image sharp and
// Tesseract's data; the figures are for a running server.
await service.translateDocument(await makePdf(0), 'warm.pdf', 'ES');
await service.translateDocument(await makePng(0), 'warm.png', 'ES');
for (const [index, kind] of cases.entries()) {
  const first = 1000 * (index + 1);
  const files = await Promise.all(Array.from({ length: DOCUMENTS }, (_, i) => kind.make(first + i)));
  const documentMs = await timed(() =>
    Promise.all(files.map((bytes) => service.translateDocument(bytes, kind.file, 'ES'))),
  );
  const textMs = await timed(() =>
    Promise.all(
      Array.from({ length: DOCUMENTS }, (_, i) => service.translateText(kind.texts(first + 100 + i), 'ES')),
    ),
  );
  console.log(
    `${kind.name} (apertium en→es, ${DOCUMENTS} in flight): ${(documentMs / 1000).toFixed(2)} s, ${((DOCUMENTS / documentMs) * 60_000).toFixed(1)} documents per minute; the same text through /v2/translate ${(textMs / 1000).toFixed(2)} s; ratio ${(documentMs / textMs).toFixed(2)}×`,
  );
}
await service.close();
