/**
 * A PDF's translation as a DOCX (`output_format=docx`): each block one paragraph in reading order, at its
 * font size, its styled pieces as runs (bold, italic, colour), a page break where the PDF's page ends.
 * Layout (columns, positions, images) is not carried over.
 */
import { strToU8, zipSync } from 'fflate';
import type { StyledText } from './pdf-draw.js';
import type { PdfBlock } from './pdf-text.js';

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
  return `<w:r><w:rPr>${properties}</w:rPr><w:t xml:space="preserve">${escapeXml(piece.text)}</w:t></w:r>`;
}

/** `pieces[i]`: the text of `blocks[i]` (translated, or the original where it was not), in styled pieces. */
export function pdfBlocksToDocx(
  blocks: readonly PdfBlock[],
  pieces: readonly (readonly StyledText[])[],
): Uint8Array {
  const paragraphs = blocks.map((block, index) => {
    const breakBefore = index > 0 && blocks[index - 1]!.page !== block.page;
    const size = Math.max(2, Math.round(block.size * 2));
    const pageBreak = breakBefore ? '<w:r><w:br w:type="page"/></w:r>' : '';
    return `<w:p>${pageBreak}${(pieces[index] ?? []).map((piece) => run(piece, size)).join('')}</w:p>`;
  });
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs.join('')}<w:sectPr/></w:body></w:document>`;
  return zipSync({
    '[Content_Types].xml': strToU8(CONTENT_TYPES),
    '_rels/.rels': strToU8(RELS),
    'word/document.xml': strToU8(document),
  });
}
