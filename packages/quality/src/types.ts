import type { QualityCategory, QualitySeverity } from '@glossa/protocol';

/** The checks, each named by what it finds wrong in a translation. */
export const CHECK_NAMES = [
  'empty_target',
  'untranslated',
  'missing_tag',
  'extra_tag',
  'reordered_tags',
  'missing_placeholder',
  'extra_placeholder',
  'number_mismatch',
  'link_mismatch',
  'glossary_term',
  'doubled_word',
  'duplicated_sentence',
  'leading_whitespace',
  'trailing_whitespace',
  'punctuation',
  'length_ratio',
  'spelling',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export type Severity = QualitySeverity;

/** The interface's issue category (`@glossa/protocol` QUALITY_CATEGORIES) each check reports under. */
export const CATEGORY_OF_CHECK: Readonly<Record<CheckName, QualityCategory>> = {
  empty_target: 'untranslated',
  untranslated: 'untranslated',
  missing_tag: 'markup',
  extra_tag: 'markup',
  reordered_tags: 'markup',
  missing_placeholder: 'placeholder',
  extra_placeholder: 'placeholder',
  number_mismatch: 'number',
  link_mismatch: 'accuracy',
  glossary_term: 'terminology',
  doubled_word: 'grammar',
  duplicated_sentence: 'accuracy',
  leading_whitespace: 'whitespace',
  trailing_whitespace: 'whitespace',
  punctuation: 'punctuation',
  length_ratio: 'length',
  spelling: 'spelling',
};

/**
 * The error typology of the public quality-evaluation interface (`/v1/quality-evaluation`): a top-level
 * `type` and a finer `subType`, MQM-style.
 */
export const ISSUE_TYPES = ['Accuracy', 'Fluency', 'Style', 'Miscellaneous'] as const;
export const ISSUE_SUB_TYPES = [
  'Addition',
  'Omission',
  'Mistranslation',
  'Over-translation',
  'Under-translation',
  'Untranslated text',
  'Punctuation',
  'Spelling',
  'Grammar',
  'Grammatical register',
  'Inconsistency',
  'Character encoding',
  'Awkward',
  'Inconsistent style',
] as const;
export interface IssueKind {
  readonly type: (typeof ISSUE_TYPES)[number];
  readonly subType: (typeof ISSUE_SUB_TYPES)[number];
}

/**
 * The error kind each check reports under in that typology: a missing tag, placeholder, number, link or
 * term is an omission, an added one an addition, a changed one a mistranslation; whitespace counts as
 * punctuation. `length_ratio` is an omission when the translation is much shorter, an addition when longer.
 */
export const ISSUE_KIND_OF_CHECK: Readonly<Record<CheckName, IssueKind>> = {
  empty_target: { type: 'Accuracy', subType: 'Omission' },
  untranslated: { type: 'Accuracy', subType: 'Untranslated text' },
  missing_tag: { type: 'Accuracy', subType: 'Omission' },
  extra_tag: { type: 'Accuracy', subType: 'Addition' },
  reordered_tags: { type: 'Fluency', subType: 'Inconsistency' },
  missing_placeholder: { type: 'Accuracy', subType: 'Omission' },
  extra_placeholder: { type: 'Accuracy', subType: 'Addition' },
  number_mismatch: { type: 'Accuracy', subType: 'Mistranslation' },
  link_mismatch: { type: 'Accuracy', subType: 'Mistranslation' },
  glossary_term: { type: 'Style', subType: 'Inconsistent style' },
  doubled_word: { type: 'Fluency', subType: 'Grammar' },
  duplicated_sentence: { type: 'Accuracy', subType: 'Addition' },
  leading_whitespace: { type: 'Fluency', subType: 'Punctuation' },
  trailing_whitespace: { type: 'Fluency', subType: 'Punctuation' },
  punctuation: { type: 'Fluency', subType: 'Punctuation' },
  length_ratio: { type: 'Accuracy', subType: 'Omission' },
  spelling: { type: 'Fluency', subType: 'Spelling' },
};

/** A span in code points, end exclusive. */
export interface CodePointSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * An issue with its place on both sides, for reports in the public typology: `kind` (type, sub-type);
 * `sourceSpans`, code-point spans into the source where the check knows them (a missing tag: where the source
 * has it); `targetSpans` into the translation, empty when something is absent from it (rather than the whole
 * translation, as `start`/`end` say).
 */
export interface DetailedQualityIssue extends QualityIssue {
  readonly kind: IssueKind;
  readonly sourceSpans: readonly CodePointSpan[];
  readonly targetSpans: readonly CodePointSpan[];
}

/**
 * One problem in a translation. `start` and `end` are code-point offsets into the translation
 * (end exclusive). A problem that has no place in the translation (something is missing) spans the
 * whole translation.
 */
export interface QualityIssue {
  /** The check that found the issue (`missing_tag`). */
  readonly check: CheckName;
  /** Its category in the interface (`markup`). */
  readonly category: QualityCategory;
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
  /** Checks not to run. */
  readonly disable?: readonly CheckName[];
}
