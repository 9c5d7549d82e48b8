/**
 * Every numeric limit of the service interface, as named constants.
 * Source: `service-interface.md` ("Limits") and `wire-decisions.md`.
 */

/** POST /v2/translate: maximum request body size in bytes (128 KiB). */
export const MAX_TRANSLATE_REQUEST_BYTES = 128 * 1024;
/** POST /v2/write/rephrase and /v2/write/correct: maximum request body size in bytes (10 KiB). */
export const MAX_WRITE_REQUEST_BYTES = 10 * 1024;
/** `X-Service-Reporting-Tag` header: maximum length in characters. */
export const MAX_REPORTING_TAG_LENGTH = 100;
/** `glossary_ids` on translate: maximum number of glossaries. */
export const MAX_GLOSSARY_IDS = 5;
/** `custom_instructions` on translate: maximum number of instructions. */
export const MAX_TRANSLATE_CUSTOM_INSTRUCTIONS = 10;
/** Maximum length of one custom instruction (translate) or prompt (style rule list), in characters. */
export const MAX_CUSTOM_INSTRUCTION_LENGTH = 300;
/** POST /v3/detect/language: maximum number of texts. */
export const MAX_DETECT_TEXTS = 50;
/** Custom tag analytics: maximum range from start_date to end_date, in days. */
export const MAX_ANALYTICS_RANGE_DAYS = 366;
/** `translation_memory_threshold`: lowest and highest accepted values, and the default. */
export const MIN_TRANSLATION_MEMORY_THRESHOLD = 0;
export const MAX_TRANSLATION_MEMORY_THRESHOLD = 100;
export const DEFAULT_TRANSLATION_MEMORY_THRESHOLD = 75;
/** Custom instructions per style rule list. */
export const MAX_STYLE_RULE_CUSTOM_INSTRUCTIONS = 200;
/** GET /v3/style_rules `page_size`: bounds and default. */
export const MAX_STYLE_RULES_PAGE_SIZE = 25;
export const DEFAULT_STYLE_RULES_PAGE_SIZE = 10;
/** GET /v3/translation_memories/{id}/segments `page_size`: bounds and default. */
export const MAX_MEMORY_SEGMENTS_PAGE_SIZE = 100;
export const DEFAULT_MEMORY_SEGMENTS_PAGE_SIZE = 50;
/** Glossary size in bytes (10 MiB). */
export const MAX_GLOSSARY_BYTES = 10_485_760;
/** TMX file of a translation-memory import, in bytes (100 MiB). */
export const MAX_TMX_BYTES = 100 * 1024 * 1024;
/** Glossary entry (each source and each target text) and glossary name length, in UTF-8 bytes. */
export const MAX_GLOSSARY_TERM_BYTES = 1024;
/** Glossaries per account. */
export const MAX_GLOSSARIES_PER_ACCOUNT = 1000;
/** Billing minimum per document for docx, pptx, xlsx and pdf, in characters. */
export const DOCUMENT_MINIMUM_BILLED_CHARACTERS = 50_000;
/** Document formats that the billing minimum applies to. */
export const DOCUMENT_FORMATS_WITH_MINIMUM = ['docx', 'pptx', 'xlsx', 'pdf'] as const;
/** Recommended maximum age of a cached language lookup, in milliseconds (1 hour). */
export const LANGUAGES_CACHE_MAX_AGE_MS = 60 * 60 * 1000;
/** GET /v3/translation_memories `page_size`: bounds and default (the interface leaves them open; the public description's). */
export const MAX_TRANSLATION_MEMORIES_PAGE_SIZE = 25;
export const DEFAULT_TRANSLATION_MEMORIES_PAGE_SIZE = 10;
/** Custom instruction `label` on a style rule list: maximum length in characters (the public description's). */
export const MAX_CUSTOM_INSTRUCTION_LABEL_LENGTH = 100;
