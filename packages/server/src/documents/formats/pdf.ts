/**
 * PDF: the text is read with its positions by pdf.js and grouped into blocks (one plain text each); the
 * translated PDF is the same file (pages, images, drawings, links) with the page content streams' text
 * objects removed and every block drawn again in its place with pdf-lib, in DejaVu Sans embedded as a
 * subset (Latin, Greek, Cyrillic, Arabic, Hebrew …), wrapped at the block's width and made smaller until it
 * fits the block's height. Billed at least 50,000 characters.
 */
import { readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDocument,
  type PDFFont,
  PDFName,
  PDFRawStream,
  PDFRef,
  rgb,
} from 'pdf-lib';
import { type DocumentFormat, DocumentFormatError, type Extraction } from './format.js';
import { pdfBlocksToDocx } from './pdf-docx.js';
import { stripText } from './pdf-strip.js';
import { type PdfBlock, readPdfText } from './pdf-text.js';

const FONT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

export const pdfFormat: DocumentFormat = {
  name: 'PDF',
  maxBytes: 30 * 1024 * 1024,
  contentType: 'application/pdf',
  minimumBilled: 50_000,
  async extract(bytes, options): Promise<Extraction> {
    const { blocks } = await readPdfText(bytes);
    const texts = blocks.filter((block) => /\p{L}/u.test(block.text));
    return {
      texts: texts.map((block) => ({ text: block.text, mode: 'plain' as const })),
      rebuild: (outputs) => {
        const translations = new Map(texts.map((block, i) => [block, outputs[i]]));
        if (options.outputFormat === 'docx')
          return pdfBlocksToDocx(
            blocks,
            blocks.map((block) => translations.get(block)?.trim() || block.text),
          );
        return rebuildPdf(bytes, blocks, translations);
      },
    };
  },
};

async function rebuildPdf(
  bytes: Uint8Array,
  blocks: readonly PdfBlock[],
  translations: ReadonlyMap<PdfBlock, string | undefined>,
): Promise<Uint8Array> {
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch {
    throw new DocumentFormatError('The PDF document could not be rewritten (pdf-lib cannot read it).');
  }
  document.registerFontkit(fontkit);
  let fontBytes: Buffer;
  try {
    fontBytes = readFileSync(FONT_FILE);
  } catch {
    throw new DocumentFormatError('PDF documents need the DejaVu fonts on the server (fonts-dejavu-core).');
  }
  const font = await document.embedFont(fontBytes, { subset: true });
  const pages = document.getPages();
  const replaced = new Set<PDFRef>();
  for (const page of pages) {
    const raw = page.node.get(PDFName.of('Contents'));
    const refs = raw instanceof PDFArray ? raw.asArray() : raw ? [raw] : [];
    const parts = refs.map((ref) => {
      if (ref instanceof PDFRef) replaced.add(ref);
      const stream = ref instanceof PDFRef ? document.context.lookup(ref) : ref;
      return stream instanceof PDFRawStream
        ? stripText(decodePDFRawStream(stream).decode())
        : new Uint8Array();
    });
    const stripped = document.context.flateStream(Buffer.concat(parts));
    page.node.set(PDFName.of('Contents'), document.context.register(stripped));
  }
  // The old streams go: saved, they would carry the original text along (pdf-lib keeps unused objects).
  for (const ref of replaced) document.context.delete(ref);
  for (const block of blocks) {
    const page = pages[block.page];
    if (!page) continue;
    const text = translations.get(block)?.trim() || block.text;
    drawBlock(page, font, block, text);
  }
  return document.save();
}

function drawBlock(
  page: ReturnType<PDFDocument['getPages']>[number],
  font: PDFFont,
  block: PdfBlock,
  text: string,
): void {
  // A translation may run up to 30% wider than the original line, within the page's right margin.
  const width = Math.max(block.width, Math.min(block.width * 1.3, page.getWidth() - block.x - 36));
  const room = Math.max(block.top - block.bottom, block.size * 1.2);
  // Word widths are measured once, at size 1 (fontkit's layout is slow), and scaled.
  const words = text.split(/\s+/).map((word) => ({ word, width: font.widthOfTextAtSize(word, 1) }));
  const space = font.widthOfTextAtSize(' ', 1);
  let size = block.size;
  let lines = wrap(words, space, width / size);
  while (size > 4 && lines.length * size * 1.2 > room * 1.05) {
    size *= 0.92;
    lines = wrap(words, space, width / size);
  }
  lines.forEach((line, index) => {
    page.drawText(line, { x: block.x, y: block.y - index * size * 1.2, size, font, color: rgb(0, 0, 0) });
  });
}

/** Lines of words within `width` (in units of the font size). */
function wrap(words: readonly { word: string; width: number }[], space: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const { word, width: wordWidth } of words) {
    if (line !== '' && used + space + wordWidth > width) {
      lines.push(line);
      line = '';
    }
    used = line === '' ? wordWidth : used + space + wordWidth;
    line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
