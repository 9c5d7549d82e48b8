/**
 * The text of a PDF with its positions and styles, read by pdf.js (`pdfjs-dist`, legacy build for Node):
 * text items are joined into lines (same baseline) and lines into blocks (the next line close below, of
 * about the same size); each block keeps the style of every character as runs. Annotations that carry
 * text of their own (FreeText boxes, notes) are read too. Coordinates are PDF user space (origin bottom
 * left), as pdf-lib draws.
 */
import { DocumentFormatError } from './format.js';
import { groupLines, isListMarker, type Line, type PdfBlock } from './pdf-blocks.js';
import { createStyleCursor, openStyleReader, PdfStyles, PLAIN_STYLE } from './pdf-styles.js';
import { symbolsAsUnicode } from './pdf-symbols.js';

/** An annotation with text of its own: its `/Contents`, and for FreeText its appearance on the page. */
export interface PdfAnnotation {
  readonly page: number;
  readonly subtype: string;
  /** Object number and generation of the annotation dictionary. */
  readonly ref: { readonly num: number; readonly gen: number };
  readonly text: string;
}

/** A link annotation: the area it makes clickable. */
export interface PdfLink {
  readonly page: number;
  readonly ref: { readonly num: number; readonly gen: number };
  /** `[x1, y1, x2, y2]` in user space. */
  readonly rect: readonly number[];
}

export interface PdfText {
  readonly pages: number;
  readonly blocks: PdfBlock[];
  readonly annotations: PdfAnnotation[];
  readonly links: PdfLink[];
  readonly styles: PdfStyles;
}

/** A gap between two texts on a line wider than this many ems separates table cells. */
const CELL_GAP = 2;
/** Pages read at most (over it: 413). */
export const MAX_PDF_PAGES = 500;
/** Annotations whose `/Contents` is not text for a reader to translate (links, form fields, popups). */
const SKIPPED_ANNOTATIONS = new Set(['Link', 'Widget', 'Popup']);

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

export async function readPdfText(bytes: Uint8Array): Promise<PdfText> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const lib = await pdfjs;
  const task = lib.getDocument({
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
  let styleReader: ReturnType<typeof openStyleReader> | undefined;
  try {
    if (document.numPages > MAX_PDF_PAGES)
      throw new DocumentFormatError(`PDF documents may have at most ${MAX_PDF_PAGES} pages.`, 413);
    const styles = new PdfStyles();
    const plain = styles.indexOf(PLAIN_STYLE);
    styleReader = openStyleReader(lib, bytes, styles);
    const blocks: PdfBlock[] = [];
    const annotations: PdfAnnotation[] = [];
    const links: PdfLink[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const chars = await styleReader.page(number);
      const styleOf = createStyleCursor(chars.styles, plain);
      const kindOf = createStyleCursor(chars.kinds, 'unknown');
      const content = await page.getTextContent();
      const lines: Line[] = [];
      let line: Line | undefined;
      for (const rawItem of content.items) {
        if (!('str' in rawItem)) continue;
        const [a, b, , d, e, f] = rawItem.transform as number[];
        const size = Math.hypot(a!, b!) || Math.abs(d!);
        // Turned text is read in its own frame (the page turned back by its angle), where its lines run along x.
        const angle = Math.abs(b!) < 1e-6 && a! >= 0 ? 0 : Math.atan2(b!, a!);
        const [x, y] = [
          e! * Math.cos(angle) + f! * Math.sin(angle),
          f! * Math.cos(angle) - e! * Math.sin(angle),
        ];
        const onLine = line && line.angle === angle && Math.abs(line.y - y) < size * 0.5;
        // A gap wider than two ems on a line separates table cells (or tab-separated columns): each is a
        // line of its own, marked as a cell, never joined to the text beside it.
        const cellBreak = onLine && rawItem.str.trim() !== '' && x - line!.right > size * CELL_GAP;
        const sameLine = onLine && !cellBreak;
        // Symbol-font codes (a Word bullet `\uf0b7`) as the Unicode characters they show (a picture outside
        // the Basic Multilingual Plane takes two UTF-16 units: each takes its code's style).
        const rawStyles = styleOf(rawItem.str);
        const symbols = symbolsAsUnicode(rawItem.str, kindOf(rawItem.str), !sameLine);
        const item = { ...rawItem, str: symbols.text };
        const itemStyles = symbols.from.map((at) => rawStyles[at]!);
        if (item.str.trim() === '') {
          if (line && item.str !== '') append(line, ' ', itemStyles);
          if (item.hasEOL) line = undefined;
          continue;
        }
        const span = { x, right: x + item.width, style: itemStyles[item.str.search(/\S/)] ?? plain };
        if (line && sameLine) {
          const gap = x - line.right;
          // A list marker alone before a tab (a gap wider than half an em): the item's text starts here.
          if (line.spans.length === 1 && gap > size * 0.5 && isListMarker(line.text.trim()))
            line.marker = { text: line.text.trim(), style: line.spans[0]!.style, textX: x };
          if (gap > size * 0.15 && !line.text.endsWith(' ')) append(line, ' ', itemStyles);
          append(line, item.str, itemStyles);
          line.right = Math.max(line.right, x + item.width);
          line.spans.push(span);
        } else {
          const previous = cellBreak ? line : undefined;
          line = {
            angle,
            x,
            y,
            right: x + item.width,
            size,
            text: item.str,
            styles: itemStyles,
            spans: [span],
          };
          if (previous) {
            previous.cell = true;
            previous.limit = x - size * 0.5;
            line.cell = true;
          }
          lines.push(line);
        }
        if (item.hasEOL) line = undefined;
      }
      const [left, , right] = page.view as [number, number, number, number];
      blocks.push(...groupLines(lines, { page: number - 1, center: (left + right) / 2, styles }));
      const found = await readAnnotations(page, number - 1);
      annotations.push(...found.annotations);
      links.push(...found.links);
      page.cleanup();
    }
    return { pages: document.numPages, blocks, annotations, links, styles };
  } finally {
    await Promise.all([document.destroy(), styleReader?.close()]);
  }
}

/** Adds text to a line; a space takes the style of the text it follows. */
function append(line: Line, text: string, styles: readonly number[]): void {
  line.styles.push(...(text === ' ' ? [line.styles.at(-1) ?? styles[0]!] : styles));
  line.text += text;
}

async function readAnnotations(
  page: Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>,
  index: number,
): Promise<{ annotations: PdfAnnotation[]; links: PdfLink[] }> {
  const annotations: PdfAnnotation[] = [];
  const links: PdfLink[] = [];
  for (const annotation of await page.getAnnotations({ intent: 'display' })) {
    const text = String(annotation.contentsObj?.str ?? '');
    const match = /^(\d+)R(\d*)$/.exec(String(annotation.id ?? ''));
    if (!match) continue;
    const ref = { num: Number(match[1]), gen: Number(match[2] || 0) };
    if (annotation.subtype === 'Link' && Array.isArray(annotation.rect))
      links.push({ page: index, ref, rect: annotation.rect.map(Number) });
    if (SKIPPED_ANNOTATIONS.has(annotation.subtype) || !/\p{L}/u.test(text)) continue;
    annotations.push({ page: index, subtype: String(annotation.subtype), ref, text });
  }
  return { annotations, links };
}
