/**
 * The style of a PDF's text: for each character pdf.js shows, the font family (sans, serif, mono), bold,
 * italic and fill colour in force, read from the page's operator list (the text content does not carry
 * them). The characters come in the same order as the page's text content, so the two are walked side by
 * side, counting characters other than whitespace.
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  type EmbeddedFont,
  glyphPrinter,
  openSymbolKind,
  type SymbolFontKind,
  symbolFontKind,
} from './pdf-symbols.js';

export type Rgb = readonly [number, number, number];

export interface PdfStyle {
  readonly family: 'sans' | 'serif' | 'mono';
  readonly bold: boolean;
  readonly italic: boolean;
  /** Fill colour, each channel 0..255. */
  readonly color: Rgb;
  /** Drawn invisible (text rendering mode 3 or 7: the text layer of a scanned page). */
  readonly invisible?: boolean;
}

export const PLAIN_STYLE: PdfStyle = { family: 'sans', bold: false, italic: false, color: [0, 0, 0] };

/** The styles of a document, numbered: blocks refer to them by index. */
export class PdfStyles {
  readonly list: PdfStyle[] = [];
  private readonly byKey = new Map<string, number>();

  indexOf(style: PdfStyle): number {
    const key = `${style.family}|${style.bold}|${style.italic}|${style.color.join(',')}|${style.invisible === true}`;
    let index = this.byKey.get(key);
    if (index === undefined) {
      index = this.list.push(style) - 1;
      this.byKey.set(key, index);
    }
    return index;
  }
}

/** What pdf.js knows of a loaded font (`page.commonObjs`). */
interface LoadedFont {
  readonly name?: string;
  readonly fallbackName?: string;
  readonly bold?: boolean;
  readonly black?: boolean;
  readonly italic?: boolean;
}

/**
 * TeX's Computer Modern and EC fonts name their style in a code (`CMBX12` bold, `CMTI10` italic, `CMTT10`
 * typewriter, `CMSS10` sans): what the code says, for names of that kind.
 */
function texStyle(name: string): Partial<Pick<PdfStyle, 'family' | 'bold' | 'italic'>> {
  const code = /^(?:CM|EC)([A-Z]+)\d*$/.exec(name)?.[1];
  if (code === undefined) return {};
  return {
    family: /^V?TT/.test(code) ? 'mono' : code.startsWith('SS') ? 'sans' : 'serif',
    bold: /BX|^B|SX/.test(code),
    italic: /TI|SL|SI|IT|MI|ST/.test(code),
  };
}

export function styleOfFont(font: LoadedFont | undefined, color: Rgb, invisible = false): PdfStyle {
  // Subset fonts are named `ABCDEF+Name`.
  const name = (font?.name ?? '').replace(/^[A-Z]{6}\+/, '');
  const tex = texStyle(name);
  const family: PdfStyle['family'] =
    tex.family ??
    (font?.fallbackName === 'monospace' || /mono|courier|consol/i.test(name)
      ? 'mono'
      : font?.fallbackName === 'serif' || /times|serif|roman|georgia|garamond|cambria|book/i.test(name)
        ? /sans/i.test(name)
          ? 'sans'
          : 'serif'
        : 'sans');
  return {
    family,
    bold: Boolean(font?.bold || font?.black || tex.bold) || /bold|black|heavy|semibold|demi/i.test(name),
    italic: Boolean(font?.italic || tex.italic) || /italic|oblique/i.test(name),
    color,
    ...(invisible ? { invisible } : {}),
  };
}

const isSpace = (unit: string) => /\s/.test(unit);

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/**
 * Reads styles from a second pdf.js document of the same bytes, opened for styles only: images are not
 * decoded (`maxImageSize: 1`; a scanned page's image cost 250 ms a page in the operator list, the text
 * 2 ms) and errors are skipped (styles are best effort: a page whose operators cannot be read is plain).
 */
export function openStyleReader(pdfjs: PdfJs, bytes: Uint8Array, styles: PdfStyles) {
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    maxImageSize: 1,
    // The font files, to tell by its outline which symbol font an OpenSymbol glyph stands for (pdf-symbols.ts).
    fontExtraProperties: true,
    verbosity: 0,
  });
  return {
    /**
     * The style of each character page `number` (from 1) shows, and the symbol font it is in (see
     * `pdf-symbols.ts`); empty when it cannot be read.
     */
    async page(number: number): Promise<PageChars> {
      try {
        const page = await (await task.promise).getPage(number);
        const kinds: SymbolFontKind[] = [];
        const chars = await readCharStyles(pdfjs, page, styles, kinds);
        page.cleanup();
        return { styles: chars, kinds };
      } catch {
        return { styles: [], kinds: [] };
      }
    },
    close: () => task.destroy(),
  };
}

/** A page's characters (whitespace left out), in showing order: the style and symbol font of each. */
export interface PageChars {
  readonly styles: readonly number[];
  readonly kinds: readonly SymbolFontKind[];
}

/**
 * The style index of each character a page shows (whitespace left out), in showing order; with `kinds`,
 * the symbol font kind of each is pushed there too. Text inside form XObjects is included, as in the text
 * content; annotations are not.
 */
export async function readCharStyles(
  pdfjs: PdfJs,
  page: PDFPageProxy,
  styles: PdfStyles,
  kinds?: SymbolFontKind[],
): Promise<number[]> {
  const { OPS, AnnotationMode } = pdfjs;
  const list = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  const fonts = new Map<string, LoadedFont | undefined>();
  const fontOf = (name: string): LoadedFont | undefined => {
    if (!fonts.has(name))
      fonts.set(name, page.commonObjs.has(name) ? (page.commonObjs.get(name) as LoadedFont) : undefined);
    return fonts.get(name);
  };
  const chars: number[] = [];
  let state = {
    font: '',
    color: [0, 0, 0] as Rgb,
    mode: 0,
    style: -1,
    kind: 'unknown' as SymbolFontKind,
    openSymbol: false,
  };
  const stack: (typeof state)[] = [];
  list.fnArray.forEach((fn, index) => {
    const args = list.argsArray[index] as unknown[] | null;
    switch (fn) {
      case OPS.save:
      case OPS.paintFormXObjectBegin:
        stack.push(state);
        state = { ...state };
        break;
      case OPS.restore:
      case OPS.paintFormXObjectEnd:
        state = stack.pop() ?? state;
        break;
      case OPS.setFont:
        state.font = String(args?.[0] ?? '');
        state.style = -1;
        state.kind = symbolFontKind(fontOf(state.font)?.name ?? '');
        state.openSymbol = /opensymbol/i.test(fontOf(state.font)?.name ?? '');
        break;
      case OPS.setTextRenderingMode:
        state.mode = Number(args?.[0] ?? 0);
        state.style = -1;
        break;
      case OPS.setFillRGBColor: {
        const [r, g, b] = Array.from(args as ArrayLike<number>);
        state.color = [r ?? 0, g ?? 0, b ?? 0];
        state.style = -1;
        break;
      }
      case OPS.showText:
      case OPS.showSpacedText: {
        if (state.style < 0)
          state.style = styles.indexOf(
            styleOfFont(fontOf(state.font), state.color, state.mode === 3 || state.mode === 7),
          );
        for (const glyph of (args?.[0] ?? []) as unknown[]) {
          if (glyph === null || typeof glyph !== 'object' || !('unicode' in glyph)) continue;
          const text = String(glyph.unicode).normalize('NFKC');
          // LibreOffice draws the symbol fonts it lacks in OpenSymbol: the glyph's outline says which.
          const code = text.length === 1 ? text.charCodeAt(0) - 0xf000 : -1;
          const kind =
            kinds && state.openSymbol && code >= 0x20 && code <= 0xff && 'fontChar' in glyph
              ? openSymbolKind(glyphPrinter(fontOf(state.font) as EmbeddedFont)(String(glyph.fontChar)), code)
              : state.kind;
          for (let k = 0; k < text.length; k++)
            if (!isSpace(text[k]!)) {
              chars.push(state.style);
              kinds?.push(kind);
            }
        }
        break;
      }
    }
  });
  return chars;
}

/**
 * Walks a page's text content against its characters' values (their styles, their symbol fonts): the
 * value of each UTF-16 unit of a string (a space takes the value before it).
 */
export function createStyleCursor<T>(chars: readonly T[], fallback: T) {
  let at = 0;
  let last = fallback;
  return (text: string): T[] =>
    text.split('').map((unit) => {
      if (isSpace(unit)) return last;
      last = chars[at++] ?? last;
      return last;
    });
}
