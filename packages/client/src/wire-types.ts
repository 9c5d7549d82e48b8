/**
 * Wire types of the endpoints `@glossa/protocol` does not export yet, written from
 * `wire-decisions.md`. Each is replaced by a re-export from the protocol as its schema lands there.
 * Every object allows fields beyond those listed (forward compatibility): they pass through untouched.
 */

export interface Improvement {
  text: string;
  detected_source_language: string;
  target_language: string;
}
export interface WriteResponse {
  improvements: Improvement[];
}

export interface DetectionResult {
  detection_status: 'success' | 'insufficient_confidence' | 'unsupported_language' | 'no_language_detected';
  detected_language?: string;
}
export interface DetectResponse {
  results: DetectionResult[];
}

export interface GlossaryV2 {
  glossary_id: string;
  name: string;
  ready: boolean;
  source_lang: string;
  target_lang: string;
  creation_time: string;
  entry_count: number;
}
export interface DictionaryInfo {
  source_lang: string;
  target_lang: string;
  entry_count: number;
}
export interface Glossary {
  glossary_id: string;
  name: string;
  dictionaries: DictionaryInfo[];
  creation_time: string;
}
export interface GlossaryEntriesResponse {
  dictionaries: { source_lang: string; target_lang: string; entries: string; entries_format: 'tsv' }[];
}

export interface CustomInstruction {
  id: string;
  label: string;
  prompt: string;
  source_language?: string;
}
export type ConfiguredRules = Record<string, Record<string, string>>;
export interface StyleRuleList {
  style_id: string;
  name: string;
  creation_time: string;
  updated_time: string;
  language: string;
  version: number;
  configured_rules?: ConfiguredRules;
  custom_instructions?: CustomInstruction[];
}

export interface TranslationMemory {
  translation_memory_id: string;
  name: string;
  source_language: string;
  target_languages: string[];
  segment_count: number;
}
export interface TranslationMemoryList {
  translation_memories: TranslationMemory[];
  total_count: number;
}
export interface MemorySegment {
  source_segment_id: string;
  source_text: string;
  targets: { target_segment_id: string; target_language: string; target_text: string }[];
}
export interface MemorySegmentPage {
  segments: MemorySegment[];
  segment_count: number;
  next_page_cursor: string | null;
}
export type MemoryJobStatus =
  | 'awaiting_input'
  | 'processing'
  | 'completed'
  | 'downloaded'
  | 'failed'
  | 'expired';
export interface MemoryJobResult {
  status: MemoryJobStatus;
  download_url?: string;
  expires_at?: string;
  error?: { message: string };
  translation_memory_id?: string;
  skipped_segment_count?: number;
}
export interface MemoryJob {
  job_id: string;
  operation: 'import' | 'export';
  creation_time: string;
  updated_time: string;
  parameters: Record<string, unknown>;
  results: MemoryJobResult[];
}
export interface MemoryImportStart {
  job_id: string;
  upload_url: string;
  expires_at: string;
}

export interface DocumentHandle {
  document_id: string;
  document_key: string;
}
export interface DocumentStatus {
  document_id: string;
  status: 'queued' | 'translating' | 'done' | 'error';
  seconds_remaining?: number;
  billed_characters?: number;
  error_message?: string;
}

export interface QualitySegment {
  source: string;
  translation: string;
}
export interface QualityIssue {
  category: string;
  severity: 'minor' | 'major' | 'critical';
  message: string;
  start: number;
  end: number;
}
export interface QualityResponse {
  segments: { issues: QualityIssue[] }[];
}

export interface VoiceSession {
  streaming_url: string;
  token: string;
  session_id: string;
}
export interface SpokenTerms {
  spoken_terms_id: string;
  name: string;
  language: string;
  terms: string[];
}
export interface VoiceJobStatus {
  job_id: string;
  status: 'queued' | 'processing' | 'done' | 'error';
  error_message?: string;
}
export interface VoiceJobResult {
  transcript: string;
  translations: { target_language: string; text: string }[];
}
