/**
 * One document format: `extract` reads the uploaded bytes into texts to translate, and the extraction's
 * `rebuild` writes the same document with the translated texts in place. A text is plain, or markup in the
 * engine's code form (`<g id="N">…</g>` around formatting, `<x id="N"/>` for a standalone part); the
 * adapter keeps what each id stands for. Bad content throws a `DocumentFormatError` (a 400 at upload).
 */

export interface DocumentText {
  readonly text: string;
  /**
   * `plain`: text (split into sentences); `xml`: markup in code form; `html`: an HTML document, or a part
   * of a large one (`html-parts.ts`), translated with HTML tag handling (scripts and styles untouched).
   */
  readonly mode: 'plain' | 'xml' | 'html';
  /** Markup elements that split the text into separate units (block elements). */
  readonly splittingTags?: ReadonlySet<string>;
}

export interface Extraction {
  readonly texts: readonly DocumentText[];
  /** The translated document: `outputs[i]` is the translation of `texts[i]`, in the same form. */
  rebuild(outputs: readonly string[]): Uint8Array | Promise<Uint8Array>;
}

export interface ExtractOptions {
  /** Target language (canonical code), for formats that record it. */
  readonly targetLang?: string;
  /** Source language (canonical code) when known, for formats that read it (OCR of images). */
  readonly sourceLang?: string;
  /** The format to write when it is not the upload's own (a PDF written as `docx`). */
  readonly outputFormat?: string;
}

export interface DocumentFormat {
  /** Name used in messages (`DOCX`). */
  readonly name: string;
  /** Largest upload accepted, in bytes (over it: 413). */
  readonly maxBytes: number;
  /** Content type of the translated file. */
  readonly contentType: string;
  /** Billed at least this many characters. */
  readonly minimumBilled: number;
  /** Synchronous for text formats; a promise for formats that run a tool (OCR of images). */
  extract(bytes: Uint8Array, options: ExtractOptions): Extraction | Promise<Extraction>;
  /**
   * For formats slow to read (OCR): the upload only runs `check` (the file is what it says, within the
   * limits; a `DocumentFormatError` otherwise) and gets an estimate of the job's time; the job extracts,
   * detects the source language when it was not given, and reserves the characters it read.
   */
  readonly readInJob?: { check(bytes: Uint8Array): Promise<{ estimateMs: number }> };
}

/** Content the format cannot read, or a limit it is over (entry count, expansion, nesting). */
export class DocumentFormatError extends Error {
  override readonly name = 'DocumentFormatError';
  constructor(
    message: string,
    /** 413 for a size limit, 400 for anything else. */
    readonly status: 400 | 413 = 400,
  ) {
    super(message);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as UTF-8 text (a BOM is dropped and reported, so the output can carry it again). */
export function decodeText(bytes: Uint8Array, format: string): { text: string; bom: boolean } {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new DocumentFormatError(`The ${format} document is not valid UTF-8.`);
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  return { text: bom ? text.slice(1) : text, bom };
}

export function encodeText(text: string, bom: boolean): Uint8Array {
  return new TextEncoder().encode(bom ? `\ufeff${text}` : text);
}
