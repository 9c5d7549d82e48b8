/**
 * A file the run could not read, decode, parse or write: a positioned message in the run's report.
 * The file is left out of the run (its outputs are left as they were); every other file goes on.
 */

import type { FileFailure } from '@glossa/core';

export type { FileFailure };

/** `docs/a.md:3:5: cannot parse as markdown: …` */
export function formatFileFailure(failure: FileFailure): string {
  const locale = failure.locale === undefined ? '' : ` [${failure.locale}]`;
  return `${failure.file}:${failure.line}:${failure.column}${locale}: ${failure.reason}`;
}

/** Line and column (1-based, in characters) of an offset in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < offset;
    index = text.indexOf('\n', index + 1)
  ) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Byte offset of the first byte that is not valid UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    let size: number;
    let min: number;
    if (lead < 0x80) {
      index++;
      continue;
    }
    if (lead >= 0xc2 && lead <= 0xdf) [size, min] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [size, min] = [3, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [size, min] = [4, 0x10000];
    else return index;
    if (index + size > bytes.length) return index;
    let codePoint = lead & (0xff >> (size + 1));
    for (let k = 1; k < size; k++) {
      const next = bytes[index + k]!;
      if ((next & 0xc0) !== 0x80) return index;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return index;
    index += size;
  }
  return -1;
}

/**
 * The text of a file's bytes, or where it stops being UTF-8 (line and column of the bad byte, counted
 * in characters of the valid text before it). A leading byte order mark is kept as read.
 */
export function decodeUtf8(
  bytes: Uint8Array,
): { text: string } | { line: number; column: number; reason: string } {
  const bad = firstInvalidUtf8(bytes);
  if (bad === -1) return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
  const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, bad));
  const byte = bytes[bad]!.toString(16).padStart(2, '0');
  return { ...lineColumn(before, before.length), reason: `not valid UTF-8 (byte 0x${byte} at byte ${bad})` };
}

/**
 * Where an error thrown by an adapter points, when it says: `line`/`column` fields (XLIFF, MDX and
 * micromark messages), a `place` (vfile messages), `position N` (JSON) or `(line:column)` in the message.
 */
export function positionOfError(error: unknown, text: string): { line: number; column: number } {
  const e = (error ?? {}) as {
    line?: unknown;
    column?: unknown;
    place?: { line?: unknown; column?: unknown; start?: { line?: unknown; column?: unknown } };
    message?: unknown;
  };
  const pick = (line: unknown, column: unknown) =>
    typeof line === 'number' && line > 0
      ? { line, column: typeof column === 'number' && column > 0 ? column : 1 }
      : undefined;
  const found =
    pick(e.line, e.column) ??
    pick(e.place?.line, e.place?.column) ??
    pick(e.place?.start?.line, e.place?.start?.column);
  if (found) return found;
  const message = typeof e.message === 'string' ? e.message : '';
  const at = /\bposition (\d+)\b/.exec(message);
  if (at) return lineColumn(text, Math.min(Number(at[1]), text.length));
  // micromark and MDX name the place they mean in the message: `… for \`<Tabs>\` (5:1-5:7)`.
  const named = /\((\d+):(\d+)(?:-\d+:\d+)?\)/.exec(message);
  if (named) return { line: Number(named[1]), column: Number(named[2]) };
  return { line: 1, column: 1 };
}

/** Prints each failed file on stderr; returns how many there were. */
export function warnFailedFiles(err: (line: string) => void, failed: readonly FileFailure[]): number {
  for (const failure of failed) err(`${formatFileFailure(failure)} (left out)`);
  return failed.length;
}
