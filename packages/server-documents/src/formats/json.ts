/**
 * JSON: every string value with a letter is translated (placeholders kept as codes); keys, numbers,
 * booleans and the structure are untouched. The output keeps the file's indentation.
 */
import { type DocumentFormat, DocumentFormatError, decodeText, encodeText } from './format.js';
import { type ProtectedText, protectPlaceholders, restorePlaceholders } from './placeholders.js';

/** Deeper documents are refused (400), so the walk cannot exhaust the stack. */
export const MAX_JSON_DEPTH = 200;

export const jsonFormat: DocumentFormat = {
  name: 'JSON',
  maxBytes: 2 * 1024 * 1024,
  contentType: 'application/json; charset=utf-8',
  minimumBilled: 0,
  extract(bytes) {
    const { text, bom } = decodeText(bytes, 'JSON');
    let root: unknown;
    try {
      root = JSON.parse(text);
    } catch (error) {
      throw new DocumentFormatError(`The JSON document is not valid: ${(error as Error).message}`);
    }
    const strings: {
      holder: Record<string, unknown> | unknown[];
      key: string | number;
      text: ProtectedText;
    }[] = [];
    const walk = (value: unknown, depth: number) => {
      if (depth > MAX_JSON_DEPTH)
        throw new DocumentFormatError(`The JSON document is nested deeper than ${MAX_JSON_DEPTH} levels.`);
      if (value === null || typeof value !== 'object') return;
      const holder = value as Record<string, unknown> | unknown[];
      for (const [key, child] of Object.entries(holder)) {
        const slot = Array.isArray(holder) ? Number(key) : key;
        if (typeof child === 'string' && /\p{L}/u.test(child))
          strings.push({ holder, key: slot, text: protectPlaceholders(child) });
        else walk(child, depth + 1);
      }
    };
    walk(root, 0);
    const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? (text.includes('\n') ? 2 : 0);
    const finalNewline = text.endsWith('\n') ? '\n' : '';
    return {
      texts: strings.map((entry) => ({ text: entry.text.form, mode: entry.text.markup ? 'xml' : 'plain' })),
      rebuild(outputs) {
        strings.forEach((entry, index) => {
          const output = outputs[index];
          if (output !== undefined)
            (entry.holder as Record<string | number, unknown>)[entry.key] = restorePlaceholders(
              output,
              entry.text,
            );
        });
        return encodeText(JSON.stringify(root, null, indent) + finalNewline, bom);
      },
    };
  },
};
