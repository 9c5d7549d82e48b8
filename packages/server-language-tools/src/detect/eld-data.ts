/**
 * eld's n-gram database loaded through JSON.parse instead of through its module. eld ships each database as one
 * JavaScript object literal (large: 4.4 MB, some 250,000 keys); evaluating it costs V8's parser far more than the
 * data itself, and glibc keeps that memory afterwards: importing `eld/large` adds 373 MB of RSS (136 MB of heap)
 * and takes about 4 s, while the same data read as JSON adds 118 MB (79 MB of heap) in under 2 s (bench:
 * server-full/bench/warm-up-rss.ts). The data, the detector and so the answers are eld's own: only the way the literal is
 * read differs, and test/eld-data.test.ts checks that the parsed database equals the module's, key for key.
 */
import { readFile } from 'node:fs/promises';
import type { eld } from 'eld';

/** One eld detector (the type of the package's `eld` export). */
export type Eld = typeof eld;

export const ELD_MODELS = ['large', 'medium', 'small'] as const;
export type EldModel = (typeof ELD_MODELS)[number];

const PREFIX = Buffer.from('export const ngramsData = ');
const QUOTE = 0x27; // '
const DOUBLE_QUOTE = 0x22; // "
const BACKSLASH = 0x5c;
const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const COMMA = 0x2c;
const COLON = 0x3a;
const HEX = Buffer.from('0123456789abcdef');

/**
 * Turns eld's n-gram module source (UTF-8 bytes) into JSON text: its single-quoted strings become JSON strings
 * (the only escape eld writes is `\'`; any other escape is refused rather than guessed) and its bare keys
 * (`type`, `5656`, `L_QL`) are quoted. Values are numbers, strings, `false` or objects, which JSON reads as they
 * are; eld's data has no arrays, so every `{` or `,` is followed by a key. One pass over the bytes into one
 * buffer: no string per key is made before JSON.parse makes the real ones (a regular expression replacement
 * made some 500,000 and left the thread 130 MB larger, depending on when the collector ran).
 */
export function eldModuleToJson(source: Uint8Array): string {
  const start = Buffer.from(source.buffer, source.byteOffset, source.byteLength).indexOf(PREFIX);
  const end = source.lastIndexOf(CLOSE);
  if (start < 0 || end < start)
    throw new Error('Not an eld n-gram module: no `export const ngramsData = {...}`.');
  // Quoting a key adds 2 bytes, a string's `"` or control character at most 5: room for the worst case.
  const out = Buffer.allocUnsafe((end + 1 - start) * 6);
  let length = 0;
  let inString = false;
  for (let index = start + PREFIX.length; index <= end; index++) {
    const byte = source[index]!;
    if (inString) {
      if (byte === QUOTE) {
        out[length++] = DOUBLE_QUOTE;
        inString = false;
      } else if (byte === BACKSLASH) {
        if (source[index + 1] !== QUOTE)
          throw new Error(`Unexpected escape in eld's n-gram data at byte ${index}.`);
        out[length++] = QUOTE;
        index++;
      } else if (byte === DOUBLE_QUOTE) {
        out[length++] = BACKSLASH;
        out[length++] = DOUBLE_QUOTE;
      } else if (byte < 0x20) {
        length += out.write('\\u00', length, 'latin1');
        out[length++] = HEX[byte >> 4]!;
        out[length++] = HEX[byte & 15]!;
      } else out[length++] = byte;
      continue;
    }
    if (byte === QUOTE) {
      out[length++] = DOUBLE_QUOTE;
      inString = true;
      continue;
    }
    out[length++] = byte;
    const next = source[index + 1];
    if ((byte === OPEN || byte === COMMA) && next !== QUOTE && next !== CLOSE) {
      // A bare key, up to its colon.
      out[length++] = DOUBLE_QUOTE;
      while (source[index + 1] !== COLON) {
        const keyByte = source[++index];
        if (keyByte === undefined || keyByte === DOUBLE_QUOTE || keyByte === BACKSLASH || keyByte <= 0x20)
          throw new Error(`Unexpected key in eld's n-gram data at byte ${index}.`);
        out[length++] = keyByte;
      }
      out[length++] = DOUBLE_QUOTE;
    }
  }
  return out.toString('utf8', 0, length);
}

/** Reads the n-gram database of one eld model (from the installed package) as plain data. */
export async function readEldNgrams(model: EldModel): Promise<unknown> {
  if (!ELD_MODELS.includes(model))
    throw new RangeError(`Expected an eld model of ${ELD_MODELS.join(', ')}, got ${String(model)}.`);
  const entry = import.meta.resolve(`eld/${model}`);
  const source = await readFile(new URL(`../ngrams/${model}.js`, entry));
  return JSON.parse(eldModuleToJson(source));
}

/** A new eld detector holding one model's database, read as JSON (see above). */
export async function createEld(model: EldModel): Promise<Eld> {
  const data = await readEldNgrams(model);
  const entry = import.meta.resolve(`eld/${model}`);
  const internals = (await import(new URL('../languageDetector.js', entry).href)) as {
    createEld(): { instance: Eld; loadData(data: unknown): string | undefined };
  };
  const { instance, loadData } = internals.createEld();
  if (!loadData(data)) throw new Error(`eld did not load its ${model} n-gram database.`);
  return instance;
}
