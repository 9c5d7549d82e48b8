/**
 * The stored rows of voice (both job interfaces and spoken terms), as both backends return them
 * (`voice.sqlite`, fleet-store.ts), and the directory of job files: the leaf the job, store and route
 * modules share, so none of them imports another for its types.
 */
import { join } from 'node:path';
import type { ServiceContext } from '@glossa/server/feature';

/** A `/v3/voice/jobs` job's record (`voice_jobs`): its request; its state is the runner's. */
export interface JobRow {
  id: string;
  account_id: string;
  key_id: string;
  custom_tag: string;
  /**
   * `queued`: written, not handed to the job runner yet; `done`: handed over (its state is the runner's
   * job's). Rows of a version before the runner: also `processing`, and `done` or `error` with `result` or
   * `error_message`.
   */
  status: 'queued' | 'processing' | 'done' | 'error';
  source: string;
  targets: string;
  input_type: string;
  /** JSON array: the collection's terms when the job was created. */
  spoken_terms: string;
  glossary_id: string | null;
  /** Only on rows finished before the runner (see `status`). */
  error_message?: string | null;
  result?: string | null;
  created_at: string;
}

/**
 * A `/v1/jobs/voice/translate` job's record (`voice_translate_jobs`). `status`: `pending` (no audio yet),
 * `uploaded` (not handed to the job runner yet), `done` (handed over: its state is the runner's job's, and
 * `results` marks the results downloaded). Rows of a version before the runner: also `processing`, and
 * `done` with their `results`.
 */
export interface TranslateRow {
  id: string;
  account_id: string;
  key_id: string;
  custom_tag: string;
  status: 'pending' | 'uploaded' | 'processing' | 'done';
  file_name: string;
  content_type: string;
  content_length: number;
  source_language: string;
  source_given: number;
  targets: string;
  results: string;
  created_at: string;
  updated_at: string;
}

/**
 * What a `/v3/voice/jobs` job was asked: the input of its runner job (`voice/transcribe`); its account is
 * the job's.
 */
export interface TranscribeInput {
  readonly keyId: string;
  readonly customTag: string;
  readonly source: string;
  readonly targets: readonly string[];
  readonly inputType: string;
  /** The collection's terms when the job was created. */
  readonly spokenTerms: readonly string[];
  readonly glossaryId?: string | undefined;
}

/** A target of a translation job: a language and the type of its result. */
export interface TargetSpec {
  language: string;
  type: string;
}

/** What a `/v1/jobs/voice/translate` job was asked: the input of its runner job (`voice/translate`). */
export interface TranslateInput {
  readonly keyId: string;
  readonly customTag: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly contentLength: number;
  readonly source: string;
  /** Whether the request named the source language (the status repeats it then). */
  readonly sourceGiven: boolean;
  readonly targets: readonly TargetSpec[];
}

/** A spoken-term collection (`spoken_terms`). */
export interface SpokenTermsRow {
  id: string;
  name: string;
  language: string;
  terms: string;
  created_at: string;
}

/** Where an embedded server keeps the jobs' files (and a fleet the audio handed to ffmpeg). */
export const jobDir = (context: ServiceContext) => join(context.options.dataDir, 'voice-jobs');
