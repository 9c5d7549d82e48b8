import { type Static, Type } from '@sinclair/typebox';
import { LanguageCode, TagList, Uuid } from './common.js';
import {
  MAX_CUSTOM_INSTRUCTION_LENGTH,
  MAX_GLOSSARY_IDS,
  MAX_TRANSLATE_CUSTOM_INSTRUCTIONS,
  MAX_TRANSLATION_MEMORY_THRESHOLD,
  MIN_TRANSLATION_MEMORY_THRESHOLD,
} from './limits.js';

export const FORMALITIES = ['default', 'more', 'less', 'prefer_more', 'prefer_less'] as const;
export const MODEL_TYPES = ['quality_optimized', 'prefer_quality_optimized', 'latency_optimized'] as const;
export const SPLIT_SENTENCES = ['0', '1', 'nonewlines'] as const;
export const TAG_HANDLINGS = ['xml', 'html'] as const;
export const TAG_HANDLING_VERSIONS = ['v1', 'v2'] as const;
export const DEFAULT_TAG_HANDLING_VERSION = 'v1';

/** Header carrying the custom reporting tag (wire decisions). */
export const REPORTING_TAG_HEADER = 'x-service-reporting-tag';

/** POST /v2/translate body. Cross-field rules (glossary_id vs glossary_ids, ...) are in `checkTranslateRules`. */
export const TranslateRequest = Type.Object(
  {
    text: Type.Array(Type.String(), { minItems: 1, description: 'texts, translated independently' }),
    target_lang: LanguageCode,
    enable_beta_languages: Type.Optional(
      Type.Boolean({ description: 'accepted for compatibility with the public protocol; no effect' }),
    ),
    source_lang: Type.Optional(LanguageCode),
    context: Type.Optional(
      Type.String({ description: 'influences translation; not translated, not billed' }),
    ),
    show_billed_characters: Type.Optional(Type.Boolean()),
    split_sentences: Type.Optional(Type.Union(SPLIT_SENTENCES.map((v) => Type.Literal(v)))),
    preserve_formatting: Type.Optional(Type.Boolean()),
    formality: Type.Optional(Type.Union(FORMALITIES.map((v) => Type.Literal(v)))),
    model_type: Type.Optional(Type.Union(MODEL_TYPES.map((v) => Type.Literal(v)))),
    glossary_id: Type.Optional(Uuid),
    glossary_ids: Type.Optional(Type.Array(Uuid, { maxItems: MAX_GLOSSARY_IDS })),
    style_id: Type.Optional(Uuid),
    translation_memory_id: Type.Optional(Uuid),
    translation_memory_threshold: Type.Optional(
      Type.Integer({ minimum: MIN_TRANSLATION_MEMORY_THRESHOLD, maximum: MAX_TRANSLATION_MEMORY_THRESHOLD }),
    ),
    show_translation_memory_matches: Type.Optional(Type.Boolean()),
    custom_instructions: Type.Optional(
      Type.Array(Type.String({ maxLength: MAX_CUSTOM_INSTRUCTION_LENGTH }), {
        maxItems: MAX_TRANSLATE_CUSTOM_INSTRUCTIONS,
      }),
    ),
    tag_handling: Type.Optional(Type.Union(TAG_HANDLINGS.map((v) => Type.Literal(v)))),
    tag_handling_version: Type.Optional(Type.Union(TAG_HANDLING_VERSIONS.map((v) => Type.Literal(v)))),
    outline_detection: Type.Optional(Type.Boolean()),
    splitting_tags: Type.Optional(TagList),
    non_splitting_tags: Type.Optional(TagList),
    ignore_tags: Type.Optional(TagList),
  },
  { $id: 'TranslateRequest', additionalProperties: false },
);
export type TranslateRequest = Static<typeof TranslateRequest>;

export const TextRange = Type.Object({ start: Type.Integer(), end: Type.Integer() });

export const TranslationMemoryMatch = Type.Object({
  translation_memory_id: Type.String(),
  segment_id: Type.String(),
  match_score: Type.Integer({ minimum: 0, maximum: 100 }),
  text_ranges: Type.Array(TextRange),
});
export type TranslationMemoryMatch = Static<typeof TranslationMemoryMatch>;

export const Translation = Type.Object({
  detected_source_language: Type.String(),
  text: Type.String(),
  billed_characters: Type.Optional(Type.Integer({ minimum: 0 })),
  model_type_used: Type.Optional(Type.String()),
  tag_handling_version: Type.Optional(Type.Union(TAG_HANDLING_VERSIONS.map((v) => Type.Literal(v)))),
  customizations: Type.Optional(
    Type.Object({ translation_memory_matches: Type.Optional(Type.Array(TranslationMemoryMatch)) }),
  ),
});
export type Translation = Static<typeof Translation>;

export const TranslateResponse = Type.Object(
  {
    translations: Type.Array(Translation),
    billed_characters: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { $id: 'TranslateResponse' },
);
export type TranslateResponse = Static<typeof TranslateResponse>;

/**
 * The cross-field rules of POST /v2/translate that a schema cannot say. Returns the first violation's
 * message, or `undefined`. Language support (formality per target, custom instruction targets) is
 * checked by the server against its engines and the language tables.
 */
export function checkTranslateRules(request: TranslateRequest): string | undefined {
  if (request.glossary_id !== undefined && request.glossary_ids !== undefined) {
    return "Use either 'glossary_id' or 'glossary_ids', not both.";
  }
  if ((request.glossary_id !== undefined || request.glossary_ids !== undefined) && !request.source_lang) {
    return "'source_lang' is required when a glossary is used.";
  }
  if (request.show_translation_memory_matches && request.translation_memory_id === undefined) {
    return "'show_translation_memory_matches' requires 'translation_memory_id'.";
  }
  return undefined;
}
