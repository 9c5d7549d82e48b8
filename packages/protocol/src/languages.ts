/**
 * The languages the interface knows, as data. Which of them a server can really serve, and with which
 * features, is that server's answer to `GET /v3/languages`; this table only names them.
 */

export interface LanguageInfo {
  /** Canonical BCP 47 code, as v3 responses write it: `en-US`, `zh-Hans`. */
  readonly code: string;
  /** English display name. */
  readonly name: string;
  /** A pseudo-locale for layout and pipeline testing, not a human language. */
  readonly pseudo?: true;
}

export const LANGUAGES: readonly LanguageInfo[] = [
  { code: 'ar', name: 'Arabic' },
  { code: 'bg', name: 'Bulgarian' },
  { code: 'ca', name: 'Catalan' },
  { code: 'cs', name: 'Czech' },
  { code: 'da', name: 'Danish' },
  { code: 'de', name: 'German' },
  { code: 'el', name: 'Greek' },
  { code: 'en', name: 'English' },
  { code: 'en-GB', name: 'English (British)' },
  { code: 'en-US', name: 'English (American)' },
  { code: 'es', name: 'Spanish' },
  { code: 'es-419', name: 'Spanish (Latin American)' },
  { code: 'et', name: 'Estonian' },
  { code: 'fi', name: 'Finnish' },
  { code: 'fr', name: 'French' },
  { code: 'gl', name: 'Galician' },
  { code: 'he', name: 'Hebrew' },
  { code: 'hu', name: 'Hungarian' },
  { code: 'id', name: 'Indonesian' },
  { code: 'it', name: 'Italian' },
  { code: 'ja', name: 'Japanese' },
  { code: 'ko', name: 'Korean' },
  { code: 'lt', name: 'Lithuanian' },
  { code: 'lv', name: 'Latvian' },
  { code: 'nb', name: 'Norwegian Bokmål' },
  { code: 'nl', name: 'Dutch' },
  { code: 'oc', name: 'Occitan' },
  { code: 'pl', name: 'Polish' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'pt-BR', name: 'Portuguese (Brazilian)' },
  { code: 'pt-PT', name: 'Portuguese (European)' },
  { code: 'ro', name: 'Romanian' },
  { code: 'ru', name: 'Russian' },
  { code: 'sk', name: 'Slovak' },
  { code: 'sl', name: 'Slovenian' },
  { code: 'sv', name: 'Swedish' },
  { code: 'th', name: 'Thai' },
  { code: 'tr', name: 'Turkish' },
  { code: 'uk', name: 'Ukrainian' },
  { code: 'vi', name: 'Vietnamese' },
  { code: 'zh', name: 'Chinese' },
  { code: 'zh-Hans', name: 'Chinese (simplified)' },
  { code: 'zh-Hant', name: 'Chinese (traditional)' },
  { code: 'en-XA', name: 'Pseudo-English (accented, expanded)', pseudo: true },
  { code: 'ar-XB', name: 'Pseudo-Arabic (right-to-left)', pseudo: true },
];

/** The pseudo-locales: deterministic pseudo-localization for layout and pipeline testing. */
export const PSEUDO_LOCALES = ['en-XA', 'ar-XB'] as const;
export type PseudoLocale = (typeof PSEUDO_LOCALES)[number];

/** The 33 codes language detection may return (`results[].detected_language`). */
export const DETECTION_LANGUAGES = [
  'en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'ru', 'zh', 'ja', 'bg', 'cs', 'da', 'el', 'et', 'fi',
  'hu', 'lt', 'lv', 'ro', 'sk', 'sl', 'sv', 'tr', 'id', 'uk', 'ko', 'nb', 'ar', 'vi', 'he', 'th',
] as const; // biome-ignore format: one row per line would hide the count
export type DetectionLanguage = (typeof DETECTION_LANGUAGES)[number];

/** `target_lang` values of the text-improvement endpoints (rephrase, correct). */
export const WRITE_TARGET_LANGUAGES = [
  'de', 'en-GB', 'en-US', 'es', 'fr', 'it', 'ja', 'ko', 'pt-BR', 'pt-PT', 'zh', 'zh-Hans',
] as const; // biome-ignore format: a short list

/** Root languages style rule lists can target; a root language serves its variants (en: en-US, en-GB). */
export const STYLE_RULE_LANGUAGES = ['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'zh'] as const;

/** Target languages that accept `custom_instructions` on translate (these roots and their variants). */
export const CUSTOM_INSTRUCTION_LANGUAGES = STYLE_RULE_LANGUAGES;

/** Right-to-left languages (for `dir` attributes and pseudo-localization). */
export const RTL_LANGUAGES = ['ar', 'he', 'ar-XB'] as const;

const byLowerCode = new Map(LANGUAGES.map((language) => [language.code.toLowerCase(), language]));

/**
 * The canonical BCP 47 form of a language code, matched case-insensitively (`EN-us` → `en-US`), or
 * `undefined` when the interface does not know it.
 */
export function canonicalLanguage(code: string): string | undefined {
  return byLowerCode.get(code.trim().toLowerCase())?.code;
}

/** The upper-case form v2 responses use: `en-US` → `EN-US`, `zh-Hans` → `ZH-HANS`. */
export function toV2LanguageCode(code: string): string {
  return code.toUpperCase();
}

/** The base (root) language of a code: `en-US` → `en`, `zh-Hans` → `zh`. */
export function baseLanguage(code: string): string {
  return code.split('-')[0]!.toLowerCase();
}

/** Whether `code` is one of the pseudo-locales. */
export function isPseudoLocale(code: string): code is PseudoLocale {
  return (PSEUDO_LOCALES as readonly string[]).includes(code);
}

export function isRightToLeft(code: string): boolean {
  const canonical = canonicalLanguage(code) ?? code;
  return (
    (RTL_LANGUAGES as readonly string[]).includes(canonical) ||
    (RTL_LANGUAGES as readonly string[]).includes(baseLanguage(canonical))
  );
}

export function languageName(code: string): string | undefined {
  return byLowerCode.get(code.toLowerCase())?.name;
}
