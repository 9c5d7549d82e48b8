/** The `lang` (and `dir`) of the output's `<html>` start tag, as edits to the original bytes. */

import type { Edit } from '@glossa/core';
import { isRightToLeft } from '@glossa/protocol';
import type { Element, Root } from 'hast';
import { tagPositions } from './extract.js';

/** Edits that set `<html lang>` to `lang` and `dir` to `rtl` for right-to-left targets; none for a fragment. */
export function langEdits(tree: Root, lang: string): Edit[] {
  const html = tree.children.find(
    (node): node is Element => node.type === 'element' && node.tagName === 'html',
  );
  const tags = html && tagPositions(html);
  if (!html || !tags?.opening) return [];
  const attributes = tags.properties ?? {};
  const rtl = isRightToLeft(lang);
  const wanted: [string, string | undefined][] = [
    ['lang', lang],
    ['dir', rtl ? 'rtl' : html.properties['dir'] === undefined ? undefined : 'ltr'],
  ];
  const edits: Edit[] = [];
  let inserted = '';
  for (const [name, value] of wanted) {
    if (value === undefined) continue;
    const at = attributes[name];
    if (at?.start.offset !== undefined && at.end.offset !== undefined)
      edits.push({ start: at.start.offset, end: at.end.offset, text: `${name}="${value}"` });
    else inserted += ` ${name}="${value}"`;
  }
  const afterName = tags.opening.start.offset! + '<html'.length;
  if (inserted) edits.push({ start: afterName, end: afterName, text: inserted });
  return edits;
}
