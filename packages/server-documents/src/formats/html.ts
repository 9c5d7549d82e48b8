/**
 * HTML: the whole page is translated with HTML tag handling: block elements split it into units, inline
 * markup travels as codes, `script`, `style` and `template` are kept byte for byte, attributes untouched.
 */
import { type DocumentFormat, decodeText, encodeText } from './format.js';

export const htmlFormat: DocumentFormat = {
  name: 'HTML',
  maxBytes: 5 * 1024 * 1024,
  contentType: 'text/html; charset=utf-8',
  minimumBilled: 0,
  extract(bytes) {
    const { text, bom } = decodeText(bytes, 'HTML');
    return {
      texts: /\p{L}/u.test(text) ? [{ text, mode: 'html' }] : [],
      rebuild: (outputs) => encodeText(outputs[0] ?? text, bom),
    };
  },
};
