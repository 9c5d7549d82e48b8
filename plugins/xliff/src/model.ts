/** The XLIFF content model this adapter reads and writes (groups are flattened into their file). */
import type { CodeMap } from '@glossa/core';

export type XliffVersion = '1.2' | '2.0' | '2.1';

/** XLIFF 2 segment states; XLIFF 1.2 states are mapped onto these (see readme). */
export type SegmentState = 'initial' | 'translated' | 'reviewed' | 'final';

export interface XliffSegment {
  /** XLIFF 2 `segment@id`, XLIFF 1.2 `mrk@mid` of a segmented unit. */
  readonly id?: string;
  /** Glossa inline XML: text with `<g id>` / `<x id/>` codes. */
  readonly source: string;
  readonly target?: string;
  readonly state?: SegmentState;
  /** XLIFF 2 `subState` (`prefix:value`); XLIFF 1.2 has no place for it. */
  readonly subState?: string;
}

export interface XliffUnit {
  readonly id: string;
  readonly notes: readonly string[];
  /** Maximum length in characters: 1.2 `maxwidth` (size-unit char), 2.x `slr:sizeRestriction`. */
  readonly maxLength?: number;
  /** Original data of the unit's codes, by code id (1.2 native content, 2.x `originalData`). */
  readonly codes: CodeMap;
  readonly segments: readonly XliffSegment[];
}

export interface XliffFile {
  readonly id: string;
  readonly units: readonly XliffUnit[];
}

export interface XliffDocument {
  readonly version: XliffVersion;
  readonly sourceLanguage: string;
  readonly targetLanguage?: string;
  readonly files: readonly XliffFile[];
}

export const SEGMENT_STATES: readonly SegmentState[] = ['initial', 'translated', 'reviewed', 'final'];

/** XLIFF 1.2 `target@state` → XLIFF 2 state. */
export function stateFrom12(state: string | undefined): SegmentState | undefined {
  if (state === undefined) return undefined;
  if (state === 'final') return 'final';
  if (state === 'signed-off') return 'reviewed';
  if (state === 'translated' || state.startsWith('needs-review') || state === 'needs-adaptation')
    return 'translated';
  return 'initial';
}

/** XLIFF 2 state → XLIFF 1.2 `target@state`. */
export function stateTo12(state: SegmentState): string {
  return { initial: 'needs-translation', translated: 'translated', reviewed: 'signed-off', final: 'final' }[
    state
  ];
}
