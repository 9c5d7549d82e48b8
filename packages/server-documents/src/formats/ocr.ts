/**
 * OCR with Debian's `tesseract` (tesseract-ocr): the image (PNG bytes) goes in on stdin, TSV word boxes come
 * out on stdout, grouped here into blocks (Tesseract's paragraphs) of lines of words. Run with
 * `OMP_THREAD_LIMIT=1` (about 7× faster here than letting OpenMP spin on every core).
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { DocumentFormatError } from './format.js';

export interface Box {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

export interface OcrLine extends Box {
  readonly words: readonly string[];
}

export interface OcrBlock extends Box {
  readonly lines: readonly OcrLine[];
  /** Mean confidence (0..100) of the block's words. */
  readonly confidence: number;
  /** The words of the block, lines joined by spaces (a hyphen that ends a line joins the word). */
  readonly text: string;
}

/** Words read with less confidence than this (0..100) are left out: specks and texture, not text. */
const MIN_CONFIDENCE = 40;
const TIMEOUT_MS = 120_000;
/** Tesseract's data names for the languages the server may be asked to read (installed ones are used). */
const TESSERACT_LANGUAGES: Readonly<Record<string, string>> = {
  en: 'eng',
  es: 'spa',
  fr: 'fra',
  de: 'deu',
  it: 'ita',
  pt: 'por',
  ca: 'cat',
  nl: 'nld',
};

let installed: Promise<ReadonlySet<string>> | undefined;

/** The language data Tesseract has here (empty when `tesseract` is not installed). */
function installedLanguages(): Promise<ReadonlySet<string>> {
  installed ??= new Promise((resolve) => {
    execFile('tesseract', ['--list-langs'], { timeout: 10_000 }, (error, stdout) => {
      resolve(
        new Set(
          error
            ? []
            : stdout
                .split('\n')
                .slice(1)
                .map((line) => line.trim())
                .filter(Boolean),
        ),
      );
    });
  });
  return installed;
}

/** Tesseract's language for a source language: its own data when installed, else English. */
async function tesseractLanguage(sourceLang: string | undefined): Promise<string> {
  const languages = await installedLanguages();
  if (!languages.has('eng'))
    throw new DocumentFormatError(
      'Image documents need Tesseract OCR with English data on the server (tesseract-ocr, tesseract-ocr-eng).',
    );
  const wanted = sourceLang && TESSERACT_LANGUAGES[sourceLang.split('-')[0]!.toLowerCase()];
  return wanted && languages.has(wanted) ? wanted : 'eng';
}

/** What OCR read: the blocks, and the mean confidence (0..100) of every word it found, kept or not. */
export interface OcrReading {
  readonly blocks: OcrBlock[];
  readonly confidence: number;
}

/**
 * The last images read (by content and language): a job without `source_lang` reads in English, detects
 * the language, and reads again in it (the same reading when that is English or has no data here).
 */
const recent = new Map<string, Promise<OcrReading>>();
const RECENT_MAX = 8;

/** Reads the words of a PNG image, grouped into blocks of lines. */
export async function recognize(png: Uint8Array, sourceLang: string | undefined): Promise<OcrReading> {
  const lang = await tesseractLanguage(sourceLang);
  const key = `${lang}:${createHash('sha256').update(png).digest('hex')}`;
  const known = recent.get(key);
  if (known) return known;
  const reading = runTesseract(png, ['-l', lang, 'tsv']).then(parseTsv);
  recent.set(key, reading);
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
  // A failed read is not remembered.
  reading.catch(() => recent.delete(key));
  return reading;
}

function runTesseract(png: Uint8Array, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', ['stdin', 'stdout', ...args], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let errors = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (errors.length < 2000) errors += chunk.toString('utf8');
    });
    child.stdin.on('error', () => {}); // the exit code reports the failure
    child.on('error', () => {
      clearTimeout(timer);
      reject(new DocumentFormatError('The image could not be read: Tesseract OCR is not available.'));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(
          new DocumentFormatError(
            signal === 'SIGKILL'
              ? `The image could not be read: OCR took longer than ${TIMEOUT_MS / 1000} s.`
              : `The image could not be read by Tesseract OCR (exit ${code}).`,
          ),
        );
    });
    child.stdin.end(png);
  });
}

interface Word extends Box {
  readonly block: string;
  readonly line: string;
  readonly text: string;
  readonly confidence: number;
}

/**
 * A list bullet as Tesseract reads it: the first word of a line, no letter or digit in it ("•", "*", "¢",
 * "+."), at most two characters, in a box much smaller than its line (a dot at mid-height, not a dash or a
 * letter). Read with little confidence or none, it still marks where a list item starts.
 */
function isBullet(text: string, box: Box, line: Box): boolean {
  return (
    text.length <= 2 &&
    !/[\p{L}\p{N}]/u.test(text) &&
    box.height <= line.height * 0.6 &&
    box.width <= line.height * 0.6
  );
}

/** TSV rows of level 5 (words) into blocks (block + paragraph numbers) of lines, in reading order. */
export function parseTsv(tsv: string): OcrReading {
  const words: Word[] = [];
  /** Lines that start with a bullet: each starts a block of its own (a list item), the bullet left out. */
  const bulleted = new Set<string>();
  let lineBox: Box | undefined;
  let confidences = 0;
  let found = 0;
  /** The first word of each line, with its line's box: candidates for a bullet. */
  const firsts: { key: string; text: string; box: Box; line: Box; word: Word | undefined }[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells.length < 12) continue;
    const [level, page, block, par, line, wordNumber, left, top, width, height] = cells.map(
      Number,
    ) as number[];
    const box = { left: left!, top: top!, width: width!, height: height! };
    if (level === 4) lineBox = box;
    if (level !== 5) continue;
    const text = cells.slice(11).join('\t').trim();
    const confidence = Number(cells[10]);
    if (text !== '' && confidence >= 0) {
      confidences += confidence;
      found++;
    }
    const lineKey = `${page}/${block}/${par}/${line}`;
    const word = { block: `${page}/${block}/${par}`, line: lineKey, text, confidence, ...box };
    const kept = text !== '' && confidence >= MIN_CONFIDENCE;
    if (wordNumber === 1 && lineBox && text !== '')
      firsts.push({ key: lineKey, text, box, line: lineBox, word: kept ? word : undefined });
    if (kept) words.push(word);
  }
  // A bullet read as a letter ("e", "o": a dot or ring Tesseract took for one) is known by its likeness to the
  // list's other bullets: a one-character first word in a box of a bullet's size, where a bullet starts
  // another line of the image. Its words would otherwise join the item before ("Home News").
  const dropped = new Set<Word>();
  const bullets = firsts.filter(({ text, box, line }) => isBullet(text, box, line));
  for (const first of firsts) {
    const { text, box, line } = first;
    const like = (bullet: Box) => {
      const slack = Math.max(2, bullet.width / 4);
      return (
        Math.abs(box.left - bullet.left) <= slack &&
        Math.abs(box.width - bullet.width) <= slack &&
        Math.abs(box.height - bullet.height) <= slack
      );
    };
    const bullet =
      bullets.includes(first) ||
      (Array.from(text).length === 1 &&
        !/\p{N}/u.test(text) &&
        box.height <= line.height * 0.6 &&
        bullets.some((other) => like(other.box)));
    if (!bullet) continue;
    bulleted.add(first.key);
    if (first.word) dropped.add(first.word);
  }
  const blocks = new Map<string, Map<string, Word[]>>();
  /** The block words go to, and where the text of its list item starts when it is one. */
  let key = '';
  let itemLeft: number | undefined;
  let lastLine: string | undefined;
  for (const word of words) {
    if (dropped.has(word)) continue;
    if (word.line !== lastLine) {
      lastLine = word.line;
      // A bulleted line starts a list item, a block of its own. A line after it in the same paragraph is the
      // item's text wrapped when it starts where the item's text does; otherwise it starts a block too.
      const inParagraph = key === word.block || key.startsWith(`${word.block}/`);
      if (bulleted.has(word.line)) [key, itemLeft] = [word.line, word.left];
      else if (!inParagraph) [key, itemLeft] = [word.block, undefined];
      else if (itemLeft !== undefined && Math.abs(word.left - itemLeft) > word.height)
        [key, itemLeft] = [word.line, undefined];
    }
    const lines = blocks.get(key) ?? new Map<string, Word[]>();
    blocks.set(key, lines);
    const line = lines.get(word.line);
    if (line) line.push(word);
    else lines.set(word.line, [word]);
  }
  const blockOf = (lines: readonly (readonly Word[])[]): OcrBlock => {
    const ocrLines = lines.map((line) => ({ ...union(line), words: line.map((word) => word.text) }));
    const all = lines.flat();
    const confidence = all.reduce((sum, word) => sum + word.confidence, 0) / all.length;
    return { ...union(ocrLines), lines: ocrLines, text: joinLines(ocrLines), confidence };
  };
  const read = [...blocks.values()].flatMap((lines) => {
    // A line with a gap wider than twice its height is a row of table cells (or tab-separated columns):
    // Tesseract reads "The animal The colour The place" as one line. In a block that has such a row,
    // every stretch of words between wide gaps is a text of its own (with the lines its text wraps onto),
    // so cells are never merged.
    const pieces = [...lines.values()].map(cellsOf);
    if (pieces.every((cells) => cells.length === 1)) return [blockOf([...lines.values()])];
    // A cell's text wrapped over lines: a stretch right below another, starting where it starts, at a
    // paragraph's line spacing (the next row lies farther down, past the cell's padding), joins it.
    const cells: Word[][][] = [];
    for (const stretch of pieces.flat()) {
      const box = union(stretch);
      // Among the last cells only (a row's worth): the search stays linear in the words of a large table.
      const above = cells.slice(-64).find((cell) => {
        const last = union(cell.at(-1)!);
        const gap = box.top - (last.top + last.height);
        return (
          Math.abs(box.left - last.left) <= last.height &&
          gap >= -last.height * 0.2 &&
          gap <= last.height * 0.6
        );
      });
      if (above) above.push(stretch);
      else cells.push([stretch]);
    }
    return cells.map(blockOf);
  });
  return { blocks: read, confidence: found === 0 ? 0 : confidences / found };
}

/** A line's words in stretches separated by gaps wider than twice the line's height. */
function cellsOf(line: readonly Word[]): Word[][] {
  const height = union(line).height;
  const cells: Word[][] = [];
  for (const word of line) {
    const cell = cells.at(-1);
    const previous = cell?.at(-1);
    if (cell && previous && word.left - (previous.left + previous.width) <= height * 2) cell.push(word);
    else cells.push([word]);
  }
  return cells;
}

function joinLines(lines: readonly OcrLine[]): string {
  let text = '';
  for (const line of lines) {
    const words = line.words.join(' ');
    text = text === '' ? words : /\p{L}-$/u.test(text) ? `${text.slice(0, -1)}${words}` : `${text} ${words}`;
  }
  return text;
}

export function union(boxes: readonly Box[]): Box {
  const left = Math.min(...boxes.map((box) => box.left));
  const top = Math.min(...boxes.map((box) => box.top));
  const right = Math.max(...boxes.map((box) => box.left + box.width));
  const bottom = Math.max(...boxes.map((box) => box.top + box.height));
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * Clockwise turns of the image worth reading again, for a reading that does not look upright: most lines
 * taller than wide (turned a quarter: either way), or words read with little confidence (upside down).
 * Empty for a reading that looks upright. (Tesseract's own orientation detection needs more text than a
 * poster has: it answers "too few characters" for a few lines.)
 */
export function turnsToTry(reading: OcrReading): number[] {
  const lines = reading.blocks
    .flatMap((block) => block.lines)
    .filter((line) => line.words.join('').length >= 3);
  const vertical = lines.filter((line) => line.height > line.width * 1.5).length;
  if (lines.length > 0 && vertical * 2 > lines.length) return [90, 270];
  return reading.confidence < 70 ? [180] : [];
}
