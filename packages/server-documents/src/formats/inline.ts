/** Reading a translated text in code form back into pieces: text, paired codes and standalone codes. */
import { decodeEntities } from '@glossa/server/feature';

export type InlinePiece =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'open'; readonly id: number }
  | { readonly kind: 'close' }
  | { readonly kind: 'standalone'; readonly id: number };

const TOKEN = /<g id="(\d+)">|<\/g>|<x id="(\d+)"\/>/g;

/** The pieces of a code-form string, text decoded (`&lt;` → `<`). */
export function parseInline(form: string): InlinePiece[] {
  const pieces: InlinePiece[] = [];
  let last = 0;
  const text = (raw: string) => {
    if (raw !== '') pieces.push({ kind: 'text', text: decodeEntities(raw) });
  };
  for (const match of form.matchAll(TOKEN)) {
    text(form.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[1] !== undefined) pieces.push({ kind: 'open', id: Number(match[1]) });
    else if (match[2] !== undefined) pieces.push({ kind: 'standalone', id: Number(match[2]) });
    else pieces.push({ kind: 'close' });
  }
  text(form.slice(last));
  return pieces;
}

/** The text of a code-form string without its codes. */
export function plainOf(form: string): string {
  return parseInline(form)
    .map((piece) => (piece.kind === 'text' ? piece.text : ''))
    .join('');
}

/** Escapes text for code form and for XML content. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes text for an XML attribute value in double quotes. */
export function escapeAttribute(text: string): string {
  return escapeXml(text).replace(/"/g, '&quot;');
}
