/**
 * The text of a PDF with its positions and styles, read by pdf.js (`pdfjs-dist`, legacy build for Node):
 * text items are joined into lines (same baseline) and lines into blocks (the next line close below, of
 * about the same size); each block keeps the style of every character as runs. Annotations that carry
 * text of their own (FreeText boxes, notes) are read too. Coordinates are PDF user space (origin bottom
 * left), as pdf-lib draws.
 */
import { DocumentFormatError } from './format.js';
import { createStyleCursor, openStyleReader, PdfStyles, PLAIN_STYLE } from './pdf-styles.js';

/** A stretch of a block's text in one style (an index into the document's styles). */
export interface PdfRun {
  readonly text: string;
  readonly style: number;
}

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
  /**
   * The text's direction, radians counterclockwise from the page's x axis (0 for most text); `x`, `y`,
   * `width`, `top` and `bottom` are then in the block's own frame: the page turned by `-angle`.
   */
  readonly angle: number;
  readonly lines: number;
  readonly text: string;
  /** The text in runs of one style each (their texts joined are `text`). */
  readonly runs: readonly PdfRun[];
}

/** An annotation with text of its own: its `/Contents`, and for FreeText its appearance on the page. */
export interface PdfAnnotation {
  readonly page: number;
  readonly subtype: string;
  /** Object number and generation of the annotation dictionary. */
  readonly ref: { readonly num: number; readonly gen: number };
  readonly text: string;
}

export interface PdfText {
  readonly pages: number;
  readonly blocks: PdfBlock[];
  readonly annotations: PdfAnnotation[];
  readonly styles: PdfStyles;
}

interface Line {
  angle: number;
  x: number;
  y: number;
  right: number;
  size: number;
  text: string;
  styles: number[];
}

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
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const styleOf = createStyleCursor(await styleReader.page(number), plain);
      const content = await page.getTextContent();
      const lines: Line[] = [];
      let line: Line | undefined;
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const [a, b, , d, e, f] = item.transform as number[];
        const size = Math.hypot(a!, b!) || Math.abs(d!);
        // Turned text is read in its own frame (the page turned back by its angle), where its lines run along x.
        const angle = Math.abs(b!) < 1e-6 && a! >= 0 ? 0 : Math.atan2(b!, a!);
        const [x, y] = [
          e! * Math.cos(angle) + f! * Math.sin(angle),
          f! * Math.cos(angle) - e! * Math.sin(angle),
        ];
        const itemStyles = styleOf(item.str);
        if (item.str.trim() === '') {
          if (line && item.str !== '') append(line, ' ', itemStyles);
          if (item.hasEOL) line = undefined;
          continue;
        }
        if (line && line.angle === angle && Math.abs(line.y - y) < size * 0.5) {
          const gap = x - line.right;
          if (gap > size * 0.15 && !line.text.endsWith(' ')) append(line, ' ', itemStyles);
          append(line, item.str, itemStyles);
          line.right = Math.max(line.right, x + item.width);
        } else {
          line = { angle, x, y, right: x + item.width, size, text: item.str, styles: itemStyles };
          lines.push(line);
        }
        if (item.hasEOL) line = undefined;
      }
      blocks.push(...groupLines(lines, number - 1, styles));
      annotations.push(...(await readAnnotations(page, number - 1)));
      page.cleanup();
    }
    return { pages: document.numPages, blocks, annotations, styles };
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
): Promise<PdfAnnotation[]> {
  const found: PdfAnnotation[] = [];
  for (const annotation of await page.getAnnotations({ intent: 'display' })) {
    const text = String(annotation.contentsObj?.str ?? '');
    const ref = /^(\d+)R(\d*)$/.exec(String(annotation.id ?? ''));
    if (!ref || SKIPPED_ANNOTATIONS.has(annotation.subtype) || !/\p{L}/u.test(text)) continue;
    found.push({
      page: index,
      subtype: String(annotation.subtype),
      ref: { num: Number(ref[1]), gen: Number(ref[2] || 0) },
      text,
    });
  }
  return found;
}

/** The one style of a line's text, or undefined when it mixes styles. */
function uniformStyle(line: Line): number | undefined {
  const styles = new Set(line.styles.filter((_, i) => !/\s/.test(line.text[i]!)));
  return styles.size === 1 ? [...styles][0] : undefined;
}

function groupLines(lines: readonly Line[], page: number, styles: PdfStyles): PdfBlock[] {
  const groups: Line[][] = [];
  // Two lines each in one style, of another family or weight (a bold heading over body text, a line of
  // code after a paragraph), are different blocks even when close.
  const restyled = (a: Line, b: Line) => {
    const [first, second] = [uniformStyle(a), uniformStyle(b)].map((i) =>
      i === undefined ? undefined : styles.list[i],
    );
    return (
      first !== undefined &&
      second !== undefined &&
      (first.family !== second.family || first.bold !== second.bold)
    );
  };
  for (const line of lines) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    const below = last && last.y - line.y > 0 && last.y - line.y <= last.size * 1.7;
    const alike = last && last.angle === line.angle && Math.abs(last.size - line.size) < last.size * 0.2;
    if (group && below && alike && !restyled(last, line)) group.push(line);
    else groups.push([line]);
  }
  return groups.map((group) => {
    const first = group[0]!;
    const last = group.at(-1)!;
    const x = Math.min(...group.map((line) => line.x));
    let text = '';
    let styles: number[] = [];
    for (const line of group) {
      const start = line.text.length - line.text.trimStart().length;
      const words = line.text.trim();
      const wordStyles = line.styles.slice(start, start + words.length);
      if (text === '') [text, styles] = [words, wordStyles];
      else if (/\p{L}-$/u.test(text)) {
        text = `${text.slice(0, -1)}${words}`;
        styles = [...styles.slice(0, -1), ...wordStyles];
      } else {
        text = `${text} ${words}`;
        styles = [...styles, styles.at(-1)!, ...wordStyles];
      }
    }
    return {
      page,
      x,
      y: first.y,
      width: Math.max(...group.map((line) => line.right)) - x,
      top: first.y + first.size,
      bottom: last.y - last.size * 0.25,
      size: first.size,
      angle: first.angle,
      lines: group.length,
      text,
      runs: runsOf(text, styles),
    };
  });
}

function runsOf(text: string, styles: readonly number[]): PdfRun[] {
  const runs: PdfRun[] = [];
  let start = 0;
  for (let at = 1; at <= text.length; at++) {
    if (at < text.length && styles[at] === styles[start]) continue;
    runs.push({ text: text.slice(start, at), style: styles[start] ?? 0 });
    start = at;
  }
  return runs;
}
