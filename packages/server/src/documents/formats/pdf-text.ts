/**
 * The text of a PDF with its positions, read by pdf.js (`pdfjs-dist`, legacy build for Node): text items
 * are joined into lines (same baseline) and lines into blocks (the next line close below, of about the same
 * size). Coordinates are PDF user space (origin bottom left), as pdf-lib draws.
 */
import { DocumentFormatError } from './format.js';

export interface PdfBlock {
  readonly page: number;
  /** Left edge and the baseline of the first line. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  /** From the top of the first line to the bottom of the last. */
  readonly top: number;
  readonly bottom: number;
  /** Font size of the first line. */
  readonly size: number;
  readonly lines: number;
  readonly text: string;
}

interface Line {
  x: number;
  y: number;
  right: number;
  size: number;
  text: string;
}

/** Pages read at most (over it: 413). */
export const MAX_PDF_PAGES = 500;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

export async function readPdfText(bytes: Uint8Array): Promise<{ pages: number; blocks: PdfBlock[] }> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument } = await pdfjs;
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: true,
    verbosity: 0,
  });
  let document: Awaited<typeof task.promise>;
  try {
    document = await task.promise;
  } catch (error) {
    await task.destroy();
    if (error instanceof Error && error.name === 'PasswordException')
      throw new DocumentFormatError('The PDF document is encrypted (password protected).');
    throw new DocumentFormatError('The PDF document is not a readable PDF.');
  }
  try {
    if (document.numPages > MAX_PDF_PAGES)
      throw new DocumentFormatError(`PDF documents may have at most ${MAX_PDF_PAGES} pages.`, 413);
    const blocks: PdfBlock[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const lines: Line[] = [];
      let line: Line | undefined;
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const [a, b, , d, x, y] = item.transform as number[];
        const size = Math.hypot(a!, b!) || Math.abs(d!);
        if (item.str.trim() === '') {
          if (line && item.str !== '') line.text += ' ';
          if (item.hasEOL) line = undefined;
          continue;
        }
        if (line && Math.abs(line.y - y!) < size * 0.5) {
          const gap = x! - line.right;
          line.text += gap > size * 0.15 && !line.text.endsWith(' ') ? ` ${item.str}` : item.str;
          line.right = Math.max(line.right, x! + item.width);
        } else {
          line = { x: x!, y: y!, right: x! + item.width, size, text: item.str };
          lines.push(line);
        }
        if (item.hasEOL) line = undefined;
      }
      blocks.push(...groupLines(lines, number - 1));
      page.cleanup();
    }
    return { pages: document.numPages, blocks };
  } finally {
    await document.destroy();
  }
}

function groupLines(lines: readonly Line[], page: number): PdfBlock[] {
  const groups: Line[][] = [];
  for (const line of lines) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    const below = last && last.y - line.y > 0 && last.y - line.y <= last.size * 1.7;
    if (group && last && below && Math.abs(last.size - line.size) < last.size * 0.2) group.push(line);
    else groups.push([line]);
  }
  return groups.map((group) => {
    const first = group[0]!;
    const last = group.at(-1)!;
    const x = Math.min(...group.map((line) => line.x));
    let text = '';
    for (const line of group) {
      const words = line.text.trim();
      text =
        text === '' ? words : /\p{L}-$/u.test(text) ? `${text.slice(0, -1)}${words}` : `${text} ${words}`;
    }
    return {
      page,
      x,
      y: first.y,
      width: Math.max(...group.map((line) => line.right)) - x,
      top: first.y + first.size,
      bottom: last.y - last.size * 0.25,
      size: first.size,
      lines: group.length,
      text,
    };
  });
}
