/** What a quality check found wrong in a translation. */
export const ISSUE_CATEGORIES = [
  'empty_target',
  'untranslated',
  'missing_tag',
  'extra_tag',
  'reordered_tags',
  'missing_placeholder',
  'extra_placeholder',
  'number_mismatch',
  'glossary_term',
  'doubled_word',
  'leading_whitespace',
  'trailing_whitespace',
  'punctuation',
  'length_ratio',
  'spelling',
] as const;
export type IssueCategory = (typeof ISSUE_CATEGORIES)[number];

export const SEVERITIES = ['minor', 'major', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * One problem in a translation. `start` and `end` are code-point offsets into the translation
 * (end exclusive). A problem that has no place in the translation (something is missing) spans the
 * whole translation.
 */
export interface QualityIssue {
  readonly category: IssueCategory;
  readonly severity: Severity;
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

export interface QualitySegment {
  readonly source: string;
  readonly translation: string;
}

export interface GlossaryTerm {
  readonly source: string;
  readonly target: string;
}

/** Says whether a word is spelled correctly in the target language. Injected by the caller (no I/O here). */
export type SpellingCheck = (word: string) => boolean;

export interface QualityOptions {
  /** Source language code (`en`, `en-US`). Used for punctuation and length expectations. */
  readonly sourceLang?: string;
  /** Target language code. */
  readonly targetLang?: string;
  /** Terms whose target must appear in the translation when the source holds the source term. */
  readonly glossary?: readonly GlossaryTerm[];
  /** Spelling check of the target language; without it the spelling check does not run. */
  readonly spelling?: SpellingCheck;
  /** Allowed translation/source length ratio in code points (defaults: see `defaultLengthRatio`). */
  readonly lengthRatio?: { readonly min: number; readonly max: number };
  /** Categories not to report. */
  readonly disable?: readonly IssueCategory[];
}
