/**
 * DOCX, PPTX and XLSX: ZIP packages of XML parts (read with the limits of `zip.ts`; every part translated
 * is checked by `checkXml` first). The text parts are rewritten paragraph by paragraph (`ooxml-runs.ts`);
 * every other entry (styles, media, formulas, numbers, relationships) is copied unchanged.
 */
import { DOCUMENT_MINIMUM_BILLED_CHARACTERS } from '@glossa/protocol';
import type { DocumentFormat, DocumentText } from './format.js';
import { encodeParagraph, type RunDialect } from './ooxml-runs.js';
import { nestedMarker, Template } from './template.js';
import { checkXml } from './xml-check.js';
import { childNodes, outerElements } from './xml-scan.js';
import { partText, readZip, writeZip } from './zip.js';

interface OoxmlSpec {
  readonly name: string;
  readonly contentType: string;
  /** The parts to translate, and the paragraph element to look for in each. */
  readonly parts: readonly {
    readonly match: RegExp;
    readonly paragraph: string;
    readonly dialect: RunDialect;
  }[];
  /** A part every package of the format has. */
  readonly mainPart: string;
  /** Billing minimum (default: the OOXML minimum of 50,000 characters). */
  readonly minimumBilled?: number;
}

const none: ReadonlySet<string> = new Set();

const WORD: RunDialect = {
  prefix: 'w:',
  standalone: new Set(['tab', 'br', 'cr', 'noBreakHyphen', 'softHyphen', 'sym']),
  dropped: new Set(['proofErr', 'lastRenderedPageBreak']),
  wrappers: new Set(['hyperlink', 'smartTag', 'ins']),
  leading: new Set(['pPr']),
  trailing: none,
  preserveSpace: true,
};
const DRAWING: RunDialect = {
  prefix: 'a:',
  standalone: new Set(['br']),
  dropped: none,
  wrappers: none,
  leading: new Set(['pPr']),
  trailing: new Set(['endParaRPr']),
  preserveSpace: false,
};
const SHEET: RunDialect = {
  prefix: '',
  standalone: none,
  dropped: none,
  wrappers: none,
  leading: none,
  trailing: new Set(['rPh', 'phoneticPr']),
  preserveSpace: true,
};

function translatePart(xml: string, paragraph: string, dialect: RunDialect): Template {
  const template = new Template();
  let last = 0;
  for (const range of outerElements(xml, paragraph)) {
    template.literal(xml.slice(last, range.start));
    translateParagraph(
      xml.slice(range.start, range.end),
      range.innerStart - range.start,
      range.innerEnd - range.start,
      paragraph,
      dialect,
      template,
    );
    last = range.end;
  }
  template.literal(xml.slice(last));
  return template;
}

/**
 * One paragraph (`xml`, its content from `innerStart` to `innerEnd`) into `template`. Paragraphs nested in
 * it (a text box's, inside a run's drawing) are texts of their own: in the paragraph's text they are inside
 * the `<x/>` code of their run, as a marker the nested translation replaces.
 */
function translateParagraph(
  xml: string,
  innerStart: number,
  innerEnd: number,
  paragraph: string,
  dialect: RunDialect,
  template: Template,
): void {
  let inner = xml.slice(innerStart, innerEnd);
  const children: Template[] = [];
  let marked = '';
  let last = 0;
  for (const range of outerElements(inner, paragraph)) {
    marked += inner.slice(last, range.start) + nestedMarker(children.length);
    children.push(translatePart(inner.slice(range.start, range.end), paragraph, dialect));
    last = range.end;
  }
  if (children.length > 0) inner = marked + inner.slice(last);
  const head = children.length > 0 ? new Template() : template;
  const encoded = encodeParagraph(inner, dialect);
  if (!encoded) head.literal(xml.slice(0, innerStart) + inner + xml.slice(innerEnd));
  else {
    head.literal(xml.slice(0, innerStart) + encoded.leading);
    head.text(
      encoded.form,
      'xml',
      children.length > 0
        ? (output) => keepNested(encoded.decode(output), inner, children.length, dialect)
        : encoded.decode,
    );
    head.literal(encoded.trailing + xml.slice(innerEnd));
  }
  if (children.length > 0) template.nest(head, children);
}

/** A translation that lost a nested paragraph's code gets the run holding it back, at the end. */
function keepNested(xml: string, inner: string, count: number, d: RunDialect): string {
  for (let k = 0; k < count; k++) {
    const marker = nestedMarker(k);
    if (xml.includes(marker)) continue;
    let nodes = childNodes(inner);
    for (;;) {
      const node = nodes.find((candidate) => candidate.raw.includes(marker));
      if (!node) break;
      const name = node.name.startsWith(d.prefix) ? node.name.slice(d.prefix.length) : '';
      if (node.kind === 'element' && node.close !== '' && d.wrappers.has(name)) {
        nodes = childNodes(node.inner);
        continue;
      }
      xml += node.raw;
      break;
    }
  }
  return xml;
}

function createOoxmlFormat(spec: OoxmlSpec): DocumentFormat {
  return {
    name: spec.name,
    maxBytes: 30 * 1024 * 1024,
    contentType: spec.contentType,
    minimumBilled: spec.minimumBilled ?? DOCUMENT_MINIMUM_BILLED_CHARACTERS,
    extract(bytes) {
      const entries = readZip(bytes, spec.name);
      partText(entries, spec.mainPart, spec.name);
      const templates: { name: string; template: Template }[] = [];
      for (const name of entries.keys()) {
        const part = spec.parts.find((candidate) => candidate.match.test(name));
        if (!part) continue;
        const xml = partText(entries, name, spec.name);
        checkXml(xml, `The ${spec.name} part '${name}'`);
        templates.push({ name, template: translatePart(xml, part.paragraph, part.dialect) });
      }
      const texts: DocumentText[] = templates.flatMap((entry) => entry.template.texts);
      return {
        texts,
        rebuild(outputs) {
          const result = new Map(entries);
          let offset = 0;
          for (const { name, template } of templates) {
            const count = template.texts.length;
            result.set(name, new TextEncoder().encode(template.fill(outputs.slice(offset, offset + count))));
            offset += count;
          }
          return writeZip(result);
        },
      };
    },
  };
}

const STORY: RunDialect = {
  prefix: '',
  standalone: new Set(['Br']),
  dropped: none,
  wrappers: none,
  leading: new Set(['Properties']),
  trailing: none,
  preserveSpace: false,
  names: { run: 'CharacterStyleRange', text: 'Content', props: 'Properties' },
  propsInOpenTag: true,
};

/** InDesign markup (IDML): a ZIP of XML parts like OOXML; the text is in the stories. */
export const idmlFormat = createOoxmlFormat({
  name: 'IDML',
  contentType: 'application/vnd.adobe.indesign-idml-package',
  mainPart: 'designmap.xml',
  minimumBilled: 0,
  parts: [{ match: /^Stories\/Story_[^/]+\.xml$/, paragraph: 'ParagraphStyleRange', dialect: STORY }],
});

export const docxFormat = createOoxmlFormat({
  name: 'DOCX',
  contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  mainPart: 'word/document.xml',
  parts: [
    {
      match: /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/,
      paragraph: 'w:p',
      dialect: WORD,
    },
  ],
});

export const pptxFormat = createOoxmlFormat({
  name: 'PPTX',
  contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  mainPart: 'ppt/presentation.xml',
  parts: [
    { match: /^ppt\/(slides\/slide|notesSlides\/notesSlide)\d+\.xml$/, paragraph: 'a:p', dialect: DRAWING },
  ],
});

export const xlsxFormat = createOoxmlFormat({
  name: 'XLSX',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  mainPart: 'xl/workbook.xml',
  parts: [
    { match: /^xl\/sharedStrings\.xml$/, paragraph: 'si', dialect: SHEET },
    { match: /^xl\/worksheets\/sheet\d+\.xml$/, paragraph: 'is', dialect: SHEET },
  ],
});
