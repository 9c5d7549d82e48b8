export { defaultLengthRatio, MIN_LENGTH_CHECKED } from './checks/length.js';
export { numericValue } from './checks/numbers.js';
export { evaluateSegment, evaluateSegments } from './evaluate.js';
export { findPlaceholders, findTags, type MarkupToken, maskMarkup } from './markup.js';
export { codePointLength, codePointOffset } from './spans.js';
export {
  type GlossaryTerm,
  ISSUE_CATEGORIES,
  type IssueCategory,
  type QualityIssue,
  type QualityOptions,
  type QualitySegment,
  SEVERITIES,
  type Severity,
  type SpellingCheck,
} from './types.js';
