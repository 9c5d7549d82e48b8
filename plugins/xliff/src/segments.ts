/** Glossa segments to XLIFF for human translators, and their targets back. */
import type { CodeMap, Segment } from '@glossa/core';
import type { SegmentState, XliffDocument, XliffUnit } from './model.js';
import { parseXliff } from './read.js';
import { serializeXliff } from './write.js';

export interface ExportOptions {
  /** Default `'2.1'`. */
  readonly version?: '1.2' | '2.1';
  readonly sourceLanguage: string;
  readonly targetLanguage?: string;
  /** The `<file>` id (1.2 `original`). Default `'glossa'`. */
  readonly file?: string;
  /** Original bytes of each segment's codes, by segment key (what the adapters' `extract` returns). */
  readonly codes?: Readonly<Record<string, CodeMap>>;
  /** Existing targets by segment key (written with state `translated`). */
  readonly targets?: ReadonlyMap<string, string>;
}

/** Writes segments as an XLIFF file: one unit per segment, its notes and maximum length kept. */
export function exportXliff(segments: readonly Segment[], options: ExportOptions): string {
  if (typeof options?.sourceLanguage !== 'string' || options.sourceLanguage === '')
    throw new TypeError(
      `exportXliff: option \`sourceLanguage\` must be a language code, got ${JSON.stringify(options?.sourceLanguage)}`,
    );
  const version = options.version ?? '2.1';
  if (version !== '1.2' && version !== '2.1')
    throw new RangeError(`exportXliff: version must be '1.2' or '2.1', got ${JSON.stringify(version)}`);
  const units: XliffUnit[] = segments.map((segment) => {
    const target = options.targets?.get(segment.key);
    return {
      id: segment.key,
      notes: segment.notes ?? [],
      ...(segment.maxLength === undefined ? {} : { maxLength: segment.maxLength }),
      codes: options.codes?.[segment.key] ?? {},
      segments: [
        { source: segment.source, ...(target === undefined ? {} : { target, state: 'translated' as const }) },
      ],
    };
  });
  const document: XliffDocument = {
    version,
    sourceLanguage: options.sourceLanguage,
    ...(options.targetLanguage === undefined ? {} : { targetLanguage: options.targetLanguage }),
    files: [{ id: options.file ?? 'glossa', units }],
  };
  return serializeXliff(document, version);
}

export interface ImportedTarget {
  /** The unit id (the segment key it was exported with); `unit#segment` for units of several segments. */
  readonly key: string;
  readonly source: string;
  readonly target: string;
  readonly state?: SegmentState;
  /**
   * `human`: reviewed or final: a person's edit, to be recorded so the lock never overwrites it.
   * `machine`: any other target.
   */
  readonly origin: 'human' | 'machine';
}

/** The key of a segment of a unit: the unit id, or `unit#segment` when the unit has several segments. */
export function segmentKey(unit: XliffUnit, index: number): string {
  if (unit.segments.length === 1) return unit.id;
  return `${unit.id}#${unit.segments[index]!.id ?? index + 1}`;
}

/** Reads the targets of an XLIFF file (1.2, 2.0 or 2.1). Segments without a target are left out. */
export function importXliff(text: string): ImportedTarget[] {
  const targets: ImportedTarget[] = [];
  for (const file of parseXliff(text).files)
    for (const unit of file.units)
      unit.segments.forEach((segment, index) => {
        if (segment.target === undefined || segment.target === '') return;
        const human = segment.state === 'reviewed' || segment.state === 'final';
        targets.push({
          key: segmentKey(unit, index),
          source: segment.source,
          target: segment.target,
          ...(segment.state === undefined ? {} : { state: segment.state }),
          origin: human ? 'human' : 'machine',
        });
      });
  return targets;
}
