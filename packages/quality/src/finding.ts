import type { Utf16Span } from './spans.js';
import type { CheckName, IssueKind, QualityOptions, Severity } from './types.js';

/** An issue as a check reports it: the span is in UTF-16 code units; `evaluate` converts it to code points. */
export interface Finding {
  readonly check: CheckName;
  readonly severity: Severity;
  readonly message: string;
  readonly start: number;
  readonly end: number;
  /** Where in the source the issue applies (UTF-16), when the check knows it. */
  readonly source?: Utf16Span;
  /** Something of the source is absent from the translation: `start`/`end` only cover the whole of it. */
  readonly absent?: boolean;
  /** The error kind, when it is not the check's usual one (`ISSUE_KIND_OF_CHECK`). */
  readonly kind?: IssueKind;
}

export interface CheckInput {
  readonly source: string;
  readonly translation: string;
  /** The translation with tags and placeholders blanked out (same length, same offsets). */
  readonly maskedTranslation: string;
  /** The source with tags and placeholders blanked out. */
  readonly maskedSource: string;
  readonly options: QualityOptions;
}

export type Check = (input: CheckInput) => Finding[];

/** A finding about something missing, which has no place in the translation: it spans the whole of it. */
export function wholeSegment(
  input: CheckInput,
  check: CheckName,
  severity: Severity,
  message: string,
  extra: Pick<Finding, 'source' | 'absent'> = {},
): Finding {
  return { check, severity, message, start: 0, end: input.translation.length, ...extra };
}
