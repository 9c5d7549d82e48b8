/**
 * The inputs of both voice job kinds: the leaf the job and route modules share, so none of them imports
 * another for its types.
 */

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
  /** When the job was created (its audio is uploaded later). */
  readonly createdAt: string;
}
