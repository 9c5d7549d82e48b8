/**
 * The one gate every XML part goes through before an adapter reads it: well-formed, no document type
 * declaration (so no external entity and no entity expansion: only the five predefined entities and
 * character references exist), nesting at most MAX_XML_DEPTH deep.
 */
import { SaxesParser } from 'saxes';
import { DocumentFormatError } from './format.js';

export const MAX_XML_DEPTH = 256;

/** A DOCTYPE that only names an external DTD (which is never fetched): no internal subset, no entities. */
const EXTERNAL_ONLY =
  /^\s*[A-Za-z_][\w:.-]*(\s+(PUBLIC\s+("[^"]*"|'[^']*')\s+("[^"]*"|'[^']*')|SYSTEM\s+("[^"]*"|'[^']*')))?\s*$/;

export function checkXml(text: string, where: string, options: { allowExternalDtd?: boolean } = {}): void {
  const parser = new SaxesParser({ position: true });
  let depth = 0;
  let failure: string | undefined;
  parser.on('doctype', (doctype) => {
    if (options.allowExternalDtd && EXTERNAL_ONLY.test(doctype)) return;
    failure ??= `${where}: a document type declaration (<!DOCTYPE>) is refused (entity declarations are not allowed).`;
  });
  parser.on('opentag', (tag) => {
    if (!tag.isSelfClosing && ++depth > MAX_XML_DEPTH)
      failure ??= `${where}: elements are nested deeper than ${MAX_XML_DEPTH} levels.`;
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) depth--;
  });
  parser.on('error', (error) => {
    failure ??= `${where} is not well-formed XML: ${error.message}`;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    failure ??= `${where} is not well-formed XML: ${(error as Error).message}`;
  }
  if (failure) throw new DocumentFormatError(failure);
}
