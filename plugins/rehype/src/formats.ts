/** How translated text is written back into HTML: element text and attribute values. */
import type { SpanFormat } from '@glossa/core';

export const htmlText: SpanFormat = {
  encode: (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
};

/** An attribute value; `quote` is the original quote character, or `''` for an unquoted value. */
export function attributeValue(quote: string): SpanFormat {
  const encode = (text: string) =>
    text.replace(/&/g, '&amp;').replace(quote === "'" ? /'/g : /"/g, quote === "'" ? '&#39;' : '&quot;');
  return quote === '' ? { encode, frame: (rendered) => `"${rendered}"` } : { encode };
}
