/**
 * The engine's code form and back: `<g id="N">…</g>` stands for the caller's paired markup and
 * `<x id="N"/>` for a standalone part, whose original bytes are kept in a `CodeTable`.
 */
import { decodeEntities, escapeText } from './markup-parse.js';

export type Code =
  | { readonly kind: 'g'; readonly open: string; readonly close: string }
  | { readonly kind: 'x'; readonly text: string };
export type CodeTable = Map<number, Code>;

const CODE = /<g id="(\d+)">|<\/g>|<x id="(\d+)"\/>/g;

/** The code ids a code-form string holds, in order. */
export function codeIds(unit: string): number[] {
  const ids: number[] = [];
  for (const match of unit.matchAll(CODE)) {
    const id = match[1] ?? match[2];
    if (id !== undefined) ids.push(Number(id));
  }
  return ids;
}

/**
 * The caller's markup from an engine output in code form. Codes of `expected` the engine lost are appended
 * at the end (paired ones empty) and duplicates or unknown ids dropped, so the markup stays whole and
 * well-nested whatever the engine did.
 */
export function restoreCodes(output: string, codes: CodeTable, expected: readonly number[]): string {
  const allowed = new Set(expected);
  const used = new Set<number>();
  const open: (Code | undefined)[] = [];
  let result = '';
  let last = 0;
  for (const match of output.matchAll(CODE)) {
    result += escapeText(decodeEntities(output.slice(last, match.index)));
    last = match.index + match[0].length;
    const id = Number(match[1] ?? match[2]);
    const code = allowed.has(id) && !used.has(id) ? codes.get(id) : undefined;
    if (match[0] === '</g>') {
      const closing = open.pop();
      if (closing?.kind === 'g') result += closing.close;
      continue;
    }
    if (code) used.add(id);
    if (match[1] !== undefined) {
      const paired = code?.kind === 'g' ? code : undefined;
      if (paired) result += paired.open;
      open.push(paired);
    } else if (code?.kind === 'x') result += code.text;
  }
  result += escapeText(decodeEntities(output.slice(last)));
  while (open.length > 0) {
    const closing = open.pop();
    if (closing?.kind === 'g') result += closing.close;
  }
  for (const id of expected) {
    const code = codes.get(id);
    if (used.has(id) || !code) continue;
    result += code.kind === 'g' ? code.open + code.close : code.text;
  }
  return result;
}
