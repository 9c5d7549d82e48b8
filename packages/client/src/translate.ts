import type { TranslateRequest, TranslateResponse, Translation } from '@glossa/protocol';
import { GlossaError } from './errors.js';
import type { RequestOptions } from './options.js';
import type { Transport } from './transport.js';
import { requireString, textList, toWire } from './wire-names.js';

type Wire = TranslateRequest;

/** Options of `translateText`: the camelCase form of every `/v2/translate` parameter, plus per-call options. */
export interface TranslateTextOptions extends RequestOptions {
  targetLang: string;
  sourceLang?: string | undefined;
  context?: string | undefined;
  showBilledCharacters?: boolean | undefined;
  splitSentences?: Wire['split_sentences'] | undefined;
  preserveFormatting?: boolean | undefined;
  formality?: Wire['formality'] | undefined;
  modelType?: Wire['model_type'] | undefined;
  glossaryId?: string | undefined;
  glossaryIds?: string[] | undefined;
  styleId?: string | undefined;
  translationMemoryId?: string | undefined;
  translationMemoryThreshold?: number | undefined;
  showTranslationMemoryMatches?: boolean | undefined;
  customInstructions?: string[] | undefined;
  tagHandling?: Wire['tag_handling'] | undefined;
  tagHandlingVersion?: Wire['tag_handling_version'] | undefined;
  outlineDetection?: boolean | undefined;
  splittingTags?: string | string[] | undefined;
  nonSplittingTags?: string | string[] | undefined;
  ignoreTags?: string | string[] | undefined;
}

const TRANSLATE_PARAMETERS = [
  'targetLang',
  'sourceLang',
  'context',
  'showBilledCharacters',
  'splitSentences',
  'preserveFormatting',
  'formality',
  'modelType',
  'glossaryId',
  'glossaryIds',
  'styleId',
  'translationMemoryId',
  'translationMemoryThreshold',
  'showTranslationMemoryMatches',
  'customInstructions',
  'tagHandling',
  'tagHandlingVersion',
  'outlineDetection',
  'splittingTags',
  'nonSplittingTags',
  'ignoreTags',
] as const satisfies readonly Exclude<keyof TranslateTextOptions, keyof RequestOptions>[];

/** The wire body of a translate call. Unknown option keys are ignored. */
export function translateBody(texts: string[], options: TranslateTextOptions): TranslateRequest {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('Expected translate options with `targetLang`');
  }
  requireString('targetLang', options.targetLang);
  return { text: texts, ...toWire(options, TRANSLATE_PARAMETERS) } as TranslateRequest;
}

export function requestOptionsOf(options: RequestOptions | undefined): RequestOptions {
  const picked: RequestOptions = {};
  if (options?.signal !== undefined) picked.signal = options.signal;
  if (options?.timeout !== undefined) picked.timeout = options.timeout;
  if (options?.maxRetries !== undefined) picked.maxRetries = options.maxRetries;
  if (options?.headers !== undefined) picked.headers = options.headers;
  return picked;
}

/** Full response of `/v2/translate` (with the top-level `billed_characters` when asked). */
export async function translateRaw(
  transport: Transport,
  texts: string | readonly string[],
  options: TranslateTextOptions,
): Promise<TranslateResponse> {
  const body = translateBody(textList('texts', texts), options);
  const response = await transport.request<TranslateResponse>({
    method: 'POST',
    path: '/v2/translate',
    json: body,
    options: requestOptionsOf(options),
  });
  if (
    !response ||
    !Array.isArray(response.translations) ||
    response.translations.length !== body.text.length
  ) {
    throw new GlossaError(
      `POST /v2/translate returned ${response?.translations?.length ?? 'no'} translations for ${body.text.length} texts`,
      { code: 'invalid_response' },
    );
  }
  return response;
}

export type { Translation };
