import type {
  CustomTagUsage,
  CustomTagUsageResponse,
  DetectResponse,
  DocumentStatusResponse,
  Language,
  LanguageV2,
  QualityEvaluateResponse,
  QualityEvaluationDone,
  QualityEvaluationJobCreated,
  QualityEvaluationPoll,
  Resource,
  ResourceName,
  TranslateResponse,
  Translation,
  UsageResponse,
  WriteResponse,
} from '@glossa/protocol';
import type { FileInput } from './files.js';
import {
  type ClientOptions,
  type RequestOptions,
  type ResolvedClientOptions,
  resolveClientOptions,
} from './options.js';
import type { PollOptions } from './polling.js';
import { Documents, type TranslateDocumentOptions } from './resources/documents.js';
import { Glossaries } from './resources/glossaries.js';
import { GlossariesV2 } from './resources/glossaries-v2.js';
import {
  type CorrectOptions,
  detectLanguage,
  type EvaluateQualityOptions,
  evaluateQuality,
  getQualityEvaluation,
  improveText,
  type QualityEvaluationOptions,
  type RephraseOptions,
  runQualityEvaluation,
  submitQualityEvaluation,
} from './resources/language-tools.js';
import { type GetLanguagesOptions, LanguageLookup } from './resources/languages.js';
import { TranslationMemories } from './resources/memories.js';
import { StyleRules } from './resources/style-rules.js';
import {
  type CustomTagUsageOptions,
  customTagUsage,
  customTagUsagePage,
  getUsage,
} from './resources/usage.js';
import { Voice } from './resources/voice.js';
import { type TranslateTextOptions, translateRaw } from './translate.js';
import { Transport } from './transport.js';

/**
 * A typed client for every endpoint of the Glossa service interface.
 *
 * ```ts
 * const client = new GlossaClient({ authKey: process.env.GLOSSA_API_KEY!, serverUrl: 'http://127.0.0.1:8080' });
 * const result = await client.translateText('Hello', { targetLang: 'es' });
 * ```
 */
export class GlossaClient {
  readonly #config: ResolvedClientOptions;
  readonly #transport: Transport;
  readonly #languages: LanguageLookup;
  /** Glossaries, v3 interface (multilingual, editable): the recommended one. */
  readonly glossaries: Glossaries;
  /** Glossaries, v2 interface (one pair each). */
  readonly glossariesV2: GlossariesV2;
  /** Style rule lists and their custom instructions (paid plans). */
  readonly styleRules: StyleRules;
  /** Translation memories: list, segments, TMX import and export. */
  readonly translationMemories: TranslationMemories;
  /** Document translation: upload, status, download. */
  readonly documents: Documents;
  /** Voice sessions, spoken terms, voice jobs. */
  readonly voice: Voice;

  constructor(options: ClientOptions) {
    this.#config = resolveClientOptions(options);
    this.#transport = new Transport(this.#config);
    this.#languages = new LanguageLookup(this.#transport, this.#config.languagesCacheTtl);
    this.glossaries = new Glossaries(this.#transport);
    this.glossariesV2 = new GlossariesV2(this.#transport);
    this.styleRules = new StyleRules(this.#transport);
    this.translationMemories = new TranslationMemories(this.#transport);
    this.documents = new Documents(this.#transport);
    this.voice = new Voice(this.#transport);
  }

  /** The base URL requests go to (plan-specific unless `serverUrl` was given). */
  get serverUrl(): string {
    return this.#config.baseUrl.href;
  }

  /** Translate one text (resolves to one translation) or several (one per text, in order). */
  translateText(texts: string, options: TranslateTextOptions): Promise<Translation>;
  translateText(texts: readonly string[], options: TranslateTextOptions): Promise<Translation[]>;
  async translateText(
    texts: string | readonly string[],
    options: TranslateTextOptions,
  ): Promise<Translation | Translation[]> {
    const response = await translateRaw(this.#transport, texts, options);
    return typeof texts === 'string' ? response.translations[0]! : response.translations;
  }

  /** The whole `/v2/translate` response, including the top-level `billed_characters` when requested. */
  async translateTextResponse(
    texts: string | readonly string[],
    options: TranslateTextOptions,
  ): Promise<TranslateResponse> {
    return translateRaw(this.#transport, texts, options);
  }

  /** Rewrite texts for clarity, style or tone, in their own language (paid plans). */
  async rephraseText(texts: string | readonly string[], options: RephraseOptions): Promise<WriteResponse> {
    return improveText(this.#transport, 'rephrase', texts, options);
  }

  /** Fix spelling and grammar only (paid plans). */
  async correctText(texts: string | readonly string[], options: CorrectOptions): Promise<WriteResponse> {
    return improveText(this.#transport, 'correct', texts, options);
  }

  /** Detect each text's language (beta; accounts enrolled in it). */
  async detectLanguage(texts: string | readonly string[], options?: RequestOptions): Promise<DetectResponse> {
    return detectLanguage(this.#transport, texts, options);
  }

  /** Languages of a resource with their features; cached (default 1 hour). Unknown codes and keys pass through. */
  async getLanguages(
    resource: ResourceName | (string & {}),
    options?: GetLanguagesOptions,
  ): Promise<Language[]> {
    return this.#languages.getLanguages(resource, options);
  }

  /** Resources and the features each knows; cached like `getLanguages`. */
  async getResources(options?: GetLanguagesOptions): Promise<Resource[]> {
    return this.#languages.getResources(options);
  }

  /** Deprecated by the interface (use `getLanguages`): the v2 source or target language list, cached alike. */
  async getLanguagesV2(type: 'source' | 'target', options?: GetLanguagesOptions): Promise<LanguageV2[]> {
    return this.#languages.getLanguagesV2(type, options);
  }

  /** Forget cached language lookups. */
  clearLanguageCache(): void {
    this.#languages.clear();
  }

  /** Characters used and the limit, for the key and the account. */
  async getUsage(options?: RequestOptions): Promise<UsageResponse> {
    return getUsage(this.#transport, options);
  }

  /** Every custom-tag usage entry of a date range, across all pages (administrators). */
  customTagUsage(options: CustomTagUsageOptions): AsyncGenerator<CustomTagUsage, void, undefined> {
    return customTagUsage(this.#transport, options);
  }

  /** One page of the custom-tag usage report. */
  async customTagUsagePage(options: CustomTagUsageOptions): Promise<CustomTagUsageResponse> {
    return customTagUsagePage(this.#transport, options);
  }

  /** Per-segment quality issues of translations (closed alpha). */
  async evaluateQuality(options: EvaluateQualityOptions): Promise<QualityEvaluateResponse> {
    return evaluateQuality(this.#transport, options);
  }

  /** Submit a quality-evaluation job (closed alpha; `/v1/quality-evaluation`); poll it with `getQualityEvaluation`. */
  async submitQualityEvaluation(options: QualityEvaluationOptions): Promise<QualityEvaluationJobCreated> {
    return submitQualityEvaluation(this.#transport, options);
  }

  /** The state of a quality-evaluation job: `processing`, `done` (the report) or `error`. */
  async getQualityEvaluation(jobId: string, options?: RequestOptions): Promise<QualityEvaluationPoll> {
    return getQualityEvaluation(this.#transport, jobId, options);
  }

  /** Submit a quality-evaluation job and wait for its report (a failed evaluation: `JobFailedError`). */
  async runQualityEvaluation(
    options: QualityEvaluationOptions & Omit<PollOptions, 'signal'>,
  ): Promise<QualityEvaluationDone> {
    return runQualityEvaluation(this.#transport, options);
  }

  /** Translate a document file to `output`: upload, poll with backoff, download; no partial output on failure. */
  async translateDocument(
    input: FileInput,
    output: string,
    options: TranslateDocumentOptions,
  ): Promise<DocumentStatusResponse> {
    return this.documents.translate(input, output, options);
  }
}
