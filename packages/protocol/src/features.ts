/** Resource values of `GET /v3/languages?resource=` and `GET /v3/languages/resources`. */
export const RESOURCES = [
  'translate_text',
  'translate_document',
  'voice',
  'write',
  'glossary',
  'style_rules',
] as const;
export type ResourceName = (typeof RESOURCES)[number];

/** Availability status of a language or a feature. */
export const AVAILABILITY_STATUSES = ['stable', 'beta', 'early_access'] as const;

export interface FeatureDefinition {
  /** The feature is checked on the source language. */
  readonly needsSource: boolean;
  /** The feature is checked on the target language. */
  readonly needsTarget: boolean;
  /** Resources the feature appears on. */
  readonly resources: readonly ResourceName[];
  readonly meaning: string;
}

/** Feature keys, which side of a pair they need, and where they appear. */
export const FEATURES = {
  auto_detection: {
    needsSource: true,
    needsTarget: false,
    resources: ['translate_text', 'translate_document', 'voice', 'write'],
    meaning: 'language can be auto-detected as source',
  },
  style_rules: {
    needsSource: false,
    needsTarget: true,
    resources: ['translate_text'],
    meaning: 'style rules usable (custom_instructions and style_id)',
  },
  formality: {
    needsSource: false,
    needsTarget: true,
    resources: ['translate_text', 'translate_document', 'voice'],
    meaning: 'formal/informal register control',
  },
  glossary: {
    needsSource: true,
    needsTarget: true,
    resources: ['translate_text', 'translate_document', 'voice'],
    meaning: 'glossary usable for the pair; both languages must support it',
  },
  tag_handling: {
    needsSource: true,
    needsTarget: true,
    resources: ['translate_text', 'translate_document'],
    meaning: 'markup-preserving translation',
  },
  transcription: { needsSource: true, needsTarget: false, resources: ['voice'], meaning: 'audio to text' },
  translated_speech: {
    needsSource: false,
    needsTarget: true,
    resources: ['voice'],
    meaning: 'translated text to audio',
  },
  spoken_terms: {
    needsSource: true,
    needsTarget: false,
    resources: ['voice'],
    meaning: 'spoken-term lists (spoken_terms_id on voice session and voice job requests)',
  },
  tone: { needsSource: false, needsTarget: true, resources: ['write'], meaning: 'tone selection' },
  writing_style: {
    needsSource: false,
    needsTarget: true,
    resources: ['write'],
    meaning: 'writing style selection',
  },
} as const satisfies Record<string, FeatureDefinition>;
export type FeatureName = keyof typeof FEATURES;
