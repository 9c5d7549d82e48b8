/**
 * What core needs from a translation service: `GlossaClient` from @glossa/client satisfies it, and so
 * does anything else that speaks POST /v2/translate.
 */
import type { TranslateRequest, Translation } from '@glossa/protocol';

/** Request options core sends (the camelCase names of @glossa/client). */
export interface TranslationRequestOptions {
  readonly targetLang: string;
  readonly sourceLang?: string;
  readonly context?: string;
  readonly formality?: TranslateRequest['formality'];
  readonly modelType?: TranslateRequest['model_type'];
  readonly glossaryId?: string;
  readonly styleId?: string;
  readonly translationMemoryId?: string;
  readonly translationMemoryThreshold?: number;
  readonly customInstructions?: string[];
  readonly tagHandling?: TranslateRequest['tag_handling'];
  readonly tagHandlingVersion?: TranslateRequest['tag_handling_version'];
  readonly ignoreTags?: string[];
  readonly showBilledCharacters?: boolean;
}

export interface Translator {
  /** One translation per text, in order. */
  translateText(texts: string[], options: TranslationRequestOptions): Promise<readonly Translation[]>;
}

const WIRE_NAMES: Record<keyof TranslationRequestOptions, string> = {
  targetLang: 'target_lang',
  sourceLang: 'source_lang',
  context: 'context',
  formality: 'formality',
  modelType: 'model_type',
  glossaryId: 'glossary_id',
  styleId: 'style_id',
  translationMemoryId: 'translation_memory_id',
  translationMemoryThreshold: 'translation_memory_threshold',
  customInstructions: 'custom_instructions',
  tagHandling: 'tag_handling',
  tagHandlingVersion: 'tag_handling_version',
  ignoreTags: 'ignore_tags',
  showBilledCharacters: 'show_billed_characters',
};

/** The JSON body a client sends for these options, without `text` (used to size requests). */
export function wireOptions(options: TranslationRequestOptions): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [name, wireName] of Object.entries(WIRE_NAMES)) {
    const value = (options as unknown as Record<string, unknown>)[name];
    if (value !== undefined) wire[wireName] = value;
  }
  return wire;
}

/** A stable string for grouping: equal for equal options whatever the key order. */
export function optionsKey(options: TranslationRequestOptions): string {
  const wire = wireOptions(options);
  return JSON.stringify(
    Object.keys(wire)
      .sort()
      .map((k) => [k, wire[k]]),
  );
}
