/**
 * Drawing translated text into a PDF with pdf-lib: the DejaVu face that matches each style (Sans, Serif or
 * Sans Mono; regular, bold, italic or both), embedded as a subset when first used, in the style's colour;
 * the text wrapped at a width and made smaller until it fits a height. Symbols no DejaVu face has (most
 * Wingdings and Webdings pictures: 🗸 ⮚ 🡆 ⏺ …) are drawn in Symbola (fonts-symbola), character by character.
 */
import { existsSync, readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { radians, rgb } from 'pdf-lib';
import { DocumentFormatError } from './format.js';
import type { PdfStyle } from './pdf-styles.js';

const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
/** Symbola (fonts-symbola, Unicode 9 symbols: every Wingdings, Wingdings 2/3 and Webdings character). */
const SYMBOL_FONT = '/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf';
/** File names by family: regular, bold, italic, bold italic (fonts-dejavu-core and fonts-dejavu-extra). */
const FACES: Record<PdfStyle['family'], readonly [string, string, string, string]> = {
  sans: ['DejaVuSans', 'DejaVuSans-Bold', 'DejaVuSans-Oblique', 'DejaVuSans-BoldOblique'],
  serif: ['DejaVuSerif', 'DejaVuSerif-Bold', 'DejaVuSerif-Italic', 'DejaVuSerif-BoldItalic'],
  mono: ['DejaVuSansMono', 'DejaVuSansMono-Bold', 'DejaVuSansMono-Oblique', 'DejaVuSansMono-BoldOblique'],
};

/** A piece of text in one style. */
export interface StyledText {
  readonly text: string;
  readonly style: PdfStyle;
}

export type FontSet = ReturnType<typeof createFontSet>;

/**
 * The faces of one document, embedded on first use; a face whose file is missing falls back to regular
 * Sans. Text a face does not cover is drawn in the Sans face of the same weight and slant, then in regular
 * Sans (DejaVu Sans covers the most scripts); characters none covers are collected in `missing`.
 */
export function createFontSet(document: PDFDocument) {
  document.registerFontkit(fontkit);
  const embedded = new Map<string, Promise<PDFFont>>();
  const covered = new Map<PDFFont, ReadonlySet<number>>();
  const missing = new Set<string>();
  const embed = (file: string): Promise<PDFFont> => {
    let font = embedded.get(file);
    if (!font) {
      font = document.embedFont(readFileSync(file.startsWith('/') ? file : `${FONT_DIR}/${file}.ttf`), {
        subset: true,
      });
      embedded.set(file, font);
    }
    return font;
  };
  const face = async (style: PdfStyle): Promise<PDFFont> => {
    const file = FACES[style.family][(style.bold ? 1 : 0) + (style.italic ? 2 : 0)]!;
    if (existsSync(`${FONT_DIR}/${file}.ttf`)) return embed(file);
    if (existsSync(`${FONT_DIR}/${FACES.sans[0]}.ttf`)) return embed(FACES.sans[0]);
    throw new DocumentFormatError('PDF documents need the DejaVu fonts on the server (fonts-dejavu-core).');
  };
  const lacking = (font: PDFFont, text: string): string[] => {
    let set = covered.get(font);
    if (!set) {
      set = new Set(font.getCharacterSet());
      covered.set(font, set);
    }
    return [...text].filter((char) => !/\s/u.test(char) && !set.has(char.codePointAt(0)!));
  };
  /** The face for text in a style: the style's own, or a Sans face that covers the text (else undefined). */
  const coveringFace = async (style: PdfStyle, text: string): Promise<PDFFont | undefined> => {
    const own = await face(style);
    if (lacking(own, text).length === 0) return own;
    for (const fallback of [
      { ...style, family: 'sans' as const },
      { ...style, family: 'sans' as const, bold: false, italic: false },
    ]) {
      const font = await face(fallback);
      if (lacking(font, text).length === 0) return font;
    }
    return undefined;
  };
  const symbols = async (): Promise<PDFFont | undefined> =>
    existsSync(SYMBOL_FONT) ? embed(SYMBOL_FONT) : undefined;
  return {
    /** Characters of the drawn text that no face covers (drawn as empty boxes). */
    missing: missing as ReadonlySet<string>,
    /** The face for text in a style: the style's own, or a Sans face that covers the text. */
    async faceFor(style: PdfStyle, text: string): Promise<PDFFont> {
      const font = await coveringFace(style, text);
      if (font) return font;
      const own = await face(style);
      for (const char of lacking(own, text)) missing.add(char);
      return own;
    },
    /**
     * The text in stretches, each with its face: the text's face (`faceFor`) when one covers it all, else
     * each character in the first of the style's faces, Sans and Symbola that has it.
     */
    async facesFor(style: PdfStyle, text: string): Promise<{ text: string; font: PDFFont }[]> {
      const whole = await coveringFace(style, text);
      if (whole) return [{ text, font: whole }];
      const stretches: { text: string; font: PDFFont }[] = [];
      for (const char of text) {
        let font = await coveringFace(style, char);
        if (!font) {
          const symbol = await symbols();
          font = symbol && lacking(symbol, char).length === 0 ? symbol : undefined;
        }
        if (!font) {
          font = await face(style);
          missing.add(char);
        }
        const last = stretches.at(-1);
        if (last && last.font === font) last.text += char;
        else stretches.push({ text: char, font });
      }
      return stretches;
    },
  };
}

export interface Fragment {
  readonly text: string;
  readonly font: PDFFont;
  readonly style: PdfStyle;
  /** Width at size 1. */
  readonly width: number;
  /** Width of a space in its font at size 1 (the gap after the word it ends is drawn in it). */
  readonly space: number;
}

/** A word: fragments with no space between them (`bold,` with a plain comma is two fragments). */
type Word = readonly Fragment[];

export interface Area {
  /** Left edge and the baseline of the first line. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  /** Height the lines may take. */
  readonly height: number;
  /** Largest font size. */
  readonly size: number;
  /** Where each line sits in the width (default left). */
  readonly align?: 'left' | 'right' | 'center' | 'justify';
}

/**
 * Draws the pieces in the area: words wrapped at its width, the size lowered until the lines fit its
 * height. `draw` receives each fragment at its place (a page's `drawText`, or an appearance stream's).
 */
export async function drawStyledText(
  pieces: readonly StyledText[],
  fonts: FontSet,
  area: Area,
  draw: (fragment: Fragment, x: number, y: number, size: number) => void,
): Promise<void> {
  const words = await wordsOf(pieces, fonts);
  if (words.length === 0) return;
  let size = area.size;
  let lines = wrap(words, area.width / size);
  while (size > 4 && lines.length * size * 1.2 > area.height * 1.05) {
    size *= 0.92;
    lines = wrap(words, area.width / size);
  }
  lines.forEach((line, index) => {
    const y = area.y - index * size * 1.2;
    // A justified line (not the last) spreads its free width over its gaps: each word is drawn at its place.
    const justified = area.align === 'justify' && index < lines.length - 1 && line.length > 1;
    const { segments, width } = segmentsOf(line, justified);
    const free = Math.max(area.width - width * size, 0);
    const offset = area.align === 'right' ? free : area.align === 'center' ? free / 2 : 0;
    const stretch = justified ? free / (line.length - 1) : 0;
    for (const segment of segments)
      draw(segment, area.x + offset + segment.x * size + segment.word * stretch, y, size);
  });
}

/** The space after a word: drawn in the font of its last fragment. */
const gapAfter = (word: Word) => word.at(-1)!.space;
const widthOf = (word: Word) => word.reduce((sum, fragment) => sum + fragment.width, 0);

/**
 * A line's fragments joined into one text per stretch of the same style (spaces included), `x` at size 1,
 * and the line's width at size 1.
 */
function segmentsOf(
  line: readonly Word[],
  wordByWord = false,
): { segments: (Fragment & { x: number; word: number })[]; width: number } {
  const segments: (Fragment & { x: number; word: number })[] = [];
  let x = 0;
  line.forEach((word, k) => {
    const gap = k > 0 ? ' ' : '';
    if (k > 0) x += gapAfter(line[k - 1]!);
    for (const [f, fragment] of word.entries()) {
      const last = segments.at(-1);
      const joined = f === 0 ? gap : '';
      x += fragment.width;
      // A merged segment's width runs from its start to the end of its last fragment.
      if (last && last.style === fragment.style && last.font === fragment.font && !(wordByWord && f === 0))
        segments[segments.length - 1] = {
          ...last,
          text: `${last.text}${joined}${fragment.text}`,
          width: x - last.x,
        };
      else {
        // A word after a symbol drawn in another face (Symbola) of the same style: the space between them
        // is drawn too, at the end of the symbol's segment (in its face, as wide as the gap), so that the
        // PDF's text keeps it.
        if (last && f === 0 && k > 0 && last.style === fragment.style && last.font !== fragment.font)
          segments[segments.length - 1] = {
            ...last,
            text: `${last.text} `,
            width: last.width + gapAfter(line[k - 1]!),
          };
        segments.push({ ...fragment, x: x - fragment.width, word: k });
      }
    }
  });
  return { segments, width: x };
}

/** Draws on a page; text at an angle is placed from its frame (the page turned back by it) and drawn turned. */
export function pageDrawer(page: PDFPage, angle = 0) {
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  return (fragment: Fragment, x: number, y: number, size: number) => {
    const [r, g, b] = fragment.style.color;
    page.drawText(fragment.text, {
      x: x * cos - y * sin,
      y: x * sin + y * cos,
      size,
      font: fragment.font,
      color: rgb(r / 255, g / 255, b / 255),
      ...(angle !== 0 ? { rotate: radians(angle) } : {}),
      // Invisible text (a scanned page's text layer) stays invisible: searchable, not shown.
      ...(fragment.style.invisible ? { opacity: 0 } : {}),
    });
  };
}

async function wordsOf(pieces: readonly StyledText[], fonts: FontSet): Promise<Word[]> {
  const words: Fragment[][] = [];
  let open = false;
  const stretches: { text: string; font: PDFFont; style: PdfStyle }[] = [];
  for (const piece of pieces)
    for (const stretch of await fonts.facesFor(piece.style, piece.text))
      stretches.push({ ...stretch, style: piece.style });
  for (const { text, font, style } of stretches) {
    const space = font.widthOfTextAtSize(' ', 1);
    // Split on whitespace, keeping where the piece starts or ends inside a word.
    for (const [index, part] of text.split(/(\s+)/).entries()) {
      if (index % 2 === 1) {
        open = false;
        continue;
      }
      if (part === '') continue;
      // Fragment widths are measured once, at size 1 (fontkit's layout is slow), and scaled.
      const fragment = {
        text: part,
        font,
        style,
        width: font.widthOfTextAtSize(part, 1),
        space,
      };
      if (open) words.at(-1)!.push(fragment);
      else words.push([fragment]);
      open = true;
    }
  }
  return words;
}

/** Lines of words within `width` (in units of the font size). */
function wrap(words: readonly Word[], width: number): Word[][] {
  const lines: Word[][] = [];
  let line: Word[] = [];
  let used = 0;
  for (const word of words) {
    const wordWidth = widthOf(word);
    const gap = line.length > 0 ? gapAfter(line.at(-1)!) : 0;
    if (line.length > 0 && used + gap + wordWidth > width) {
      lines.push(line);
      line = [];
    }
    used = line.length === 0 ? wordWidth : used + gap + wordWidth;
    line.push(word);
  }
  if (line.length > 0) lines.push(line);
  return lines;
}
