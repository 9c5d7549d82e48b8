/**
 * Links follow their words: a link annotation over a run in a style of its own (link text in blue, say)
 * inside a translated block is moved onto where that style's text was drawn in the translation. A link
 * over text in the block's main style, over turned text, or over several blocks or styles keeps its area.
 */
import { PDFArray, PDFDict, type PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import type { PdfBlock } from './pdf-blocks.js';
import type { PdfStyle } from './pdf-styles.js';
import type { PdfLink } from './pdf-text.js';

export interface LinkTarget {
  readonly link: PdfLink;
  readonly block: number;
  readonly style: number;
}

/** The block and style each link covers, for links over one run style of one block, not its main style. */
export function linkTargets(
  links: readonly PdfLink[],
  blocks: readonly PdfBlock[],
  mainStyleOf: (block: number) => number | undefined,
): LinkTarget[] {
  const targets: LinkTarget[] = [];
  for (const link of links) {
    const [ax = 0, ay = 0, bx = 0, by = 0] = link.rect;
    const [x1, y1, x2, y2] = [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)];
    const hits = new Set<string>();
    blocks.forEach((block, index) => {
      if (block.page !== link.page || block.angle !== 0) return;
      for (const span of block.spans) {
        const overlap = Math.min(span.right, x2) - Math.max(span.x, x1);
        const level = span.y >= y1 - span.size * 0.5 && span.y <= y2;
        if (level && overlap > (span.right - span.x) * 0.5) hits.add(`${index}:${span.style}`);
      }
    });
    if (hits.size !== 1) continue;
    const [block, style] = [...hits][0]!.split(':').map(Number) as [number, number];
    if (style !== mainStyleOf(block)) targets.push({ link, block, style });
  }
  return targets;
}

/** The boxes drawn for each block and style, collected while drawing. */
export class DrawnRuns {
  private readonly boxes = new Map<number, { style: PdfStyle; box: number[] }[]>();

  add(block: number, style: PdfStyle, x: number, y: number, width: number, size: number): void {
    const list = this.boxes.get(block) ?? [];
    list.push({ style, box: [x, y - size * 0.25, x + width, y + size * 0.9] });
    this.boxes.set(block, list);
  }

  /** The union of the boxes drawn in a style in a block, or undefined when none was. */
  union(block: number, style: PdfStyle): number[] | undefined {
    const boxes = (this.boxes.get(block) ?? []).filter((entry) => entry.style === style).map((e) => e.box);
    if (boxes.length === 0) return undefined;
    return [0, 1, 2, 3].map((k) => (k < 2 ? Math.min : Math.max)(...boxes.map((box) => box[k]!)));
  }
}

/** Sets each target link's area (and its quadrilaterals, when it has some) to where its words were drawn. */
export function moveLinks(
  document: PDFDocument,
  targets: readonly LinkTarget[],
  drawn: DrawnRuns,
  styles: readonly PdfStyle[],
): void {
  for (const { link, block, style } of targets) {
    const box = drawn.union(block, styles[style]!);
    const dict = document.context.lookup(PDFRef.of(link.ref.num, link.ref.gen));
    if (!box || !(dict instanceof PDFDict)) continue;
    const [x1, y1, x2, y2] = box as [number, number, number, number];
    dict.set(PDFName.of('Rect'), document.context.obj([x1, y1, x2, y2]));
    if (dict.lookup(PDFName.of('QuadPoints')) instanceof PDFArray)
      dict.set(PDFName.of('QuadPoints'), document.context.obj([x1, y2, x2, y2, x1, y1, x2, y1]));
  }
}
