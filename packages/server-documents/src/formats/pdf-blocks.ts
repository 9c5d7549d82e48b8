/**
 * A page's lines grouped into blocks: a line close below the previous one (at most 1.7 × its size) of
 * about the same size and angle joins its block, unless the two lines are each in one style and differ in
 * family or weight, or the first ends early though the next line's first word would have fitted after it.
 * A block keeps its text in runs of one style each, and its alignment: justified (three lines or more, all
 * but the last reaching the same right edge), or the lines' left
 * edges, right edges or centres that agree; a single line centred on the page and off the left margin is
 * centred.
 */
import type { PdfStyles } from './pdf-styles.js';

/** A stretch of a block's text in one style (an index into the document's styles). */
export interface PdfRun {
  readonly text: string;
  readonly style: number;
}

export interface PdfBlock {
  readonly page: number;
  /** Left edge and the baseline of the first line. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  /** From the top of the first line to the bottom of the last. */
  readonly top: number;
  readonly bottom: number;
  /** Font size of the first line. */
  readonly size: number;
  /**
   * The text's direction, radians counterclockwise from the page's x axis (0 for most text); `x`, `y`,
   * `width`, `top` and `bottom` are then in the block's own frame: the page turned by `-angle`.
   */
  readonly angle: number;
  readonly lines: number;
  readonly text: string;
  /** The text in runs of one style each (their texts joined are `text`). */
  readonly runs: readonly PdfRun[];
  /** How the lines sit in the block (drawn the same way). */
  readonly align: 'left' | 'right' | 'center' | 'justify';
  /** The right edge its translation must not pass (the next table cell on its line). */
  readonly limit?: number;
  /**
   * A list item's marker (`•`, `▪`, `1.`, `a)` …) set apart from its text by a tab: drawn where it was, at
   * `x`; `text` and `runs` leave it out, and the block's `x` is where the item's text starts (its hanging
   * indent: wrapped lines start there too).
   */
  readonly marker?: ListMarker;
  /** The original text items: extent, baseline, size and style (to find what a link covered). */
  readonly spans: readonly (Span & { readonly y: number; readonly size: number })[];
}

export interface ListMarker {
  readonly text: string;
  readonly style: number;
  readonly x: number;
}

/** What can mark a list item: one symbol or dash, or a short number or letter with `.` or `)`. */
const LIST_MARKER =
  /^(?:[\p{S}\p{Pd}\u2022\u2023\u2043\u00b7\u25aa-\u25ff]|\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})(?:\.\d{1,3})*[.)])$/u;

/** Whether a line's first text is a list marker. */
export const isListMarker = (text: string) => LIST_MARKER.test(text);

/** A line of text, in the frame of its angle. */
export interface Line {
  angle: number;
  x: number;
  y: number;
  right: number;
  size: number;
  text: string;
  styles: number[];
  /** Where each text item of the line lies, with the style it starts in. */
  spans: Span[];
  /** A table cell (or a column of a tab-separated line): a wide gap parts it from text on its line. */
  cell?: boolean;
  /** How far right its translation may run (the next cell on its line starts there). */
  limit?: number;
  /** A list marker set apart by a tab from the text after it, which starts at `textX`. */
  marker?: { text: string; style: number; textX: number };
}

/** A text item's extent on its line (`x` to `right`), and its style. */
export interface Span {
  readonly x: number;
  readonly right: number;
  readonly style: number;
}

/** The one style of a line's text, or undefined when it mixes styles. */
function uniformStyle(line: Line): number | undefined {
  const styles = new Set(line.styles.filter((_, i) => !/\s/.test(line.text[i]!)));
  return styles.size === 1 ? [...styles][0] : undefined;
}

export interface PageInfo {
  readonly page: number;
  /** The page's horizontal centre. */
  readonly center: number;
  readonly styles: PdfStyles;
}

function alignmentOf(group: readonly Line[], leftMargin: number, pageCenter: number): PdfBlock['align'] {
  const size = group[0]!.size;
  const agree = (values: number[]) => Math.max(...values) - Math.min(...values) <= size * 0.5;
  if (group.length > 1) {
    // Justified: three lines or more, all but the last reaching the same right edge.
    const full = group.slice(0, -1);
    const flush = agree(group.map((line) => line.x));
    if (
      flush &&
      full.length >= 2 &&
      agree(full.map((line) => line.right)) &&
      group.at(-1)!.right <= full[0]!.right + size * 0.5
    )
      return 'justify';
    if (flush) return 'left';
    if (agree(group.map((line) => line.right))) return 'right';
    if (agree(group.map((line) => (line.x + line.right) / 2))) return 'center';
    return 'left';
  }
  const line = group[0]!;
  const centred = Math.abs((line.x + line.right) / 2 - pageCenter) <= size && line.x > leftMargin + 2 * size;
  return line.angle === 0 && centred ? 'center' : 'left';
}

export function groupLines(lines: readonly Line[], { page, center, styles }: PageInfo): PdfBlock[] {
  const groups: Line[][] = [];
  // Two lines each in one style, of another family or weight (a bold heading over body text, a line of
  // code after a paragraph), are different blocks even when close.
  const restyled = (a: Line, b: Line) => {
    const [first, second] = [uniformStyle(a), uniformStyle(b)].map((i) =>
      i === undefined ? undefined : styles.list[i],
    );
    return (
      first !== undefined &&
      second !== undefined &&
      (first.family !== second.family || first.bold !== second.bold)
    );
  };
  // A line that ends early although the next line's first word would have fitted after it ends its
  // paragraph (a hard break): the column's right edge is the farthest right edge of the page's lines that
  // start where it starts, at about its size.
  const columnRight = (line: Line) =>
    Math.max(
      ...lines
        .filter(
          (other) =>
            other.angle === line.angle &&
            Math.abs(other.x - line.x) <= line.size * 2 &&
            Math.abs(other.size - line.size) < line.size * 0.2,
        )
        .map((other) => other.right),
    );
  const endsParagraph = (last: Line, next: Line) => {
    const charWidth = (last.right - last.x) / Math.max(last.text.trim().length, 1);
    const firstWord = /^\s*(\S+)/.exec(next.text)?.[1] ?? '';
    return columnRight(last) - last.right > (firstWord.length + 1) * charWidth + last.size * 0.5;
  };
  for (const line of lines) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    const below = last && last.y - line.y > 0 && last.y - line.y <= last.size * 1.7;
    const alike = last && last.angle === line.angle && Math.abs(last.size - line.size) < last.size * 0.2;
    // A table cell (a block with one) joins only the line right below it in its column (its text wrapped
    // in the cell), at the spacing of a paragraph's lines: the next row's cell lies farther down, past the
    // cell's padding, and the text after the table starts elsewhere.
    const cellsApart =
      last !== undefined &&
      (group!.some((member) => member.cell === true) || line.cell === true) &&
      !(last.y - line.y <= last.size * 1.35 && Math.abs(last.x - line.x) <= last.size * 0.5);
    // A list item's first line (its marker) starts a block of its own.
    if (
      group &&
      below &&
      alike &&
      !cellsApart &&
      line.marker === undefined &&
      !restyled(last, line) &&
      !endsParagraph(last, line)
    )
      group.push(line);
    else groups.push([line]);
  }
  const leftMargin = Math.min(...lines.filter((line) => line.angle === 0).map((line) => line.x));
  return groups.map((group) => {
    const first = group[0]!;
    const last = group.at(-1)!;
    const marker = first.marker;
    // The text of a list item starts after its marker: where its lines start (its hanging indent).
    const lefts = group.map((line) => (line === first && marker ? marker.textX : line.x));
    const x = Math.min(...lefts);
    let text = '';
    let styles: number[] = [];
    for (const line of group) {
      let start = line.text.length - line.text.trimStart().length;
      if (line === first && marker) {
        start += marker.text.length;
        while (start < line.text.length && /\s/.test(line.text[start]!)) start++;
      }
      const words = line.text.slice(start).trimEnd();
      const wordStyles = line.styles.slice(start, start + words.length);
      if (text === '') [text, styles] = [words, wordStyles];
      else if (/\p{L}-$/u.test(text)) {
        text = `${text.slice(0, -1)}${words}`;
        styles = [...styles.slice(0, -1), ...wordStyles];
      } else {
        text = `${text} ${words}`;
        styles = [...styles, styles.at(-1)!, ...wordStyles];
      }
    }
    return {
      page,
      x,
      y: first.y,
      width: Math.max(...group.map((line) => line.right)) - x,
      ...(marker ? { marker: { text: marker.text, style: marker.style, x: first.x } } : {}),
      top: first.y + first.size,
      bottom: last.y - last.size * 0.25,
      size: first.size,
      angle: first.angle,
      lines: group.length,
      text,
      runs: runsOf(text, styles),
      align: alignmentOf(
        group.map((line, i) => (lefts[i] === line.x ? line : { ...line, x: lefts[i]! })),
        leftMargin,
        center,
      ),
      spans: group.flatMap((line) => line.spans.map((span) => ({ ...span, y: line.y, size: line.size }))),
      ...(group.some((line) => line.limit !== undefined)
        ? { limit: Math.min(...group.map((line) => line.limit ?? Number.POSITIVE_INFINITY)) }
        : {}),
    };
  });
}

function runsOf(text: string, styles: readonly number[]): PdfRun[] {
  const runs: PdfRun[] = [];
  let start = 0;
  for (let at = 1; at <= text.length; at++) {
    if (at < text.length && styles[at] === styles[start]) continue;
    runs.push({ text: text.slice(start, at), style: styles[start] ?? 0 });
    start = at;
  }
  return runs;
}
