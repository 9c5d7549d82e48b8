export { defaultLengthRatio, MIN_LENGTH_CHECKED } from './checks/length.js';
export { numericValue } from './checks/numbers.js';
export { evaluateSegment, evaluateSegments } from './evaluate.js';
export { findPlaceholders, findTags, type MarkupToken, maskMarkup } from './markup.js';
export { codePointLength, codePointOffset } from './spans.js';
export {
  CATEGORY_OF_CHECK,
  CHECK_NAMES,
  type CheckName,
  type GlossaryTerm,
  type QualityIssue,
  type QualityOptions,
  type QualitySegment,
  type Severity,
  type SpellingCheck,
} from './types.js';
