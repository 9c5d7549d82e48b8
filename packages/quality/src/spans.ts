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
