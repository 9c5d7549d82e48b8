/** The inputs of both voice job kinds: a leaf module, so that the job and route modules share their types. */

/** What a `/v3/voice/jobs` job was asked (its account: the job's): the input of `voice/transcribe`. */
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
  /** Each a language and the type of its result. */
  readonly targets: readonly { readonly language: string; readonly type: string }[];
}
