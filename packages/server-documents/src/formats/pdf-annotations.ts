/**
 * Translated annotations: each annotation's `/Contents` is replaced by its translation (rich text `/RC`,
 * which would still hold the original, is removed), and a FreeText annotation, whose text shows on the
 * page, gets a new appearance: the old one without its text, and the translation drawn in its box with
 * the size and colour of its `/DA` default appearance.
 */
import {
  decodePDFRawStream,
  degrees,
  drawText,
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFOperator,
  PDFRawStream,
  PDFRef,
  PDFString,
  popGraphicsState,
  pushGraphicsState,
  rgb,
} from 'pdf-lib';
import { drawStyledText, type FontSet } from './pdf-draw.js';
import { stripText } from './pdf-strip.js';
import { styleOfFont } from './pdf-styles.js';
import type { PdfAnnotation } from './pdf-text.js';

export async function translateAnnotations(
  document: PDFDocument,
  fonts: FontSet,
  annotations: readonly PdfAnnotation[],
  translations: readonly (string | undefined)[],
): Promise<void> {
  for (const [index, annotation] of annotations.entries()) {
    const text = translations[index]?.trim();
    const dict = document.context.lookup(PDFRef.of(annotation.ref.num, annotation.ref.gen));
    if (!text || !(dict instanceof PDFDict)) continue;
    dict.set(PDFName.of('Contents'), PDFHexString.fromText(text));
    dict.delete(PDFName.of('RC'));
    if (annotation.subtype === 'FreeText') await redrawFreeText(document, fonts, dict, text);
  }
}

const numbers = (array: unknown): number[] | undefined =>
  array instanceof PDFArray
    ? array.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : 0))
    : undefined;

async function redrawFreeText(document: PDFDocument, fonts: FontSet, dict: PDFDict, text: string) {
  const { context } = document;
  const appearances = dict.lookup(PDFName.of('AP'));
  const normal = appearances instanceof PDFDict ? appearances.lookup(PDFName.of('N')) : undefined;
  const old = normal instanceof PDFRawStream ? normal : undefined;
  const rect = numbers(dict.lookup(PDFName.of('Rect'))) ?? [0, 0, 0, 0];
  const box = numbers(old?.dict.lookup(PDFName.of('BBox'))) ?? [
    0,
    0,
    rect[2]! - rect[0]!,
    rect[3]! - rect[1]!,
  ];
  const [left, bottom, right, top] = [
    Math.min(box[0]!, box[2]!),
    Math.min(box[1]!, box[3]!),
    Math.max(box[0]!, box[2]!),
    Math.max(box[1]!, box[3]!),
  ];
  const daValue = dict.lookup(PDFName.of('DA'));
  const da = daValue instanceof PDFString || daValue instanceof PDFHexString ? daValue.decodeText() : '';
  const size = Number(/(\d*\.?\d+)\s+Tf/.exec(da)?.[1]) || 12;
  const fontName = /\/([^\s/]+)\s+\d*\.?\d+\s+Tf/.exec(da)?.[1];
  const rgbMatch = /(\d*\.?\d+)\s+(\d*\.?\d+)\s+(\d*\.?\d+)\s+rg/.exec(da);
  const grey = /(\d*\.?\d+)\s+g\b/.exec(da);
  const channel = (value: string | undefined) => Math.round(Math.min(Math.max(Number(value), 0), 1) * 255);
  const color = rgbMatch
    ? ([channel(rgbMatch[1]), channel(rgbMatch[2]), channel(rgbMatch[3])] as const)
    : grey
      ? ([channel(grey[1]), channel(grey[1]), channel(grey[1])] as const)
      : ([0, 0, 0] as const);
  const style = styleOfFont(fontName === undefined ? undefined : { name: fontName }, color);

  const resources = old?.dict.lookup(PDFName.of('Resources'));
  const resourceDict = resources instanceof PDFDict ? (resources.clone(context) as PDFDict) : context.obj({});
  const fontsDict = resourceDict.lookup(PDFName.of('Font'));
  const fontDict = fontsDict instanceof PDFDict ? (fontsDict.clone(context) as PDFDict) : context.obj({});
  resourceDict.set(PDFName.of('Font'), fontDict);
  const names = new Map<unknown, string>();
  const operators: PDFOperator[] = [pushGraphicsState()];
  const pad = 2;
  await drawStyledText(
    [{ text, style }],
    fonts,
    {
      x: left + pad,
      y: top - pad - size,
      width: right - left - 2 * pad,
      height: top - bottom - 2 * pad,
      size,
    },
    (fragment, x, y, fragmentSize) => {
      let name = names.get(fragment.font);
      if (!name) {
        name = `GlossaF${names.size}`;
        names.set(fragment.font, name);
        fontDict.set(PDFName.of(name), fragment.font.ref);
      }
      const [r, g, b] = fragment.style.color;
      operators.push(
        ...drawText(fragment.font.encodeText(fragment.text), {
          color: rgb(r / 255, g / 255, b / 255),
          font: name,
          size: fragmentSize,
          rotate: degrees(0),
          xSkew: degrees(0),
          ySkew: degrees(0),
          x,
          y,
        }),
      );
    },
  );
  operators.push(popGraphicsState());
  const kept = old ? Buffer.from(stripText(decodePDFRawStream(old).decode())).toString('latin1') : '';
  const content = `${kept}\n${operators.map((operator) => operator.toString()).join('\n')}\n`;
  const matrix = old?.dict.lookup(PDFName.of('Matrix'));
  const stream = context.flateStream(Buffer.from(content, 'latin1'), {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [left, bottom, right, top],
    Resources: resourceDict,
    ...(matrix instanceof PDFArray ? { Matrix: matrix } : {}),
  });
  // The old appearance goes: saved, it would carry the original text along.
  const oldRef = appearances instanceof PDFDict ? appearances.get(PDFName.of('N')) : undefined;
  if (oldRef instanceof PDFRef) context.delete(oldRef);
  dict.set(PDFName.of('AP'), context.obj({ N: context.register(stream) }));
}
