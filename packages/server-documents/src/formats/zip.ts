/**
 * Reading and writing the ZIP packages of OOXML documents, safely. Reading walks the central directory
 * itself and inflates each entry with a hard output cap, so a header that lies about sizes cannot expand
 * past it. Refused (400, or 413 for size): too many entries, an entry or a total over the caps, an
 * expansion ratio typical of a zip bomb, encrypted or ZIP64 entries, unknown compression, entry names
 * that are absolute, climb out (`..`), use backslashes or repeat.
 */
import { inflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { DocumentFormatError } from './format.js';

export const MAX_ZIP_ENTRIES = 2000;
/** Largest uncompressed entry (64 MiB). */
export const MAX_ZIP_ENTRY_BYTES = 64 * 1024 * 1024;
/** Largest uncompressed total (256 MiB). */
export const MAX_ZIP_TOTAL_BYTES = 256 * 1024 * 1024;
/** An entry over 1 MiB that expands more than this many times is taken for a zip bomb. */
export const MAX_ZIP_RATIO = 200;

export type ZipEntries = Map<string, Uint8Array>;

function fail(message: string, status: 400 | 413 = 400): never {
  throw new DocumentFormatError(message, status);
}

function checkName(name: string, seen: ZipEntries): void {
  if (
    name === '' ||
    name.startsWith('/') ||
    name.includes('\\') ||
    /^[A-Za-z]:/.test(name) ||
    name.split('/').some((part) => part === '..' || part === '.') ||
    name.includes('\u0000')
  )
    fail(`The package has an unsafe entry name '${name.slice(0, 100)}' (absolute or outside the package).`);
  if (seen.has(name)) fail(`The package has the entry '${name.slice(0, 100)}' twice.`);
}

/** The entries of a ZIP package, in their order, directories left out. */
export function readZip(bytes: Uint8Array, format: string): ZipEntries {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 65535); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) fail(`The ${format} document is not a ZIP package.`);
  const count = data.readUInt16LE(end + 10);
  const directorySize = data.readUInt32LE(end + 12);
  let offset = data.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff)
    fail(`The ${format} document uses ZIP64, which is not supported.`);
  if (count > MAX_ZIP_ENTRIES)
    fail(`The ${format} package has ${count} entries (at most ${MAX_ZIP_ENTRIES}).`, 413);
  if (offset + directorySize > end) fail(`The ${format} package's central directory is damaged.`);
  const entries: ZipEntries = new Map();
  let total = 0;
  for (let index = 0; index < count; index++) {
    if (offset + 46 > end || data.readUInt32LE(offset) !== 0x02014b50)
      fail(`The ${format} package's central directory is damaged.`);
    const flags = data.readUInt16LE(offset + 8);
    const method = data.readUInt16LE(offset + 10);
    const compressed = data.readUInt32LE(offset + 20);
    const size = data.readUInt32LE(offset + 24);
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    const local = data.readUInt32LE(offset + 42);
    const name = data.toString('utf8', offset + 46, offset + 46 + nameLength);
    offset += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    checkName(name, entries);
    if (flags & 1) fail(`The ${format} package is encrypted.`);
    if (size === 0xffffffff || compressed === 0xffffffff || local === 0xffffffff)
      fail(`The ${format} document uses ZIP64, which is not supported.`);
    if (size > MAX_ZIP_ENTRY_BYTES)
      fail(
        `The ${format} package's entry '${name}' is ${size} bytes uncompressed (at most ${MAX_ZIP_ENTRY_BYTES}).`,
        413,
      );
    total += size;
    if (total > MAX_ZIP_TOTAL_BYTES)
      fail(`The ${format} package is over ${MAX_ZIP_TOTAL_BYTES} bytes uncompressed.`, 413);
    if (size > 1024 * 1024 && size / Math.max(compressed, 1) > MAX_ZIP_RATIO)
      fail(
        `The ${format} package's entry '${name}' expands ${Math.round(size / Math.max(compressed, 1))} times: refused as a zip bomb.`,
      );
    if (local + 30 > data.length || data.readUInt32LE(local) !== 0x04034b50)
      fail(`The ${format} package's entry '${name}' is damaged.`);
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    if (start + compressed > data.length) fail(`The ${format} package's entry '${name}' is truncated.`);
    const raw = data.subarray(start, start + compressed);
    let content: Buffer;
    if (method === 0) content = raw;
    else if (method === 8) {
      try {
        content = inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
      } catch {
        fail(`The ${format} package's entry '${name}' does not inflate to its declared size: refused.`);
      }
    } else
      fail(
        `The ${format} package's entry '${name}' uses compression method ${method}, which is not supported.`,
      );
    if (content.length !== size)
      fail(`The ${format} package's entry '${name}' does not match its declared size: refused.`);
    entries.set(name, new Uint8Array(content));
  }
  return entries;
}

/** Stored, not deflated: media (already compressed) and IDML's `mimetype`, which readers expect stored. */
const STORED = /\.(png|jpe?g|gif|tiff?|emf|wmf|mp[34]|wav|zip|bin)$|^mimetype$/i;

/** A ZIP package of the entries, in their order (media stored, XML deflated). */
export function writeZip(entries: ZipEntries): Uint8Array {
  const files: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  for (const [name, content] of entries) files[name] = [content, { level: STORED.test(name) ? 0 : 6 }];
  return zipSync(files);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** An XML part as text (400 when missing or not UTF-8). */
export function partText(entries: ZipEntries, name: string, format: string): string {
  const bytes = entries.get(name);
  if (!bytes) fail(`The ${format} package has no '${name}' part.`);
  try {
    return utf8.decode(bytes);
  } catch {
    fail(`The ${format} package's part '${name}' is not UTF-8 XML.`);
  }
}
