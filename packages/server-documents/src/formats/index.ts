/** The document formats this server translates, by file extension; the others are refused by name. */
import type { DocumentExtension } from '@glossa/protocol';
import type { DocumentFormat } from './format.js';
import { htmlFormat } from './html.js';
import { jpegFormat, pngFormat } from './image.js';
import { jsonFormat } from './json.js';
import { mifFormat } from './mif.js';
import { docxFormat, idmlFormat, pptxFormat, xlsxFormat } from './ooxml.js';
import { pdfFormat } from './pdf.js';
import { srtFormat } from './srt.js';
import { txtFormat } from './txt.js';
import { createXliffFormat } from './xliff.js';
import { createDitaFormat, createXmlFormat, ditaFormat, xmlFormat } from './xml.js';

export const DOCUMENT_FORMATS: DocumentFormats = {
  txt: txtFormat,
  docx: docxFormat,
  pptx: pptxFormat,
  xlsx: xlsxFormat,
  idml: idmlFormat,
  mif: mifFormat,
  htm: htmlFormat,
  html: htmlFormat,
  srt: srtFormat,
  json: jsonFormat,
  xml: xmlFormat,
  dita: ditaFormat,
  xlf: createXliffFormat('XLF'),
  xliff: createXliffFormat('XLIFF'),
  pdf: pdfFormat,
  png: pngFormat,
  jpg: jpegFormat,
  jpeg: jpegFormat,
};

export type DocumentFormats = Readonly<Partial<Record<DocumentExtension, DocumentFormat>>>;

/** The formats with the server's attribute lists for `xml` and `dita`. */
export function createDocumentFormats(options: {
  readonly xmlAttributes: readonly string[];
  readonly ditaAttributes: readonly string[];
}): DocumentFormats {
  return {
    ...DOCUMENT_FORMATS,
    xml: createXmlFormat('XML', { translatableAttributes: options.xmlAttributes }),
    dita: createDitaFormat(options.ditaAttributes),
  };
}

export function formatOf(extension: DocumentExtension): DocumentFormat | undefined {
  return DOCUMENT_FORMATS[extension];
}
