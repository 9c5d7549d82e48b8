/** Reading translated PDFs back in the tests: the runs pdf.js shows with their fonts and colours, and the streams. */
import { decodePDFRawStream, PDFDocument, PDFRawStream } from 'pdf-lib';
import { AnnotationMode, getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface ShownRun {
  readonly page: number;
  readonly text: string;
  /** The font's PostScript name without its subset prefix (`ABCDEF+`) or suffix (pdf-lib's `-1234`). */
  readonly font: string;
  readonly color: readonly number[];
  /** Fill opacity (`ca` of the graphics state): 0 is invisible. */
  readonly opacity: number;
  /** Where the run starts (text matrix origin, for text drawn without a transform) and its advance width. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
}

/** Every text-showing operation of every page, in order, with the font and fill colour it is drawn in. */
export async function styledRuns(
  bytes: Uint8Array,
  annotationMode: number = AnnotationMode.DISABLE,
): Promise<ShownRun[]> {
  const document = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  const runs: ShownRun[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const list = await page.getOperatorList({ annotationMode });
    let state = { font: '', size: 0, color: [0, 0, 0] as number[], opacity: 1 };
    let [x, y] = [0, 0];
    const stack: (typeof state)[] = [];
    list.fnArray.forEach((fn, index) => {
      const args = list.argsArray[index];
      if (fn === OPS.save || fn === OPS.paintFormXObjectBegin) {
        stack.push(state);
        state = { ...state };
      } else if (fn === OPS.restore || fn === OPS.paintFormXObjectEnd) state = stack.pop() ?? state;
      else if (fn === OPS.setFont) [state.font, state.size] = [args[0], Number(args[1])];
      else if (fn === OPS.setTextMatrix) [x, y] = [Number(args[4]), Number(args[5])];
      else if (fn === OPS.moveText) [x, y] = [x + Number(args[0]), y + Number(args[1])];
      else if (fn === OPS.setFillRGBColor) state.color = Array.from(args as ArrayLike<number>);
      else if (fn === OPS.setGState) {
        for (const [key, value] of args[0] as [string, unknown][])
          if (key === 'ca') state.opacity = Number(value);
      } else if (fn === OPS.showText) {
        const text = (args[0] as unknown[])
          .map((glyph) => (glyph && typeof glyph === 'object' && 'unicode' in glyph ? glyph.unicode : ''))
          .join('');
        const font = page.commonObjs.get(state.font) as { name: string };
        runs.push({
          page: number,
          text,
          font: font.name.replace(/^[A-Z]{6}\+/, '').replace(/-\d+$/, ''),
          color: state.color,
          opacity: state.opacity,
          x,
          y,
          width:
            ((args[0] as unknown[]).reduce<number>(
              (sum, glyph) =>
                sum + (glyph && typeof glyph === 'object' && 'width' in glyph ? Number(glyph.width) : 0),
              0,
            ) /
              1000) *
            state.size,
        });
      }
    });
  }
  await document.destroy();
  return runs;
}

/** Every stream of the file, decoded (latin1): what is in the file, referenced from a page or not. */
export async function streamsOf(bytes: Uint8Array): Promise<string[]> {
  const document = await PDFDocument.load(bytes);
  return document.context
    .enumerateIndirectObjects()
    .flatMap(([, object]) => (object instanceof PDFRawStream ? [decodePDFRawStream(object).decode()] : []))
    .map((data) => Buffer.from(data).toString('latin1'));
}
