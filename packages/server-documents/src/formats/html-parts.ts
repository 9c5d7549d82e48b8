/**
 * An HTML page in parts, so that a large page is translated as many bounded texts rather than one: the parts
 * are runs of block elements (`<p>`, `<div>`, `<li>`, `<table>`…) that HTML tag handling translates as units
 * of their own anyway, cut only where it flushes its inline run, so the page translates to the same output
 * as when sent whole. The page without its parts (the *frame*: doctype, head, the tags around the parts and
 * any text between them) is one more text, with a placeholder block element where each part was.
 *
 * The scan reads the page as `parseMarkup` (in `@glossa/server`) does, with its own tokens, block names, void and
 * raw-text elements, depth limit and unclosed elements, but keeps only the block elements (start and end
 * offsets), not a tree. A part is a run of *closed* blocks of one element (an eligible block, or the page's
 * top level): block-named, not marked `translate="no"`/`notranslate`, closed by its own end tag. A block over
 * the size is cut inside (its blocks become parts, the block's tags and loose text stay in the frame); a
 * block over the size with no block inside is a part of its own (one text, as large as it is). Nothing is cut
 * in a page that reaches the depth limit: it stays one text.
 */

import {
  END_TAG,
  HTML_BLOCKS,
  HTML_RAW_TEXT,
  HTML_VOID,
  MAX_MARKUP_DEPTH,
  markedNoTranslate,
  rawTextEnd,
  SPECIALS,
  START_TAG,
} from '@glossa/server/feature';

/** A closed block element: from its start tag to the end of its end tag, with the closed blocks in it. */
interface Block {
  readonly start: number;
  readonly end: number;
  readonly blocks: readonly Block[];
}

interface Open {
  readonly name: string;
  readonly start: number;
  readonly eligible: boolean;
  readonly blocks: Block[];
}

/** The closed blocks of the page's top level (undefined: the page is not to be cut). */
function scanBlocks(page: string): Block[] | undefined {
  const root: Block[] = [];
  const stack: Open[] = [];
  const blocksHere = () => stack.at(-1)?.blocks ?? root;
  // Unclosed: its start tag stands alone and what it held is its parent's (blocks included).
  const unclose = (entry: Open) => blocksHere().push(...entry.blocks);
  let i = 0;
  outer: while (i < page.length) {
    const lt = page.indexOf('<', i);
    if (lt === -1) break;
    i = lt;
    for (const [pattern] of SPECIALS) {
      pattern.lastIndex = i;
      if (pattern.exec(page)) {
        i = pattern.lastIndex;
        continue outer;
      }
    }
    END_TAG.lastIndex = i;
    const end = END_TAG.exec(page);
    if (end) {
      i = END_TAG.lastIndex;
      const name = end[1]!.toLowerCase();
      const depth = stack.findLastIndex((entry) => entry.name === name);
      if (depth === -1) continue;
      while (stack.length > depth + 1) unclose(stack.pop()!);
      const entry = stack.pop()!;
      if (entry.eligible) blocksHere().push({ start: entry.start, end: i, blocks: entry.blocks });
      continue;
    }
    START_TAG.lastIndex = i;
    const start = START_TAG.exec(page);
    if (start) {
      i = START_TAG.lastIndex;
      const name = start[1]!.toLowerCase();
      if (stack.length >= MAX_MARKUP_DEPTH) return undefined;
      if (start[3] === '/' || HTML_VOID.has(name)) continue;
      if (HTML_RAW_TEXT.has(name)) {
        const closeAt = rawTextEnd(page, name, i);
        const closeEnd = closeAt === -1 ? -1 : page.indexOf('>', closeAt);
        i = closeEnd === -1 ? page.length : closeEnd + 1;
        continue;
      }
      stack.push({
        name,
        start: lt,
        eligible: HTML_BLOCKS.has(name) && !markedNoTranslate(start[0]),
        blocks: [],
      });
      continue;
    }
    i += 1;
  }
  while (stack.length > 0) unclose(stack.pop()!);
  return root;
}

/** A part of the page: `page.slice(start, end)`. */
export interface PageRange {
  readonly start: number;
  readonly end: number;
}

/** Runs of sibling blocks of at most `limit` characters each (a larger block: its blocks, or itself). */
function chooseParts(blocks: readonly Block[], limit: number, parts: PageRange[]): void {
  let run: { start: number; end: number } | undefined;
  const flush = () => {
    if (run) parts.push(run);
    run = undefined;
  };
  for (const block of blocks) {
    if (block.end - block.start > limit) {
      flush();
      if (block.blocks.length > 0) chooseParts(block.blocks, limit, parts);
      else parts.push({ start: block.start, end: block.end });
    } else if (run && block.end - run.start <= limit) run.end = block.end;
    else {
      flush();
      run = { start: block.start, end: block.end };
    }
  }
  flush();
}

/**
 * The parts a page is cut into, in order and disjoint, each a run of whole blocks of at most `limit`
 * characters (or one block larger than that with no block inside); none for a page of at most `limit`
 * characters or one that is not to be cut.
 */
export function pageParts(page: string, limit: number): PageRange[] {
  if (page.length <= limit) return [];
  const blocks = scanBlocks(page);
  if (!blocks) return [];
  const parts: PageRange[] = [];
  chooseParts(blocks, limit, parts);
  return parts;
}
