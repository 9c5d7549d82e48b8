/**
 * PDF: the text is read with its positions and styles by pdf.js and grouped into blocks (a block whose
 * text mixes styles is markup in code form, one `<g>` per style, so the styles follow the words they
 * belong to); the translated PDF is the same file (pages, images, drawings, links) with the text objects
 * removed from the page content streams and the form XObjects they use, and every block drawn again in
 * its place with pdf-lib, in the DejaVu face that matches each style (bold, italic; Sans, Serif or Mono)
 * and its colour, embedded as subsets (Latin, Greek, Cyrillic, Arabic, Hebrew …), wrapped at the block's
 * width and made smaller until it fits the block's height. Annotations with text (FreeText boxes, notes)
 * are translated too. Symbol-font characters (Symbol, Wingdings, Webdings: U+F020–U+F0FF) are read as the
 * Unicode characters they show (pdf-symbols.ts). A PDF that pdf-lib cannot rewrite (encrypted, unreadable) or that has no text
 * layer is refused at upload. Billed at least 50,000 characters.
 */
import {
  decodePDFRawStream,
  EncryptedPDFError,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  type PDFStream,
} from 'pdf-lib';
import { type DocumentFormat, DocumentFormatError, type DocumentText, type Extraction } from './format.js';
import { escapeXml, parseInline } from './inline.js';
import { translateAnnotations } from './pdf-annotations.js';
import type { PdfBlock } from './pdf-blocks.js';
import { pdfBlocksToDocx } from './pdf-docx.js';
import { type Area, createFontSet, drawStyledText, pageDrawer, type StyledText } from './pdf-draw.js';
import { DrawnRuns, linkTargets, moveLinks } from './pdf-links.js';
import { stripText } from './pdf-strip.js';
import { type PdfStyle, PLAIN_STYLE } from './pdf-styles.js';
import { readPdfText } from './pdf-text.js';

export const pdfFormat: DocumentFormat = {
  name: 'PDF',
  maxBytes: 30 * 1024 * 1024,
  contentType: 'application/pdf',
  minimumBilled: 50_000,
  async extract(bytes, options): Promise<Extraction> {
    const { blocks, annotations, links, styles } = await readPdfText(bytes);
    const document = await loadForRewrite(bytes);
    const texts = blocks.filter((block) => /\p{L}/u.test(block.text)).map((block) => blockText(block));
    if (texts.length === 0 && annotations.length === 0)
      throw new DocumentFormatError(
        'The PDF document has no text layer (scanned pages?): there is no text to translate. Send the pages as PNG or JPEG images to have them read by OCR.',
      );
    return {
      texts: [
        ...texts.map((text) => text.text),
        ...annotations.map((a) => ({ text: a.text, mode: 'plain' as const })),
      ],
      rebuild: async (outputs) => {
        const translated = new Map(
          texts.map((text, i) => [text.block, piecesOf(text, outputs[i], styles.list)]),
        );
        const pieces = blocks.map(
          (block) =>
            translated.get(block) ??
            block.runs.map((run) => ({ text: run.text, style: styles.list[run.style]! })),
        );
        if (options.outputFormat === 'docx') {
          const paragraphs = [
            // A list item's marker before its text, a tab between them.
            ...blocks.map((block, i) => ({
              page: block.page,
              size: block.size,
              pieces: block.marker
                ? [{ text: `${block.marker.text}\t`, style: styles.list[block.marker.style]! }, ...pieces[i]!]
                : pieces[i]!,
            })),
            // Annotation texts (notes, FreeText boxes) follow their page's blocks, in italics.
            ...annotations.map((annotation, i) => ({
              page: annotation.page,
              size: 10,
              pieces: [
                {
                  text: outputs[texts.length + i]?.trim() || annotation.text,
                  style: { ...PLAIN_STYLE, italic: true },
                },
              ],
            })),
          ];
          // A stable sort: by page, blocks in reading order, then the page's annotations.
          return pdfBlocksToDocx(paragraphs.sort((a, b) => a.page - b.page));
        }
        stripPages(document);
        const fonts = createFontSet(document);
        const pages = document.getPages();
        const drawn = new DrawnRuns();
        for (const [index, block] of blocks.entries()) {
          const page = pages[block.page];
          if (!page) continue;
          const drawOnPage = pageDrawer(page, block.angle);
          // A list item's marker where it was; its text (below) from where the item's text started.
          if (block.marker)
            await drawStyledText(
              [{ text: block.marker.text, style: styles.list[block.marker.style]! }],
              fonts,
              {
                x: block.marker.x,
                y: block.y,
                width: Math.max(block.x - block.marker.x, block.size),
                height: block.size * 1.2,
                size: block.size,
              },
              drawOnPage,
            );
          await drawStyledText(
            pieces[index]!,
            fonts,
            areaOf(block, page.getWidth()),
            (fragment, x, y, size) => {
              drawOnPage(fragment, x, y, size);
              drawn.add(index, fragment.style, x, y, fragment.width * size, size);
            },
          );
        }
        const mainStyles = new Map(texts.map((text) => [text.block, text.base]));
        const targets = linkTargets(links, blocks, (index) => mainStyles.get(blocks[index]!));
        moveLinks(document, targets, drawn, styles.list);
        await translateAnnotations(document, fonts, annotations, outputs.slice(texts.length));
        const unmapped = [...fonts.missing].filter((char) => /[\uf020-\uf0ff]/.test(char));
        if (unmapped.length > 0)
          throw new DocumentFormatError(
            `The document has symbol-font characters (Symbol, Wingdings, Webdings) with no Unicode equivalent: ${unmapped
              .slice(0, 10)
              .map((char) => `U+${char.charCodeAt(0).toString(16).toUpperCase()}`)
              .join(' ')}. A PDF would show them as empty boxes; ask for output_format=docx instead.`,
          );
        if (fonts.missing.size > 0)
          throw new DocumentFormatError(
            `The translation has characters the server's PDF fonts (DejaVu) do not cover: ${[...fonts.missing].slice(0, 10).join(' ')}. A PDF would show them as empty boxes; ask for output_format=docx instead.`,
          );
        return document.save();
      },
    };
  },
};

/**
 * Where a block's translation goes: a translation may run up to 30% wider than the original, on the side
 * its alignment leaves free (both sides when centred), within 36 pt page margins (turned text: 30% wider).
 */
function areaOf(block: PdfBlock, pageWidth: number): Area {
  const height = Math.max(block.top - block.bottom, block.size * 1.2);
  // Justified text keeps its measure: both edges stay (the text is made smaller when it does not fit).
  if (block.align === 'justify')
    return { x: block.x, y: block.y, width: block.width, height, size: block.size, align: 'justify' };
  const level = block.angle === 0;
  const room =
    block.align !== 'right' && block.align !== 'center'
      ? pageWidth - 36 - block.x
      : block.align === 'right'
        ? block.x + block.width - 36
        : 2 * Math.min(block.x + block.width / 2 - 36, pageWidth - 36 - (block.x + block.width / 2));
  // A table cell's translation stops before the next cell on its line.
  const cellRoom = block.limit === undefined ? Number.POSITIVE_INFINITY : block.limit - block.x;
  const width = Math.max(
    block.width,
    Math.min(block.width * 1.3, level ? room : Number.POSITIVE_INFINITY, cellRoom),
  );
  const x =
    block.align === 'left'
      ? block.x
      : block.align === 'right'
        ? block.x + block.width - width
        : block.x + (block.width - width) / 2;
  return { x, y: block.y, width, height, size: block.size, align: block.align };
}

async function loadForRewrite(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    // An encrypted file's objects may not parse at all: its trailer (or xref stream) names the encryption.
    if (error instanceof EncryptedPDFError || Buffer.from(bytes).includes('/Encrypt'))
      throw new DocumentFormatError(
        'The PDF document is encrypted: it cannot be rewritten. Remove its protection and send it again.',
      );
    throw new DocumentFormatError('The PDF document could not be rewritten (its structure cannot be read).');
  }
}

interface BlockText {
  readonly block: PdfBlock;
  readonly text: DocumentText;
  /** The style of the text outside any code. */
  readonly base: number;
  /** The style each `<g id="k">` stands for, at `k - 1`. */
  readonly codes: readonly number[];
}

/** A block's text: plain in one style, else code form with a `<g>` around each run not in the main style. */
function blockText(block: PdfBlock): BlockText {
  const counts = new Map<number, number>();
  for (const run of block.runs)
    counts.set(run.style, (counts.get(run.style) ?? 0) + run.text.replace(/\s/g, '').length);
  const base = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const styled = [...counts].filter(([, count]) => count > 0);
  if (styled.length <= 1)
    return { block, text: { text: block.text, mode: 'plain' }, base: styled[0]?.[0] ?? base, codes: [] };
  const codes: number[] = [];
  let form = '';
  for (const run of block.runs) {
    const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(run.text) ?? [];
    if (run.style === base || core === '') {
      form += escapeXml(run.text);
      continue;
    }
    if (!codes.includes(run.style)) codes.push(run.style);
    form += `${escapeXml(lead)}<g id="${codes.indexOf(run.style) + 1}">${escapeXml(core)}</g>${escapeXml(trail)}`;
  }
  return { block, text: { text: form, mode: 'xml' }, base, codes };
}

/** A block's translation as pieces of styled text (the codes back to their styles). */
function piecesOf(
  text: BlockText,
  output: string | undefined,
  styles: readonly PdfStyle[],
): StyledText[] | undefined {
  if (output === undefined || output.trim() === '') return undefined;
  const base = styles[text.base]!;
  if (text.text.mode === 'plain') return [{ text: output.trim(), style: base }];
  const open: number[] = [];
  const pieces: StyledText[] = [];
  for (const piece of parseInline(output)) {
    if (piece.kind === 'open') open.push(piece.id);
    else if (piece.kind === 'close') open.pop();
    else if (piece.kind === 'text') {
      const code = open.at(-1);
      const style = code === undefined ? undefined : text.codes[code - 1];
      pieces.push({ text: piece.text, style: style === undefined ? base : styles[style]! });
    }
  }
  return pieces;
}

/** Removes the text objects of every page's content and of the form XObjects the pages draw. */
function stripPages(document: PDFDocument): void {
  const replaced = new Set<PDFRef>();
  const forms = new Set<PDFRef>();
  for (const page of document.getPages()) {
    const raw = page.node.get(PDFName.of('Contents'));
    const refs = raw instanceof PDFArray ? raw.asArray() : raw ? [raw] : [];
    const parts = refs.map((ref) => {
      if (ref instanceof PDFRef) replaced.add(ref);
      const stream = ref instanceof PDFRef ? document.context.lookup(ref) : ref;
      return stream instanceof PDFRawStream
        ? stripText(decodePDFRawStream(stream).decode())
        : new Uint8Array();
    });
    const stripped = document.context.flateStream(Buffer.concat(parts));
    page.node.set(PDFName.of('Contents'), document.context.register(stripped));
    stripForms(document, page.node.getInheritableAttribute(PDFName.of('Resources')), forms);
  }
  // The old streams go: saved, they would carry the original text along (pdf-lib keeps unused objects).
  for (const ref of replaced) document.context.delete(ref);
}

/** Strips the form XObjects of a resource dictionary, and the forms those draw, each once. */
function stripForms(document: PDFDocument, resources: unknown, seen: Set<PDFRef>): void {
  const { context } = document;
  const dict = resources instanceof PDFRef ? context.lookup(resources) : resources;
  if (!(dict instanceof PDFDict)) return;
  const xobjects = dict.lookup(PDFName.of('XObject'));
  if (!(xobjects instanceof PDFDict)) return;
  for (const ref of xobjects.values()) {
    if (!(ref instanceof PDFRef) || seen.has(ref)) continue;
    seen.add(ref);
    const form = context.lookup(ref);
    if (!(form instanceof PDFRawStream) || form.dict.get(PDFName.of('Subtype')) !== PDFName.of('Form'))
      continue;
    const entries: Record<string, unknown> = {};
    for (const [key, value] of form.dict.entries())
      if (!['Filter', 'DecodeParms', 'Length'].includes(key.decodeText())) entries[key.decodeText()] = value;
    const stripped: PDFStream = context.flateStream(
      stripText(decodePDFRawStream(form).decode()),
      entries as never,
    );
    context.assign(ref, stripped);
    stripForms(document, form.dict.get(PDFName.of('Resources')), seen);
  }
}
