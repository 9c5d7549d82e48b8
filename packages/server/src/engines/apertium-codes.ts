/**
 * Puts inline codes back into a translation. Apertium returns each translated word with the indices of
 * the `<g>` codes its source word was in (word-bound blanks) and each `<x/>` where its superblank went.
 * A `<g>` is placed around the first through the last unit that carries it. Every code comes back exactly
 * once and properly nested: a `<g>` is kept inside its parent's span; one that would cross a sibling is
 * shrunk to its own side; one whose words all disappeared (merged into another word) comes back empty,
 * just inside its parent or at the end; a lost `<x/>` is appended at the end.
 */

/** An inline code of a segment sent to Apertium, or a literal protected from it. */
export type Code =
  | { readonly kind: 'g'; readonly open: string; readonly parent: number | undefined; readonly depth: number }
  | { readonly kind: 'x'; readonly text: string }
  | { readonly kind: 'literal'; readonly text: string };

/** A run of translated text (with the `<g>` indices of its word-bound blank) or a placed `<x/>` code. */
export type Unit = { readonly text: string; readonly ids: readonly number[] } | { readonly code: number };

interface Span {
  start: number;
  end: number;
}

const crosses = (a: Span, b: Span) =>
  (a.start < b.start && a.end >= b.start && a.end < b.end) ||
  (b.start < a.start && b.end >= a.start && b.end < a.end);

function isAncestor(codes: readonly Code[], ancestor: number, of: number): boolean {
  for (let at = gParent(codes, of); at !== undefined; at = gParent(codes, at))
    if (at === ancestor) return true;
  return false;
}

function gParent(codes: readonly Code[], index: number): number | undefined {
  const code = codes[index];
  return code?.kind === 'g' ? code.parent : undefined;
}

/** Narrows a span to start and end on units that carry the code (not on whitespace next to another code). */
function onCarrying(span: Span, carrying: readonly number[]): void {
  span.start = carrying.find((at) => at >= span.start) ?? span.end + 1;
  span.end = carrying.findLast((at) => at <= span.end) ?? span.start - 1;
}

/** Chooses a span for each `<g>`, or none (comes back empty), so that no two spans cross. */
function chooseSpans(units: readonly Unit[], codes: readonly Code[]): Map<number, Span> {
  const spans = new Map<number, Span>();
  codes.forEach((code, index) => {
    if (code.kind !== 'g') return;
    const carrying = units.flatMap((unit, at) => ('ids' in unit && unit.ids.includes(index) ? [at] : []));
    if (carrying.length === 0) return;
    const span = { start: carrying[0]!, end: carrying.at(-1)! };
    if (code.parent !== undefined) {
      const parent = spans.get(code.parent);
      if (!parent) return;
      span.start = Math.max(span.start, parent.start);
      span.end = Math.min(span.end, parent.end);
      onCarrying(span, carrying);
    }
    for (let pass = 0; pass <= spans.size && span.start <= span.end; pass++) {
      let moved = false;
      for (const [other, placed] of spans) {
        if (isAncestor(codes, other, index) || !crosses(span, placed)) continue;
        if (span.start < placed.start) span.end = placed.start - 1;
        else span.start = placed.end + 1;
        moved = true;
        onCarrying(span, carrying);
        if (span.start > span.end) break;
      }
      if (!moved) break;
    }
    if (span.start <= span.end) spans.set(index, span);
  });
  return spans;
}

export function placeCodes(units: readonly Unit[], codes: readonly Code[]): string {
  const spans = chooseSpans(units, codes);
  const depth = (index: number) => {
    const code = codes[index];
    return code?.kind === 'g' ? code.depth : 0;
  };
  const opening = [...spans.entries()].sort(
    ([a, sa], [b, sb]) => sa.start - sb.start || sb.end - sa.end || depth(a) - depth(b) || a - b,
  );
  const emptyChildren = (parent: number | undefined): string =>
    codes
      .map((code, index) => ({ code, index }))
      .filter(({ code, index }) => code.kind === 'g' && code.parent === parent && !spans.has(index))
      .map(({ code, index }) => (code.kind === 'g' ? code.open + emptyChildren(index) + '</g>' : ''))
      .join('');

  const placedX = new Set<number>();
  const open: number[] = [];
  let out = '';
  units.forEach((unit, at) => {
    for (const [index, span] of opening) {
      if (span.start !== at) continue;
      const code = codes[index];
      out += (code?.kind === 'g' ? code.open : '') + emptyChildren(index);
      open.push(index);
    }
    if ('code' in unit) {
      const code = codes[unit.code];
      if (code?.kind === 'x' && !placedX.has(unit.code)) out += code.text;
      placedX.add(unit.code);
    } else out += unit.text;
    while (open.length > 0 && spans.get(open.at(-1)!)!.end === at) {
      open.pop();
      out += '</g>';
    }
  });
  out = out.trimEnd();
  out += emptyChildren(undefined);
  codes.forEach((code, index) => {
    if (code.kind === 'x' && !placedX.has(index)) out += code.text;
  });
  return out;
}
