/**
 * Human edits harvested from the lock, written as a TMX 1.4 memory (to import with `syncMemory`).
 * Inline codes become TMX inline elements carrying the code: `<g>` as `<bpt>`/`<ept>`, `<x/>` as `<ph>`.
 */
import { type InlineToken, parseInline } from '../codes/inline.js';

export interface TranslationUnit {
  readonly source: string;
  readonly target: string;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function segContent(source: string): string {
  const open: string[] = [];
  return parseInline(source)
    .map((t: InlineToken) => {
      if (t.type === 'text') return escapeXml(t.text);
      if (t.type === 'x') return `<ph x="${escapeXml(t.id)}">${escapeXml(`<x id="${t.id}"/>`)}</ph>`;
      if (t.type === 'open') {
        open.push(t.id);
        return `<bpt i="${escapeXml(t.id)}">${escapeXml(`<g id="${t.id}">`)}</bpt>`;
      }
      return `<ept i="${escapeXml(open.pop()!)}">${escapeXml('</g>')}</ept>`;
    })
    .join('');
}

/** A TMX 1.4 document holding `units` (segment form, with codes), one `<tu>` each, in order. */
export function writeTmx(
  units: readonly TranslationUnit[],
  langs: { sourceLang: string; targetLang: string },
): string {
  const src = escapeXml(langs.sourceLang);
  const tgt = escapeXml(langs.targetLang);
  const body = units.map(
    (u) =>
      `    <tu>\n      <tuv xml:lang="${src}"><seg>${segContent(u.source)}</seg></tuv>\n` +
      `      <tuv xml:lang="${tgt}"><seg>${segContent(u.target)}</seg></tuv>\n    </tu>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    `  <header creationtool="glossa" creationtoolversion="1" segtype="sentence" o-tmf="glossa" adminlang="en" srclang="${src}" datatype="xml"/>`,
    '  <body>',
    ...body,
    '  </body>',
    '</tmx>',
    '',
  ].join('\n');
}
