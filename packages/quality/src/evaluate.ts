import { checkCompleteness } from './checks/completeness.js';
import { checkDoubledWords } from './checks/doubled-words.js';
import { checkDuplicatedSentences } from './checks/duplicated-sentences.js';
import { checkGlossary } from './checks/glossary.js';
import { checkLength } from './checks/length.js';
import { checkLinks } from './checks/links.js';
import { checkMarkup } from './checks/markup.js';
import { checkNumbers } from './checks/numbers.js';
import { checkPunctuation } from './checks/punctuation.js';
import { checkSpelling } from './checks/spelling.js';
import { checkWhitespace } from './checks/whitespace.js';
import type { Check, CheckInput } from './finding.js';
import { maskMarkup } from './markup.js';
import { codePointOffsets } from './spans.js';
import {
  CATEGORY_OF_CHECK,
  CHECK_NAMES,
  type DetailedQualityIssue,
  ISSUE_KIND_OF_CHECK,
  type QualityIssue,
  type QualityOptions,
  type QualitySegment,
} from './types.js';

/** Every check, in the order their issues are reported. */
const CHECKS: readonly Check[] = [
  checkCompleteness,
  checkMarkup,
  checkNumbers,
  checkLinks,
  checkGlossary,
  checkDoubledWords,
  checkDuplicatedSentences,
  checkWhitespace,
  checkPunctuation,
  checkLength,
  checkSpelling,
];

/**
 * Runs every quality check on one segment and returns its issues, spans in code points of the translation,
 * sorted by start. Pure: the spelling check, when wanted, is passed in `options.spelling`.
 */
export function evaluateSegment(segment: QualitySegment, options: QualityOptions = {}): QualityIssue[] {
  return evaluateSegmentDetailed(segment, options).map(
    ({ check, category, severity, message, start, end }) => ({
      check,
      category,
      severity,
      message,
      start,
      end,
    }),
  );
}

/**
 * `evaluateSegment`, each issue also with its kind in the public typology and its spans on both sides
 * (`DetailedQualityIssue`): what `/v1/quality-evaluation` reports.
 */
export function evaluateSegmentDetailed(
  segment: QualitySegment,
  options: QualityOptions = {},
): DetailedQualityIssue[] {
  assertSegment(segment);
  assertOptions(options);
  const input: CheckInput = {
    source: segment.source,
    translation: segment.translation,
    maskedSource: maskMarkup(segment.source),
    maskedTranslation: maskMarkup(segment.translation),
    options,
  };
  const disabled = new Set(options.disable ?? []);
  const empty = input.translation.trim() === '';
  const issues: DetailedQualityIssue[] = [];
  const translationOffset = codePointOffsets(input.translation);
  const sourceOffset = codePointOffsets(input.source);
  for (const check of CHECKS) {
    for (const finding of check(input)) {
      if (disabled.has(finding.check)) continue;
      // An empty translation is one problem, not one per missing tag or number.
      if (empty && finding.check !== 'empty_target') continue;
      const start = translationOffset(finding.start);
      const end = translationOffset(finding.end);
      const source = finding.source;
      issues.push({
        check: finding.check,
        category: CATEGORY_OF_CHECK[finding.check],
        severity: finding.severity,
        message: finding.message,
        start,
        end,
        kind: finding.kind ?? ISSUE_KIND_OF_CHECK[finding.check],
        sourceSpans: source
          ? [
              {
                start: sourceOffset(source.start),
                end: sourceOffset(source.end),
              },
            ]
          : [],
        targetSpans: finding.absent ? [] : [{ start, end }],
      });
    }
  }
  return issues.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** `evaluateSegmentDetailed` for each segment, same order. */
export function evaluateSegmentsDetailed(
  segments: readonly QualitySegment[],
  options: QualityOptions = {},
): DetailedQualityIssue[][] {
  if (!Array.isArray(segments)) throw new TypeError(`Expected an array of segments, got ${typeof segments}.`);
  return segments.map((segment) => evaluateSegmentDetailed(segment, options));
}

/** `evaluateSegment` for each segment, same order. */
export function evaluateSegments(
  segments: readonly QualitySegment[],
  options: QualityOptions = {},
): QualityIssue[][] {
  if (!Array.isArray(segments)) throw new TypeError(`Expected an array of segments, got ${typeof segments}.`);
  return segments.map((segment) => evaluateSegment(segment, options));
}

function assertSegment(segment: QualitySegment): void {
  if (typeof segment !== 'object' || segment === null) {
    throw new TypeError(
      `Expected a segment {source, translation}, got ${segment === null ? 'null' : typeof segment}.`,
    );
  }
  for (const field of ['source', 'translation'] as const) {
    if (typeof segment[field] !== 'string') {
      throw new TypeError(`Expected segment.${field} to be a string, got ${typeof segment[field]}.`);
    }
  }
}

function assertOptions(options: QualityOptions): void {
  if (options.spelling !== undefined && typeof options.spelling !== 'function') {
    throw new TypeError(
      `Expected options.spelling to be a function (word) => boolean, got ${typeof options.spelling}.`,
    );
  }
  const ratio = options.lengthRatio;
  if (ratio && !(ratio.min >= 0 && ratio.max >= ratio.min)) {
    throw new RangeError(`Expected options.lengthRatio with 0 <= min <= max, got ${JSON.stringify(ratio)}.`);
  }
  for (const check of options.disable ?? []) {
    if (!(CHECK_NAMES as readonly string[]).includes(check)) {
      throw new RangeError(`Unknown check '${check}'. Expected one of: ${CHECK_NAMES.join(', ')}.`);
    }
  }
}
