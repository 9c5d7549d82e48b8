/**
 * TMX 1.4b reading and writing. Reading is streaming (saxes) and safe: a document type declaration that
 * only names its DTD (`<!DOCTYPE tmx SYSTEM "tmx14.dtd">`, as most CAT tools write it) is read past, never
 * loaded, and one with an internal subset is refused (so no entity is ever declared: no external entity, no
 * entity expansion), only the five predefined entities and character references exist, nesting is limited to MAX_TMX_DEPTH elements and a segment to
 * MAX_SEGMENT_CHARACTERS. Inline codes (`bpt`, `ept`, `ph`, `it`, `ut`) are left out of a segment's plain
 * text and kept, with their native content (a `sub` inside one counts as native content), in the segment's
 * normalized tagged form (see `inline-codes.ts`); `hi` keeps its text.
 */
import { MAX_TMX_BYTES } from '@glossa/protocol';
import { SaxesParser } from 'saxes';
import { escapeXml, normalizeUnit, type RawCode, type RawPiece } from './inline-codes.js';
import type { SegmentInput } from './postings.js';

/** Largest TMX file an import accepts (100 MiB): the interface's limit. */
export { MAX_TMX_BYTES };
export const MAX_TMX_DEPTH = 32;
export const MAX_SEGMENT_CHARACTERS = 20_000;
/** Inline codes a segment keeps, at most (a segment with more keeps its plain text only). */
export const MAX_SEGMENT_CODES = 500;
/**
 * A batch is handed on once it holds this many characters (sources and targets), even short of `batchSize`
 * units: 500 units of long segments (8,000 characters a unit) would otherwise be 4 M characters, several
 * copies of each held at once while the batch is written. The caller writes a batch on the event loop
 * (tokens, SQLite), about 2 ms for this many characters: short, so other clients' requests wait little
 * (500,000 held them up some 25 ms a batch; issue 31).
 */
export const MAX_BATCH_CHARACTERS = 48_000;
/** The parser is given the file's text this many characters at a time, a batch handed on between two. */
const PARSE_PIECE = 32 * 1024;

/** The file is not a TMX document this server can read; the message says why and where. */
export class TmxError extends Error {
  override readonly name = 'TmxError';
}

/** The XML declaration is looked for in the file's first bytes. */
const DECLARATION_BYTES = 512;

/**
 * The encoding a file without a byte-order mark declares (`<?xml version="1.0" encoding="ISO-8859-1"?>`),
 * UTF-8 when it declares none, one that reads as UTF-8 (ASCII), or UTF-16 (its bytes, read so far as
 * ASCII, are not UTF-16).
 */
function declaredEncoding(start: string): string {
  const label = /^(?:\uFEFF|\xEF\xBB\xBF)?<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(
    start,
  )?.[1];
  if (label === undefined || /^(utf-?8|(us-)?ascii|utf-?16.*)$/i.test(label)) return 'UTF-8';
  return label;
}

export interface TmxSummary {
  readonly source: string;
  readonly targets: readonly string[];
  readonly segments: number;
  readonly skipped: number;
}

const CODE_ELEMENTS = new Set(['bpt', 'ept', 'ph', 'it', 'ut']);
const root = (code: string) => code.trim().split(/[-_]/)[0]!.toLowerCase();
/** A language code as written, compared without case and with `_` for `-` (`en_US`, `EN-us`: `en-us`). */
const variant = (code: string) => code.trim().toLowerCase().replaceAll('_', '-');
/** The quoted literals of a document type declaration, removed (a `[` inside one is no internal subset). */
const QUOTED = /"[^"]*"|'[^']*'/g;

/**
 * Reads a TMX document from `chunks`, handing segments to `onBatch` in batches of `batchSize` (awaited,
 * so the caller can write each batch in its own transaction and yield to other work).
 */
export async function readTmx(
  chunks: AsyncIterable<string | Buffer>,
  onBatch: (segments: SegmentInput[]) => Promise<void> | void,
  batchSize = 1000,
): Promise<TmxSummary> {
  const parser = new SaxesParser({ position: true });
  let failure: Error | undefined;
  const fail = (message: string) => {
    failure ??= new TmxError(`${message} (line ${parser.line}, column ${parser.column})`);
  };
  const stack: string[] = [];
  let source = '';
  /** The source language as the header (or the first unit) writes it: a unit's source is that variant first. */
  let sourceVariant = '';
  let sawTmx = false;
  let tuvs:
    | { language: string; variant: string; text: string; pieces: RawPiece[]; overlong: boolean }[]
    | undefined;
  let tuvLanguage: string | undefined;
  let segText: string | undefined;
  let segPieces: RawPiece[] = [];
  /** The code being read, its element depth, and the segment's codes and their native characters so far. */
  let code: { -readonly [K in keyof RawCode]: RawCode[K] } | undefined;
  let codeDepth = 0;
  let nativeCharacters = 0;
  let codeCount = 0;
  let batch: SegmentInput[] = [];
  let batchCharacters = 0;
  const targets = new Set<string>();
  let segments = 0;
  let skipped = 0;
  /** Units skipped whose only translations were other variants of the source language (en-US → en-GB). */
  let variantsOnly = 0;

  parser.on('doctype', (doctype) => {
    if (doctype.replace(QUOTED, '').includes('['))
      fail('TMX files whose document type declaration (DTD) declares entities or elements are refused');
  });
  parser.on('error', (error) => fail(`Not well-formed XML: ${error.message.replace(/^.*?:\d+:\d+: /, '')}`));
  parser.on('opentag', (tag) => {
    stack.push(tag.name);
    if (stack.length > MAX_TMX_DEPTH) return fail(`Elements nested deeper than ${MAX_TMX_DEPTH}`);
    const attribute = (name: string) => {
      const value = tag.attributes[name];
      return typeof value === 'string' ? value : value?.value;
    };
    if (stack.length === 1) {
      if (tag.name !== 'tmx') return fail(`The root element is <${tag.name}>, not <tmx>`);
      sawTmx = true;
    } else if (tag.name === 'header') {
      const lang = attribute('srclang') ?? '';
      if (lang !== '' && lang.toLowerCase() !== '*all*') {
        source = root(lang);
        sourceVariant = variant(lang);
      }
    } else if (tag.name === 'tu') tuvs = [];
    else if (tag.name === 'tuv') tuvLanguage = attribute('xml:lang') ?? attribute('lang');
    else if (tag.name === 'seg') {
      segText = '';
      segPieces = [];
      nativeCharacters = 0;
      codeCount = 0;
    } else if (code) codeDepth++;
    else if (segText !== undefined && CODE_ELEMENTS.has(tag.name)) {
      const element = tag.name as RawCode['element'];
      code = { element, i: attribute('i'), x: attribute('x'), pos: attribute('pos'), native: '' };
      codeDepth = 1;
    } else if (segText !== undefined && tag.name === 'sub') codeDepth++;
  });
  const onText = (text: string) => {
    if (segText === undefined) return;
    if (code) {
      nativeCharacters += text.length;
      if (nativeCharacters <= MAX_SEGMENT_CHARACTERS) code.native += text;
    } else if (codeDepth === 0) {
      segText += text;
      const last = segPieces.length - 1;
      if (typeof segPieces[last] === 'string') segPieces[last] += text;
      else segPieces.push(text);
    }
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    stack.pop();
    if (tag.name === 'seg' && segText !== undefined) {
      const overlong = nativeCharacters > MAX_SEGMENT_CHARACTERS || codeCount > MAX_SEGMENT_CODES;
      if (tuvs && tuvLanguage) {
        tuvs.push({
          language: root(tuvLanguage),
          variant: variant(tuvLanguage),
          text: segText.trim(),
          pieces: segPieces,
          overlong,
        });
      }
      segText = undefined;
    } else if (segText !== undefined && codeDepth > 0) {
      if (--codeDepth === 0 && code) {
        if (++codeCount <= MAX_SEGMENT_CODES) segPieces.push(code);
        code = undefined;
      }
    } else if (tag.name === 'tuv') tuvLanguage = undefined;
    else if (tag.name === 'tu' && tuvs) {
      if (source === '' && tuvs[0]) ({ language: source, variant: sourceVariant } = tuvs[0]);
      // The variant the header names (en-US), else the first of its language (a unit of en-GB and en-US).
      const sourceTuv =
        tuvs.find((tuv) => tuv.variant === sourceVariant) ?? tuvs.find((tuv) => tuv.language === source);
      const targetTuvs = tuvs.filter((tuv) => tuv.language !== source && tuv.text !== '');
      const tooLong = tuvs.some((tuv) => tuv.text.length > MAX_SEGMENT_CHARACTERS);
      if (!sourceTuv || sourceTuv.text === '' || targetTuvs.length === 0 || tooLong) {
        skipped++;
        if (sourceTuv && targetTuvs.length === 0)
          if (tuvs.some((tuv) => tuv !== sourceTuv && tuv.language === source && tuv.text !== ''))
            variantsOnly++;
      } else {
        for (const tuv of targetTuvs) targets.add(tuv.language);
        const tagged = tuvs.some((tuv) => tuv.overlong)
          ? undefined
          : normalizeUnit(
              sourceTuv.pieces,
              targetTuvs.map((tuv) => tuv.pieces),
            );
        batch.push({
          source: sourceTuv.text,
          ...(tagged?.source === undefined ? {} : { sourceTagged: tagged.source }),
          targets: targetTuvs.map((tuv, index) => {
            const form = tagged?.targets[index];
            return form === undefined
              ? { language: tuv.language, text: tuv.text }
              : { language: tuv.language, text: tuv.text, tagged: form };
          }),
        });
        segments++;
        for (const tuv of tuvs) batchCharacters += tuv.text.length;
      }
      tuvs = undefined;
    }
  });

  // UTF-16 when the file starts with its byte-order mark (some CAT tools export UTF-16 TMX), else the
  // encoding its XML declaration names (older tools write ISO-8859-1 or windows-1252), else UTF-8.
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  let encoding = 'UTF-8';
  let head = Buffer.alloc(0);
  const decode = (chunk: string | Buffer, stream: boolean) => {
    if (typeof chunk === 'string') return chunk;
    if (!decoder) {
      head = Buffer.concat([head, chunk]);
      const start = head.toString('latin1', 0, DECLARATION_BYTES);
      if (stream && head.length < DECLARATION_BYTES && (head.length < 2 || !start.includes('>'))) return '';
      encoding =
        head[0] === 0xff && head[1] === 0xfe
          ? 'UTF-16LE'
          : head[0] === 0xfe && head[1] === 0xff
            ? 'UTF-16BE'
            : declaredEncoding(start);
      try {
        decoder = new TextDecoder(encoding.toLowerCase(), { fatal: true });
      } catch {
        throw new TmxError(`The file's encoding, ${encoding}, is not one this server reads`);
      }
      chunk = head;
    }
    try {
      return decoder.decode(chunk, { stream });
    } catch {
      throw new TmxError(`The file is not valid ${encoding}`);
    }
  };
  for await (const chunk of chunks) {
    const text = decode(chunk, true);
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + PARSE_PIECE);
      // Not between the two halves of a surrogate pair.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      parser.write(text.slice(at, end));
      at = end;
      if (failure) throw failure;
      if (batch.length >= batchSize || batchCharacters >= MAX_BATCH_CHARACTERS) {
        const full = batch;
        batch = [];
        batchCharacters = 0;
        await onBatch(full);
      }
    }
  }
  parser.write(decode(Buffer.alloc(0), false));
  parser.close();
  if (failure) throw failure;
  if (!sawTmx) throw new TmxError('The file holds no <tmx> element');
  if (batch.length > 0) await onBatch(batch);
  if (segments === 0) {
    const variants =
      variantsOnly === 0
        ? ''
        : `; ${variantsOnly} of them translate only between variants of ${source}, and a memory's languages are languages, not their regional variants`;
    throw new TmxError(`The file holds no usable translation unit (${skipped} skipped${variants})`);
  }
  return { source, targets: [...targets].sort(), segments, skipped };
}

interface WritableSegment {
  source: string;
  sourceTagged?: string | undefined;
  targets: readonly { language: string; text: string; tagged?: string | undefined }[];
}

/** The start of a TMX 1.4b document (`tmxUnit` per segment, then `TMX_END`). */
export const tmxStart = (source: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="glossa" creationtoolversion="1" segtype="sentence" o-tmf="glossa" adminlang="en" srclang="${escapeXml(source)}" datatype="plaintext"/>\n  <body>\n`;

/** One translation unit; a text with inline codes is written in its tagged form. */
export function tmxUnit(source: string, segment: WritableSegment): string {
  let tu = `    <tu>\n      <tuv xml:lang="${escapeXml(source)}"><seg>${segment.sourceTagged ?? escapeXml(segment.source)}</seg></tuv>\n`;
  for (const target of segment.targets) {
    tu += `      <tuv xml:lang="${escapeXml(target.language)}"><seg>${target.tagged ?? escapeXml(target.text)}</seg></tuv>\n`;
  }
  return `${tu}    </tu>\n`;
}

export const TMX_END = '  </body>\n</tmx>\n';

/** A TMX 1.4b document, written piece by piece, from segments read one by one (a memory's pages). */
export async function* writeTmx(
  source: string,
  segments: Iterable<WritableSegment> | AsyncIterable<WritableSegment>,
): AsyncGenerator<string> {
  yield tmxStart(source);
  for await (const segment of segments) yield tmxUnit(source, segment);
  yield TMX_END;
}
