import type { CheckName, QualityOptions, Severity } from './types.js';

/** An issue as a check reports it: the span is in UTF-16 code units; `evaluate` converts it to code points. */
export interface Finding {
  readonly check: CheckName;
  readonly severity: Severity;
  readonly message: string;
  readonly start: number;
  readonly end: number;
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
): Finding {
  return { check, severity, message, start: 0, end: input.translation.length };
}
