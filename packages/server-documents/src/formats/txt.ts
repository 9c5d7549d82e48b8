/** Plain text: the whole file is one text, split into sentences and lines by the translation pipeline. */
import { type DocumentFormat, decodeText, encodeText } from './format.js';

export const txtFormat: DocumentFormat = {
  name: 'TXT',
  maxBytes: 1024 * 1024,
  contentType: 'text/plain; charset=utf-8',
  minimumBilled: 0,
  extract(bytes) {
    const { text, bom } = decodeText(bytes, 'TXT');
    return {
      texts: /\p{L}/u.test(text) ? [{ text, mode: 'plain' }] : [],
      rebuild: (outputs) => encodeText(outputs[0] ?? text, bom),
    };
  },
};
