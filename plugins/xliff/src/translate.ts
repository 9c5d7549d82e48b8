/** `translateXliff`: fills the missing targets of an XLIFF file in place and sets their state. */
import type { Segment } from '@glossa/core';
import { XliffError } from './errors.js';
import { pendingSegments } from './extract.js';
import { writeWithMarkup } from './inline.js';
import { SEGMENT_STATES, type SegmentState, stateTo12 } from './model.js';
import { escapeAttribute, type XmlElement } from './xml.js';

export interface TranslateXliffOptions {
  /** Set as `trgLang` (2.x) or `target-language` (1.2) when the file has none. */
  readonly targetLanguage?: string;
  /** State of the filled targets. Default `'translated'`. */
  readonly state?: SegmentState;
  /**
   * Translates the segments missing a target (as `extractXliff` lists them: each ICU branch a segment,
   * nothing that is not prose); one target per segment, in order (`undefined` leaves its unit missing).
   */
  readonly translate: (segments: readonly Segment[]) => Promise<readonly (string | undefined)[]>;
}

export interface TranslateXliffResult {
  readonly xliff: string;
  readonly filled: number;
  /** Keys of segments left without a target (no translation, or one with broken codes), with the reason. */
  readonly kept: readonly { readonly key: string; readonly reason: string }[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Sets (or adds) an attribute in a start tag, returning the edit. */
function setAttribute(text: string, element: XmlElement, name: string, value: string): Edit {
  const tag = text.slice(element.start, element.openEnd);
  const match = new RegExp(`\\s${name}\\s*=\\s*("[^"]*"|'[^']*')`).exec(tag);
  if (match) {
    const at = element.start + match.index + match[0].length - match[1]!.length;
    return { start: at, end: at + match[1]!.length, text: `"${escapeAttribute(value)}"` };
  }
  const at = element.start + 1 + element.name.length;
  return { start: at, end: at, text: ` ${name}="${escapeAttribute(value)}"` };
}

/** The whitespace that precedes `element` on its line (to indent an inserted sibling the same way). */
function indentBefore(text: string, element: XmlElement): string {
  let at = element.start;
  while (at > 0 && /[ \t]/.test(text[at - 1]!)) at--;
  return text[at - 1] === '\n' ? `\n${text.slice(at, element.start)}` : '';
}

export async function translateXliff(
  text: string,
  options: TranslateXliffOptions,
): Promise<TranslateXliffResult> {
  if (typeof options?.translate !== 'function')
    throw new TypeError(
      `translateXliff: option \`translate\` must be an async function, got ${typeof options?.translate}`,
    );
  const state = options.state ?? 'translated';
  if (!SEGMENT_STATES.includes(state))
    throw new RangeError(`translateXliff: unknown state ${JSON.stringify(state)}`);
  const { document, root, pending } = pendingSegments(text);
  const is12 = document.version === '1.2';
  // Parts that are not prose (a URL, code, an identifier, numbers) are copied, never sent.
  const sent = pending.flatMap((item) => item.parts);
  const returned = sent.length === 0 ? [] : await options.translate(sent);
  if (!Array.isArray(returned) || returned.length !== sent.length)
    throw new TypeError(
      `translateXliff: translate() must return ${sent.length} targets, got ${Array.isArray(returned) ? returned.length : typeof returned}`,
    );
  const byKey = new Map<string, string>();
  sent.forEach((segment, i) => {
    const target = returned[i];
    if (target !== undefined) byKey.set(segment.key, target);
  });
  const edits: Edit[] = [];
  const kept: { key: string; reason: string }[] = [];
  const marksByUnit = new Map<XmlElement, string[]>();
  pending.forEach(({ key, place, assemble }) => {
    const assembled = assemble(byKey, document.targetLanguage ?? options.targetLanguage);
    if ('error' in assembled) {
      kept.push({ key, reason: assembled.error });
      return;
    }
    const target = assembled.target;
    const content = writeWithMarkup(target, place.markup);
    if (place.mid !== undefined) {
      // 1.2 segmented unit: one <mrk> per segment inside the unit's <target>.
      const marks = marksByUnit.get(place.unit) ?? [];
      marks.push(`<mrk mtype="seg" mid="${escapeAttribute(place.mid)}">${content}</mrk>`);
      marksByUnit.set(place.unit, marks);
    } else if (is12) {
      const element = `<target state="${stateTo12(state)}">${content}</target>`;
      if (place.target) edits.push({ start: place.target.start, end: place.target.end, text: element });
      else
        edits.push({
          start: place.source.end,
          end: place.source.end,
          text: indentBefore(text, place.source) + element,
        });
    } else {
      edits.push(setAttribute(text, place.holder, 'state', state));
      if (place.target)
        edits.push({ start: place.target.start, end: place.target.end, text: `<target>${content}</target>` });
      else
        edits.push({
          start: place.source.end,
          end: place.source.end,
          text: `${indentBefore(text, place.source)}<target>${content}</target>`,
        });
    }
  });
  for (const [unit, marks] of marksByUnit) {
    const existing = unit.children.find(
      (child): child is XmlElement => child.type === 'element' && child.name.endsWith('target'),
    );
    if (existing && existing.closeStart > existing.openEnd)
      edits.push({ start: existing.closeStart, end: existing.closeStart, text: marks.join('') });
    else if (existing)
      edits.push({
        start: existing.start,
        end: existing.end,
        text: `<target state="${stateTo12(state)}">${marks.join('')}</target>`,
      });
    else {
      const source = unit.children.find(
        (child): child is XmlElement => child.type === 'element' && child.name.endsWith('seg-source'),
      );
      if (!source)
        throw new XliffError('segmented unit without <seg-source>', 'invalid_xliff', unit.line, unit.column);
      edits.push({
        start: source.end,
        end: source.end,
        text: `${indentBefore(text, source)}<target state="${stateTo12(state)}">${marks.join('')}</target>`,
      });
    }
  }
  if (options.targetLanguage !== undefined && !document.targetLanguage && edits.length > 0) {
    if (!is12) edits.push(setAttribute(text, root, 'trgLang', options.targetLanguage));
    else
      for (const file of root.children)
        if (file.type === 'element' && file.name.endsWith('file'))
          edits.push(setAttribute(text, file, 'target-language', options.targetLanguage));
  }
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let position = 0;
  for (const edit of edits) {
    out += text.slice(position, edit.start) + edit.text;
    position = edit.end;
  }
  out += text.slice(position);
  return { xliff: out, filled: pending.length - kept.length, kept };
}
