/**
 * Placeholders in plain strings (`{{name}}`, `{count}`, `%s`, `%1$d`) become standalone codes, so the
 * engine never sees or changes them.
 */
import { escapeXml, parseInline } from './inline.js';

const PLACEHOLDER = /\{\{[^{}]{1,100}\}\}|\{[A-Za-z0-9_.,: ]{1,100}\}|%(?:\d+\$)?[sdif@]/g;

export interface ProtectedText {
  /** The text in code form. */
  readonly form: string;
  readonly placeholders: readonly string[];
  /** `true` when the text held placeholders (translate as markup). */
  readonly markup: boolean;
}

export function protectPlaceholders(text: string): ProtectedText {
  const placeholders: string[] = [];
  let form = '';
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    form += escapeXml(text.slice(last, match.index));
    placeholders.push(match[0]);
    form += `<x id="${placeholders.length}"/>`;
    last = match.index + match[0].length;
  }
  form += escapeXml(text.slice(last));
  return placeholders.length === 0
    ? { form: text, placeholders, markup: false }
    : { form, placeholders, markup: true };
}

/** The plain string of a translated text: codes back to their placeholders. */
export function restorePlaceholders(output: string, text: ProtectedText): string {
  if (!text.markup) return output;
  return parseInline(output)
    .map((piece) =>
      piece.kind === 'text'
        ? piece.text
        : piece.kind === 'standalone'
          ? (text.placeholders[piece.id - 1] ?? '')
          : '',
    )
    .join('');
}
