export { defaultLengthRatio, MIN_LENGTH_CHECKED } from './checks/length.js';
export { numericValue } from './checks/numbers.js';
export {
  evaluateSegment,
  evaluateSegmentDetailed,
  evaluateSegments,
  evaluateSegmentsDetailed,
} from './evaluate.js';
export { findPlaceholders, findTags, type MarkupToken, maskMarkup } from './markup.js';
export { codePointLength, codePointOffset } from './spans.js';
export { TermFinder } from './terms.js';
export {
  CATEGORY_OF_CHECK,
  CHECK_NAMES,
  type CheckName,
  type CodePointSpan,
  type DetailedQualityIssue,
  type GlossaryTerm,
  ISSUE_KIND_OF_CHECK,
  ISSUE_SUB_TYPES,
  ISSUE_TYPES,
  type IssueKind,
  type QualityIssue,
  type QualityOptions,
  type QualitySegment,
  type Severity,
  type SpellingCheck,
} from './types.js';
