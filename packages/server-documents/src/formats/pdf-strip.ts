/**
 * Removes the text objects (`BT` … `ET`) from a page content stream, so the translated text drawn in their
 * place is the page's only text. Strings, hex strings, comments and inline images are skipped over, so an
 * operator name inside them is never taken for one.
 */

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)));

const isRegular = (byte: number | undefined) =>
  byte !== undefined && !WHITE.has(byte) && !DELIMITERS.has(byte);

export function stripText(content: Uint8Array): Uint8Array {
  const kept: Uint8Array[] = [];
  let start = 0;
  let textStart = -1;
  let i = 0;
  const n = content.length;
  while (i < n) {
    const byte = content[i]!;
    if (byte === 0x28) {
      // (string) with nested parentheses and backslash escapes
      let depth = 1;
      i++;
      while (i < n && depth > 0) {
        const c = content[i]!;
        if (c === 0x5c) i++;
        else if (c === 0x28) depth++;
        else if (c === 0x29) depth--;
        i++;
      }
    } else if (byte === 0x25) {
      while (i < n && content[i] !== 0x0a && content[i] !== 0x0d) i++;
    } else if (isRegular(byte)) {
      let end = i;
      while (end < n && isRegular(content[end])) end++;
      const word = String.fromCharCode(...content.subarray(i, Math.min(end, i + 3)));
      const length = end - i;
      if (length === 2 && word === 'BT' && textStart < 0) textStart = i;
      else if (length === 2 && word === 'ET' && textStart >= 0) {
        kept.push(content.subarray(start, textStart));
        start = end;
        textStart = -1;
      } else if (length === 2 && word === 'ID') {
        // inline image data: up to the whitespace-delimited EI
        end += 1;
        while (
          end < n - 1 &&
          !(
            WHITE.has(content[end - 1]!) &&
            content[end] === 0x45 &&
            content[end + 1] === 0x49 &&
            !isRegular(content[end + 2])
          )
        )
          end++;
        end += 2;
      }
      i = end;
    } else i++;
  }
  kept.push(content.subarray(start, textStart >= 0 ? textStart : n));
  const out = new Uint8Array(kept.reduce((sum, part) => sum + part.length + 1, 0));
  let at = 0;
  for (const part of kept) {
    out.set(part, at);
    out[at + part.length] = 0x0a;
    at += part.length + 1;
  }
  return out;
}
