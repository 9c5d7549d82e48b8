/**
 * ICU messages inside XLIFF units (Angular writes `{VAR_PLURAL, plural, =0 {none} other {<x id="INTERPOLATION"/>
 * items}}`): split by core's `extractIcu` (Angular's dialect), as the JSON adapters split theirs, so each
 * branch of a `plural`, `select` or `selectordinal` is a segment of its own (key `<unit>/<VAR>.<selector>`)
 * and heads, keywords, selectors and braces are never sent. The unit's XLIFF codes stay codes with their
 * own ids inside the branches; ICU arguments in a branch (and a nested message) become `<x id="icuN"/>`.
 */
import {
  type CodeMap,
  escapeInlineText,
  extractIcu,
  type IcuExtraction,
  type InlineCode,
  type InlineToken,
  parseInline,
  type RebuildOptions,
  serializeInline,
  verifyCodes,
} from '@glossa/core';

/** One segment of an ICU unit: its key, its source (inline XML) and the codes that are ICU syntax. */
export interface IcuPart {
  readonly key: string;
  readonly source: string;
  /** The ICU codes (`icuN`) of this part, by id; the unit's XLIFF codes keep their own ids. */
  readonly codes: CodeMap;
}

export interface IcuUnit {
  /** The parts with words, in order: the text around the message (when it has words) and every branch. */
  readonly parts: readonly IcuPart[];
  /**
   * The unit's inline XML with each part replaced by its target, or why it cannot be built. With the
   * target's locale, plurals gain the categories it has and the source lacks (from the `other` branch).
   */
  rebuild(
    targets: ReadonlyMap<string, string>,
    languages?: RebuildOptions,
  ): { target: string } | { error: string };
}

const HEAD = /\{\s*[\w.]+\s*,\s*(?:plural|select|selectordinal)\s*,/;
/** The unit's XLIFF codes ride through the ICU parser as rich-text tags of this name. */
const TAG = /<glossa-(\d+)\/>|<glossa-(\d+)>|<\/glossa-(\d+)>/g;

/**
 * The ICU message in a unit's inline XML, split into parts, or `undefined` when the unit holds no ICU
 * `plural`/`select`/`selectordinal` or does not parse as one (it is then translated as plain text).
 * `like`: the split of the unit's source, so a target's ICU codes get the ids the source's have.
 */
export function splitIcu(inline: string, key: string, like?: IcuUnit): IcuUnit | undefined {
  const tokens = parseInline(inline);
  if (!tokens.some((t) => t.type === 'text' && HEAD.test(t.text))) return undefined;
  let message = '';
  const opened: number[] = [];
  tokens.forEach((t, i) => {
    if (t.type === 'text') message += t.text;
    else if (t.type === 'x') message += `<glossa-${i}/>`;
    else if (t.type === 'open') {
      opened.push(i);
      message += `<glossa-${i}>`;
    } else message += `</glossa-${opened.pop()}>`;
  });
  let extraction: IcuExtraction;
  try {
    extraction = extractIcu(message, key, { dialect: 'angular' });
  } catch {
    return undefined;
  }
  const taken = new Set(tokens.flatMap((t) => (t.type === 'text' || t.type === 'close' ? [] : [t.id])));
  const table = like ? (icuIds.get(like) ?? new Map<string, string[]>()) : new Map<string, string[]>();
  const seen = new Map<string, number>();
  let next = 1;
  const icuId = (raw: string) => {
    const k = seen.get(raw) ?? 0;
    seen.set(raw, k + 1);
    const ids = table.get(raw) ?? [];
    if (ids[k] !== undefined) return ids[k];
    while (taken.has(`icu${next}`)) next++;
    const id = `icu${next++}`;
    taken.add(id);
    if (!like) table.set(raw, [...ids, id]);
    return id;
  };
  // Each part's ids: the XLIFF code a synthetic tag stands for, or an ICU code; `back` maps them again.
  const back = new Map<string, Map<string, string>>();
  const parts: IcuPart[] = extraction.segments.map((segment) => {
    const renamed = new Map<string, string>();
    const inverse = new Map<string, string>();
    const codes: Record<string, InlineCode> = {};
    const idOf = (id: string) => {
      const code = segment.codes[id]!;
      const tag = /^<glossa-(\d+)\/?>$/.exec(code.kind === 'g' ? (code.open ?? '') : (code.text ?? ''));
      const token = tag ? tokens[Number(tag[1])] : undefined;
      let to: string;
      if (token && token.type !== 'text') to = token.id;
      else {
        to = icuId(code.text ?? code.open ?? '');
        codes[to] = code;
      }
      renamed.set(id, to);
      inverse.set(to, id);
      return to;
    };
    const source = serializeInline(
      parseInline(segment.source).map((t) =>
        t.type === 'text' || t.type === 'close' ? t : { ...t, id: idOf(t.id) },
      ),
    );
    back.set(segment.key, inverse);
    return { key: segment.key, source, codes };
  });
  const unit: IcuUnit = {
    parts,
    rebuild(targets, languages) {
      const own = new Map<string, string>();
      for (const part of parts) {
        const target = targets.get(part.key);
        if (target === undefined) return { error: `no translation for ${part.key}` };
        const inverse = back.get(part.key)!;
        const mapped: InlineToken[] = [];
        for (const t of parseInline(target)) {
          if (t.type === 'text' || t.type === 'close') mapped.push(t);
          else {
            const id = inverse.get(t.id);
            if (id === undefined) return { error: `${part.key}: unknown code ${t.id}` };
            mapped.push({ ...t, id });
          }
        }
        own.set(part.key, serializeInline(mapped));
      }
      // The message back in inline XML: each synthetic tag becomes the XLIFF code it stands for.
      const toInline = (rebuilt: string): string | undefined => {
        let out = '';
        let at = 0;
        for (const m of rebuilt.matchAll(TAG)) {
          out += escapeInlineText(rebuilt.slice(at, m.index));
          const token = tokens[Number(m[1] ?? m[2] ?? m[3])];
          if (!token || token.type === 'text') return undefined;
          out += m[3] === undefined ? serializeInline([token]) : '</g>';
          at = m.index + m[0].length;
        }
        return out + escapeInlineText(rebuilt.slice(at));
      };
      const out = toInline(extraction.rebuild(own));
      if (out === undefined) return { error: `ICU message ${key}: a code it does not have` };
      // A brace or keyword a translation put into a branch would change the message: read it again.
      const again = splitIcu(out, key, unit);
      const same =
        again !== undefined &&
        again.parts.length === parts.length &&
        again.parts.every(
          (p, i) => p.key === parts[i]!.key && verifyCodes(parts[i]!.source, p.source) === undefined,
        );
      if (!same) return { error: `ICU message ${key}: a translation changed its syntax` };
      if (languages?.locale === undefined) return { target: out };
      return { target: toInline(extraction.rebuild(own, languages)) ?? out };
    },
  };
  icuIds.set(unit, table);
  return unit;
}

/** Each split source's ICU code ids, by the raw syntax they stand for (to read its targets alike). */
const icuIds = new WeakMap<IcuUnit, Map<string, string[]>>();
