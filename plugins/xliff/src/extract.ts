/**
 * What of an XLIFF file is sent for translation: the segments without a target, each ICU branch a segment
 * of its own, and nothing that is not prose. `translateXliff` sends exactly these; a caller that runs its
 * own translation (the CLI) extracts them with `extractXliff` and answers `translateXliff` by key.
 */
import {
  type CodeMap,
  inlinePlainText,
  type NotProseKind,
  notProse,
  type RebuildOptions,
  type Segment,
  verifyCodes,
} from '@glossa/core';
import { type IcuUnit, splitIcu } from './icu.js';
import { type ReadResult, readXliff, type SegmentPlace } from './read.js';
import { segmentKey } from './segments.js';
import type { XmlElement } from './xml.js';

export interface XliffExtraction {
  /** The segments to translate, in file order. An ICU unit's branches have keys `<unit>/<VAR>.<selector>`. */
  readonly segments: readonly Segment[];
  /** Each segment's codes by key: the unit's XLIFF codes, and `icuN` for the ICU syntax in a branch. */
  readonly codes: Readonly<Record<string, CodeMap>>;
  /** Segments (or ICU branches) that are not prose: never sent, copied to the target as they are. */
  readonly notProse: readonly { readonly key: string; readonly kind: NotProseKind }[];
}

/** A segment without a target: its parts to send and how their targets become the segment's. */
export interface PendingSegment {
  readonly key: string;
  readonly place: SegmentPlace;
  readonly source: string;
  readonly parts: readonly Segment[];
  readonly codes: Readonly<Record<string, CodeMap>>;
  readonly notProse: readonly { readonly key: string; readonly kind: NotProseKind }[];
  /** The segment's target from its parts' targets (by part key), or why there is none. */
  assemble(
    targets: ReadonlyMap<string, string>,
    locale: string | undefined,
  ): { target: string } | { error: string };
}

const isEmpty = (element: XmlElement | undefined) =>
  !element || element.children.every((child) => child.type === 'text' && child.value.trim() === '');

/** The file read, and its segments that have no target yet. */
export function pendingSegments(text: string): ReadResult & { pending: PendingSegment[] } {
  const read = readXliff(text);
  const pending: PendingSegment[] = [];
  for (const [fileIndex, file] of read.document.files.entries())
    for (const [unitIndex, unit] of file.units.entries())
      for (const [index, segment] of unit.segments.entries()) {
        const place = read.places[fileIndex]![unitIndex]![index]!;
        if (!isEmpty(place.target)) continue;
        const key = segmentKey(unit, index);
        const extra = {
          ...(unit.notes.length > 0 && { notes: unit.notes }),
          ...(unit.maxLength !== undefined && { maxLength: unit.maxLength }),
        };
        const icu = splitIcu(segment.source, key);
        const all = icu
          ? icu.parts.map((p) => ({ key: p.key, source: p.source, codes: { ...unit.codes, ...p.codes } }))
          : [{ key, source: segment.source, codes: unit.codes }];
        const parts: Segment[] = [];
        const codes: Record<string, CodeMap> = {};
        const skipped: { key: string; kind: NotProseKind }[] = [];
        for (const part of all) {
          const kind = notProse(inlinePlainText(part.source));
          if (kind !== undefined) skipped.push({ key: part.key, kind });
          else {
            parts.push({ key: part.key, source: part.source, ...extra });
            codes[part.key] = part.codes;
          }
        }
        pending.push({
          key,
          place,
          source: segment.source,
          parts,
          codes,
          notProse: skipped,
          assemble: (targets, locale) =>
            assemble(segment.source, icu, all, targets, {
              locale,
              sourceLocale: read.document.sourceLanguage,
            }),
        });
      }
  return { ...read, pending };
}

function assemble(
  source: string,
  icu: IcuUnit | undefined,
  all: readonly { key: string; source: string }[],
  targets: ReadonlyMap<string, string>,
  languages: RebuildOptions,
): { target: string } | { error: string } {
  const own = new Map<string, string>();
  for (const part of all) {
    const kind = notProse(inlinePlainText(part.source));
    const target = kind === undefined ? targets.get(part.key) : part.source;
    if (target === undefined) return { error: 'no translation' };
    const problem = verifyCodes(part.source, target);
    if (problem !== undefined) return { error: icu ? `${part.key}: ${problem}` : problem };
    own.set(part.key, target);
  }
  if (!icu) return { target: own.get(all[0]!.key) ?? source };
  return icu.rebuild(own, languages);
}

/**
 * The segments of an XLIFF file that `translateXliff` would send (those without a target; each ICU branch
 * a segment; nothing that is not prose), with their codes, and the ones left as they are.
 */
export function extractXliff(text: string): XliffExtraction {
  const { pending } = pendingSegments(text);
  return {
    segments: pending.flatMap((p) => p.parts),
    codes: Object.assign({}, ...pending.map((p) => p.codes)),
    notProse: pending.flatMap((p) => p.notProse),
  };
}

/**
 * The targets an XLIFF file holds, by the keys `extractXliff` gives its segments: an ICU unit's target is
 * read branch by branch (a target that lacks one of its source's branches is left out).
 */
export function readXliffTargets(text: string): Map<string, string> {
  const targets = new Map<string, string>();
  for (const file of readXliff(text).document.files)
    for (const unit of file.units)
      unit.segments.forEach((segment, index) => {
        if (segment.target === undefined || segment.target === '') return;
        const key = segmentKey(unit, index);
        const icu = splitIcu(segment.source, key);
        if (!icu) {
          targets.set(key, segment.target);
          return;
        }
        // Branches the target's language adds (Polish `few`, `many`) are its own; the source's are read.
        const target = new Map(splitIcu(segment.target, key, icu)?.parts.map((p) => [p.key, p.source]));
        if (!icu.parts.every((p) => target.has(p.key))) return;
        for (const part of icu.parts) targets.set(part.key, target.get(part.key)!);
      });
  return targets;
}
