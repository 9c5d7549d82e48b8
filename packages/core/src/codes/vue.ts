/**
 * vue-i18n messages: placeholders (`{name}`, `{0}`, literals `{'@'}`), linked messages (`@:key`,
 * `@.lower:key`, `@:{'key'}`) and HTML tags become codes; the `|` plural choices become segments of their
 * own (key `<key>/|<n>`), so each choice is translated as a message and the separators cannot move.
 */
import type { CodeMap } from '../segment.js';
import { extractChoices } from './choices.js';
import { decodeWithCodes, encodeWithCodes } from './encode.js';
import type { CodeFinder, FoundCode } from './finders.js';
import { tagCodes } from './finders.js';
import type { IcuExtraction } from './icu.js';

const VUE_CODES = /\{[^{}]*\}|@(?:\.\w+)?:(?:\{'[^']*'\}|\([\w.-]+\)|[\w.-]*\w)/g;

/** vue-i18n placeholders, linked messages and tags as codes. */
export const vueCodes: CodeFinder = (text) => {
  const found: FoundCode[] = [];
  for (const m of text.matchAll(VUE_CODES))
    found.push({ start: m.index, end: m.index + m[0].length, role: 'x' });
  return [...found, ...tagCodes(text)];
};

/** Top-level `|` positions (outside placeholders). */
function choices(message: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < message.length; i++) {
    const c = message[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === '|' && depth === 0) {
      parts.push(message.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(message.slice(from));
  return parts;
}

/** Text a translation put in a message, with vue-i18n's special characters as literals (`{'@'}`). */
function escapeVueText(text: string): string {
  return text.replace(/[{}@|]/g, (c) => `{'${c}'}`);
}

/** Splits a vue-i18n message into its plural choices, each a segment with its codes. */
export function extractVue(message: string, key: string): IcuExtraction {
  return extractChoices(
    choices(message),
    key,
    (body) => {
      const encoded = encodeWithCodes(body, vueCodes);
      const words = /[\p{L}\p{N}]/u.test(body.replace(VUE_CODES, ''));
      return { source: encoded.source, codes: encoded.codes, words };
    },
    decodeEscaped,
  );
}

/** Decodes a target, escaping the translated text (not the codes) for vue-i18n. */
function decodeEscaped(target: string, codes: CodeMap): string {
  const marked: Record<string, { kind: 'g' | 'x'; open?: string; close?: string; text?: string }> = {};
  const originals: string[] = [];
  const mark = (raw: string | undefined) => {
    if (raw === undefined) return undefined;
    originals.push(raw);
    return `\u0000${originals.length - 1}\u0000`;
  };
  for (const [id, code] of Object.entries(codes)) {
    const open = mark(code.open);
    const close = mark(code.close);
    const text = mark(code.text);
    marked[id] = {
      kind: code.kind,
      ...(open !== undefined && { open }),
      ...(close !== undefined && { close }),
      ...(text !== undefined && { text }),
    };
  }
  const decoded = decodeWithCodes(target, marked);
  return decoded
    .split(/\u0000(\d+)\u0000/)
    .map((piece, i) => (i % 2 === 1 ? originals[Number(piece)]! : escapeVueText(piece)))
    .join('');
}
