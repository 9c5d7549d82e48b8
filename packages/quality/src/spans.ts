/** A span in UTF-16 code units of a JavaScript string, end exclusive. */
export interface Utf16Span {
  readonly start: number;
  readonly end: number;
}

/** Converts a UTF-16 offset of `text` to a code-point offset. */
export function codePointOffset(text: string, utf16Offset: number): number {
  let count = 0;
  for (let index = 0; index < utf16Offset && index < text.length; index++) {
    const code = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point: count it once.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

/** Number of code points in `text`. */
export function codePointLength(text: string): number {
  return codePointOffset(text, text.length);
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * A converter of UTF-16 offsets of `text` to code-point offsets, built once (linear) so that each lookup
 * costs O(1): a segment with thousands of issues does not count from its start for each.
 */
export function codePointOffsets(text: string): (utf16Offset: number) => number {
  if (!SURROGATE.test(text)) return (offset) => Math.max(0, Math.min(offset, text.length));
  const table = new Int32Array(text.length + 1);
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    table[index] = count;
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // An offset inside the pair counts as after it, as `codePointOffset` does.
        table[++index] = count + 1;
      }
    }
    count++;
  }
  table[text.length] = count;
  return (offset) => table[Math.max(0, Math.min(offset, text.length))]!;
}
