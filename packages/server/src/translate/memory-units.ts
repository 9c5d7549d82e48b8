/**
 * A translation memory applied to one unit of /v2/translate, and where that unit is in the request's
 * text (for `translation_memory_matches`). Units come plain or, with `tag_handling`, in the engine's code
 * form (`<g id="N">…</g>`, `<x id="N"/>`, text escaped).
 */
import type { MemoryStore } from '../memories/store.js';
import { decodeEntities, escapeText } from './markup-parse.js';

/**
 * The memory's answer for a unit, its target in the unit's own form: plain, escaped text for a markup unit
 * without codes, or code form with the unit's code ids for one with codes.
 */
export async function memoryAnswer(
  memories: MemoryStore,
  memoryId: string,
  unit: string,
  markup: boolean,
  language: string,
  threshold: number,
): Promise<{ segmentId: number; score: number; target: string; source?: string } | undefined> {
  if (!markup) return memories.lookup(memoryId, unit, language, threshold);
  // In code form a `<` is always a code: text carries `&lt;`.
  if (unit.includes('<')) return memories.lookupTagged(memoryId, unit, language, threshold);
  const match = await memories.lookup(memoryId, decodeEntities(unit), language, threshold);
  return match && { ...match, target: escapeText(match.target) };
}

const CODE_SPLIT = /(<g id="\d+">|<\/g>|<x id="\d+"\/>)/;

/**
 * The UTF-16 range `[start, end)` of `unit` in `text`, searched from `from`, or undefined. A unit in
 * code form is found by its text pieces in order (as escaped in the unit, else as decoded), widened over
 * the tags right before and after it for its leading and trailing codes.
 */
export function locateUnit(text: string, unit: string, from: number): [number, number] | undefined {
  const direct = text.indexOf(unit, from);
  if (direct >= 0) return [direct, direct + unit.length];
  if (!unit.includes('<')) return undefined;
  const parts = unit.split(CODE_SPLIT);
  let start: number | undefined;
  let end = from;
  let leading = 0;
  let trailing = 0;
  parts.forEach((part, index) => {
    if (index % 2 === 1) {
      if (start === undefined) leading++;
      else trailing++;
      return;
    }
    if (part === '' || end < 0) return;
    let at = text.indexOf(part, end);
    let length = part.length;
    if (at < 0) {
      const decoded = decodeEntities(part);
      at = text.indexOf(decoded, end);
      length = decoded.length;
    }
    if (at < 0) {
      end = -1;
      return;
    }
    start ??= at;
    end = at + length;
    trailing = 0;
  });
  if (start === undefined || end < 0) return undefined;
  for (; leading > 0 && text[start - 1] === '>'; leading--) {
    const open = text.lastIndexOf('<', start - 1);
    if (open < from) break;
    start = open;
  }
  for (; trailing > 0 && text[end] === '<'; trailing--) {
    const close = text.indexOf('>', end);
    if (close < 0) break;
    end = close + 1;
  }
  return [start, end];
}
