export type * from '@glossa/protocol';
export { GlossaClient } from './client.js';
export * from './errors.js';
export type { FileInput } from './files.js';
export {
  type ClientOptions,
  checkReportingTag,
  DEFAULT_FREE_SERVER_URL,
  DEFAULT_SERVER_URL,
  isFreeKey,
  type Logger,
  type RequestOptions,
} from './options.js';
export type { PollOptions } from './polling.js';
export type { Documents, TranslateDocumentOptions, UploadDocumentOptions } from './resources/documents.js';
export type { DictionaryEntries, DictionarySpec, Glossaries } from './resources/glossaries.js';
export type { CreateGlossaryV2Options, GlossariesV2 } from './resources/glossaries-v2.js';
export {
  decodeGlossaryEntries,
  encodeGlossaryEntries,
  formatGlossaryCsv,
  type GlossaryEntries,
  type GlossaryEntry,
  glossaryEntriesToMap,
  parseGlossaryFile,
} from './resources/glossary-entries.js';
export type {
  CorrectOptions,
  EvaluateQualityOptions,
  QualityEvaluationOptions,
  QualityEvaluationSegment,
  QualitySegment,
  RephraseOptions,
} from './resources/language-tools.js';
export type { GetLanguagesOptions } from './resources/languages.js';
export type {
  ExportMemoryOptions,
  ImportMemoryOptions,
  ListMemoriesOptions,
  MemorySegmentsOptions,
  TranslationMemories,
} from './resources/memories.js';
export type {
  CreateStyleRuleListOptions,
  CustomInstructionInput,
  ListStyleRulesOptions,
  StyleRules,
} from './resources/style-rules.js';
export type { CustomTagUsageOptions } from './resources/usage.js';
export type {
  SpokenTermsInput,
  Voice,
  VoiceJobOptions,
  VoiceSessionOptions,
  VoiceTranslateJobOptions,
  VoiceTranslateTarget,
} from './resources/voice.js';
export {
  backoffCeiling,
  computeRetryDelay,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  type RetryPolicy,
} from './retry.js';
export type { TranslateTextOptions } from './translate.js';
export { type StreamVoiceOptions, streamVoice, type VoiceAudio, VoiceStreamError } from './voice-stream.js';
