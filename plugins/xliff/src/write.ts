/** Writing the unit model as XLIFF 1.2 or 2.1. */
import { dataId, writeInline } from './inline.js';
import { stateTo12, type XliffDocument, type XliffUnit } from './model.js';
import { escapeAttribute as attr, escapeText } from './xml.js';

function checkUnit(unit: XliffUnit): void {
  if (unit.segments.length === 0) throw new RangeError(`unit "${unit.id}" has no segments`);
  if (unit.maxLength !== undefined && (!Number.isInteger(unit.maxLength) || unit.maxLength < 0))
    throw new RangeError(`unit "${unit.id}": maxLength must be a whole number, got ${unit.maxLength}`);
}

function unit12(unit: XliffUnit, indent: string): string {
  const size = unit.maxLength === undefined ? '' : ` maxwidth="${unit.maxLength}" size-unit="char"`;
  const segmented = unit.segments.length > 1 || unit.segments[0]!.id !== undefined;
  const inline = (xml: string) => writeInline(xml, '1.2', unit.codes);
  const lines = [`${indent}<trans-unit id="${attr(unit.id)}"${size}>`];
  lines.push(
    `${indent}  <source>${unit.segments.map((segment) => inline(segment.source)).join('')}</source>`,
  );
  const mark = (id: string | undefined, index: number, content: string) =>
    `<mrk mtype="seg" mid="${attr(id ?? String(index + 1))}">${content}</mrk>`;
  if (segmented)
    lines.push(
      `${indent}  <seg-source>${unit.segments.map((segment, index) => mark(segment.id, index, inline(segment.source))).join('')}</seg-source>`,
    );
  const translated = unit.segments.filter((segment) => segment.target !== undefined);
  if (translated.length > 0) {
    const state = translated.find((segment) => segment.state)?.state;
    const content = segmented
      ? unit.segments
          .map((segment, index) =>
            segment.target === undefined ? '' : mark(segment.id, index, inline(segment.target)),
          )
          .join('')
      : inline(translated[0]!.target!);
    lines.push(`${indent}  <target${state ? ` state="${stateTo12(state)}"` : ''}>${content}</target>`);
  }
  for (const note of unit.notes) lines.push(`${indent}  <note>${escapeText(note)}</note>`);
  lines.push(`${indent}</trans-unit>`);
  return lines.join('\n');
}

function unit2(unit: XliffUnit, indent: string): string {
  const size = unit.maxLength === undefined ? '' : ` slr:sizeRestriction="${unit.maxLength}"`;
  const lines = [`${indent}<unit id="${attr(unit.id)}"${size}>`];
  if (unit.notes.length > 0) {
    lines.push(`${indent}  <notes>`);
    for (const note of unit.notes) lines.push(`${indent}    <note>${escapeText(note)}</note>`);
    lines.push(`${indent}  </notes>`);
  }
  const data = Object.entries(unit.codes).flatMap(([id, code]): [string, string][] => {
    if (code.kind === 'g')
      return [
        [`${id}_o`, code.open ?? ''],
        [`${id}_c`, code.close ?? ''],
      ];
    // Halves of pairs split over segments carry data only when they have some (see inline.ts).
    if (code.open !== undefined) return code.open ? [[dataId(id, 'o'), code.open]] : [];
    if (code.close !== undefined) return code.close ? [[dataId(id, 'c'), code.close]] : [];
    return [[`${id}_x`, code.text ?? '']];
  });
  if (data.length > 0) {
    lines.push(`${indent}  <originalData>`);
    for (const [id, value] of data)
      lines.push(`${indent}    <data id="${attr(id!)}">${escapeText(value!)}</data>`);
    lines.push(`${indent}  </originalData>`);
  }
  for (const segment of unit.segments) {
    const attributes =
      (segment.id === undefined ? '' : ` id="${attr(segment.id)}"`) +
      (segment.state === undefined ? '' : ` state="${segment.state}"`) +
      (segment.subState === undefined ? '' : ` subState="${attr(segment.subState)}"`);
    lines.push(`${indent}  <segment${attributes}>`);
    lines.push(`${indent}    <source>${writeInline(segment.source, '2', unit.codes)}</source>`);
    if (segment.target !== undefined)
      lines.push(`${indent}    <target>${writeInline(segment.target, '2', unit.codes)}</target>`);
    lines.push(`${indent}  </segment>`);
  }
  lines.push(`${indent}</unit>`);
  return lines.join('\n');
}

const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuses text XML 1.0 cannot carry (control characters, lone surrogates). */
function checkCharacters(xml: string): string {
  const match = NOT_XML.exec(xml);
  if (match)
    throw new RangeError(
      `character U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} cannot be written in XML (offset ${match.index})`,
    );
  return xml;
}

/** Serializes a document as XLIFF 1.2 or 2.1 (`version` overrides the document's own). */
export function serializeXliff(
  document: XliffDocument,
  version: '1.2' | '2.1' = document.version === '1.2' ? '1.2' : '2.1',
): string {
  for (const file of document.files) for (const unit of file.units) checkUnit(unit);
  const head = '<?xml version="1.0" encoding="UTF-8"?>';
  const source = attr(document.sourceLanguage);
  const target = document.targetLanguage === undefined ? undefined : attr(document.targetLanguage);
  if (version === '1.2') {
    const files = document.files.map((file) =>
      [
        `  <file original="${attr(file.id)}" source-language="${source}"${target ? ` target-language="${target}"` : ''} datatype="plaintext">`,
        '    <body>',
        ...file.units.map((unit) => unit12(unit, '      ')),
        '    </body>',
        '  </file>',
      ].join('\n'),
    );
    return [
      head,
      '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
      ...files,
      '</xliff>',
      '',
    ].join('\n');
  }
  const sized = document.files.some((file) => file.units.some((unit) => unit.maxLength !== undefined));
  const namespaces = sized ? ' xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0"' : '';
  const files = document.files.map((file) =>
    [
      `  <file id="${attr(file.id)}">`,
      ...(file.units.some((unit) => unit.maxLength !== undefined)
        ? ['    <slr:profiles generalProfile="xliff:codepoints"/>']
        : []),
      ...file.units.map((unit) => unit2(unit, '    ')),
      '  </file>',
    ].join('\n'),
  );
  return checkCharacters(
    [
      head,
      `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0"${namespaces} version="2.1" srcLang="${source}"${target ? ` trgLang="${target}"` : ''}>`,
      ...files,
      '</xliff>',
      '',
    ].join('\n'),
  );
}
