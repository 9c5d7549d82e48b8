/**
 * A PDF's translation as a DOCX (`output_format=docx`): each block one paragraph in reading order, at its
 * font size, its styled pieces as runs (bold, italic, colour), the page's annotation texts after its blocks
 * (in italics), a page break where the PDF's page ends.
 * Layout (columns, positions, images) is not carried over.
 */
import { strToU8, zipSync } from 'fflate';
import type { StyledText } from './pdf-draw.js';

/** Text for XML: markup characters escaped, control characters XML 1.0 refuses dropped. */
const escapeXml = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

const hex = (value: number) => value.toString(16).padStart(2, '0').toUpperCase();

function run(piece: StyledText, size: number): string {
  const { bold, italic, color } = piece.style;
  const colour = color.some((channel) => channel !== 0)
    ? `<w:color w:val="${color.map(hex).join('')}"/>`
    : '';
  const properties = `${bold ? '<w:b/>' : ''}${italic ? '<w:i/>' : ''}${colour}<w:sz w:val="${size}"/>`;
  // A tab (after a list item's marker) is Word's own tab.
  const text = piece.text
    .split('\t')
    .map((part) => `<w:t xml:space="preserve">${escapeXml(part)}</w:t>`)
    .join('<w:tab/>');
  return `<w:r><w:rPr>${properties}</w:rPr>${text}</w:r>`;
}

/** A paragraph of the DOCX: a block (or an annotation's text) of a PDF page. */
export interface DocxParagraph {
  readonly page: number;
  /** Font size in points. */
  readonly size: number;
  /** The translation (or the original where there is none) in styled pieces. */
  readonly pieces: readonly StyledText[];
}

export function pdfBlocksToDocx(paragraphs: readonly DocxParagraph[]): Uint8Array {
  const body = paragraphs.map((paragraph, index) => {
    const breakBefore = index > 0 && paragraphs[index - 1]!.page !== paragraph.page;
    const size = Math.max(2, Math.round(paragraph.size * 2));
    const pageBreak = breakBefore ? '<w:r><w:br w:type="page"/></w:r>' : '';
    return `<w:p>${pageBreak}${paragraph.pieces.map((piece) => run(piece, size)).join('')}</w:p>`;
  });
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body.join('')}<w:sectPr/></w:body></w:document>`;
  return zipSync({
    '[Content_Types].xml': strToU8(CONTENT_TYPES),
    '_rels/.rels': strToU8(RELS),
    'word/document.xml': strToU8(document),
  });
}
