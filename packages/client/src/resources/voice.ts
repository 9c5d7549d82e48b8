/**
 * Voice: the realtime session request (REST), the WebSocket it leads to, spoken-term collections and the
 * asynchronous voice jobs (alpha).
 */

import type {
  SpokenTerms,
  SpokenTermsList,
  TranslateRequest,
  VoiceJob,
  VoiceJobResult,
  VoiceSessionResponse,
  VoiceTranslateCreateJobResponse,
  VoiceTranslateJobStatusResponse,
} from '@glossa/protocol';
import WebSocket from 'ws';
import { JobFailedError } from '../errors.js';
import { type FileInput, loadFile } from '../files.js';
import type { RequestOptions } from '../options.js';
import { type PollOptions, pollUntilDone } from '../polling.js';
import { requestOptionsOf } from '../translate.js';
import type { Transport } from '../transport.js';
import { idSegment, requireString, toWire } from '../wire-names.js';

export interface VoiceSessionOptions extends RequestOptions {
  /** One of the declared types, e.g. `audio/pcm;encoding=s16le;rate=16000`, `audio/ogg;codecs=opus`, `audio/auto`. */
  sourceMediaContentType: string;
  sourceLanguage?: string | undefined;
  targetLanguages?: string[] | undefined;
  spokenTermsId?: string | undefined;
  formality?: TranslateRequest['formality'] | undefined;
  glossaryId?: string | undefined;
  /** A declared speech type (e.g. `audio/mpeg`): the server also sends synthesized speech of each translation. */
  targetMediaContentType?: string | undefined;
}

export interface VoiceJobOptions extends RequestOptions {
  sourceLanguage: string;
  targetLanguages: string[];
  fileName?: string | undefined;
  /** A spoken-term collection of the account: its words are recognised, its terms kept as written. */
  spokenTermsId?: string | undefined;
  /** A glossary of the account with a dictionary for the source and every target. */
  glossaryId?: string | undefined;
}

export interface SpokenTermsInput {
  name: string;
  language: string;
  terms: string[];
}

/** One result a voice translation job makes: the language and `text/plain`, `application/x-subrip` or a speech type. */
export interface VoiceTranslateTarget {
  language: string;
  type: string;
}

export interface VoiceTranslateJobOptions extends RequestOptions {
  /** The audio's declared content type, e.g. `audio/mpeg`, `audio/ogg;codecs=opus`, `audio/auto`. */
  contentType: string;
  targets: VoiceTranslateTarget[];
  /** Detected when absent. */
  sourceLanguage?: string | undefined;
  /** The file name to send for a Buffer input. */
  fileName?: string | undefined;
}

type VoiceTranslateResult = VoiceTranslateJobStatusResponse['results'][number];
const FINISHED_RESULTS = new Set(['complete', 'downloaded', 'failed']);

const SESSION_FIELDS = [
  'sourceMediaContentType',
  'sourceLanguage',
  'targetLanguages',
  'spokenTermsId',
  'formality',
  'glossaryId',
  'targetMediaContentType',
] as const;

export class Voice {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** `POST /v3/voice/realtime`: a streaming URL with a single-use, short-lived token. */
  async createSession(options: VoiceSessionOptions): Promise<VoiceSessionResponse> {
    requireString('sourceMediaContentType', options?.sourceMediaContentType);
    return this.#transport.request<VoiceSessionResponse>({
      method: 'POST',
      path: '/v3/voice/realtime',
      json: toWire(options, SESSION_FIELDS),
      options: requestOptionsOf(options),
    });
  }

  /**
   * `GET /v3/voice/realtime?token=`: a fresh single-use token (and streaming URL) for the session of `token`
   * (used or expired), to resume after a dropped connection. The session must be idle and the caller's.
   */
  async reconnectSession(token: string, options?: RequestOptions): Promise<VoiceSessionResponse> {
    return this.#transport.request<VoiceSessionResponse>({
      method: 'GET',
      path: '/v3/voice/realtime',
      query: { token: requireString('token', token) },
      options: requestOptionsOf(options),
    });
  }

  /** Open the session's WebSocket (the token in its URL authorizes it; no key is sent). */
  connect(session: VoiceSessionResponse): WebSocket {
    return new WebSocket(requireString('streaming_url', session?.streaming_url));
  }

  async createSpokenTerms(input: SpokenTermsInput, options?: RequestOptions): Promise<SpokenTerms> {
    return this.#transport.request<SpokenTerms>({
      method: 'POST',
      path: '/v3/voice/spoken_terms',
      json: spokenTermsBody(input),
      options: requestOptionsOf(options),
    });
  }

  async listSpokenTerms(options?: RequestOptions): Promise<SpokenTerms[]> {
    const response = await this.#transport.request<SpokenTermsList>({
      method: 'GET',
      path: '/v3/voice/spoken_terms',
      options: requestOptionsOf(options),
    });
    return response.spoken_terms;
  }

  async getSpokenTerms(id: string, options?: RequestOptions): Promise<SpokenTerms> {
    return this.#transport.request<SpokenTerms>({
      method: 'GET',
      path: `/v3/voice/spoken_terms/${idSegment('spokenTermsId', id)}`,
      options: requestOptionsOf(options),
    });
  }

  async replaceSpokenTerms(
    id: string,
    input: SpokenTermsInput,
    options?: RequestOptions,
  ): Promise<SpokenTerms> {
    return this.#transport.request<SpokenTerms>({
      method: 'PUT',
      path: `/v3/voice/spoken_terms/${idSegment('spokenTermsId', id)}`,
      json: spokenTermsBody(input),
      options: requestOptionsOf(options),
    });
  }

  async deleteSpokenTerms(id: string, options?: RequestOptions): Promise<void> {
    await this.#transport.request<void>({
      method: 'DELETE',
      path: `/v3/voice/spoken_terms/${idSegment('spokenTermsId', id)}`,
      expect: 'none',
      options: requestOptionsOf(options),
    });
  }

  /**
   * Alpha: start an asynchronous transcription and translation of an audio file; `spokenTermsId` and
   * `glossaryId` work as on a session.
   */
  async createJob(input: FileInput, options: VoiceJobOptions): Promise<{ job_id: string }> {
    const file = await loadFile(input, options.fileName);
    const form = new FormData();
    form.append('source_language', requireString('sourceLanguage', options.sourceLanguage));
    form.append('target_languages', (options.targetLanguages ?? []).join(','));
    if (options.spokenTermsId !== undefined)
      form.append('spoken_terms_id', requireString('spokenTermsId', options.spokenTermsId));
    if (options.glossaryId !== undefined)
      form.append('glossary_id', requireString('glossaryId', options.glossaryId));
    form.append('file', new Blob([file.bytes]), file.fileName);
    return this.#transport.request<{ job_id: string }>({
      method: 'POST',
      path: '/v3/voice/jobs',
      form,
      options: requestOptionsOf(options),
    });
  }

  async getJob(jobId: string, options?: RequestOptions): Promise<VoiceJob> {
    return this.#transport.request<VoiceJob>({
      method: 'GET',
      path: `/v3/voice/jobs/${idSegment('jobId', jobId)}`,
      options: requestOptionsOf(options),
    });
  }

  async getJobResult(jobId: string, options?: RequestOptions): Promise<VoiceJobResult> {
    return this.#transport.request<VoiceJobResult>({
      method: 'GET',
      path: `/v3/voice/jobs/${idSegment('jobId', jobId)}/result`,
      options: requestOptionsOf(options),
    });
  }

  /**
   * POST /v1/jobs/voice/translate (alpha): a job for a file of `sourceFile.contentLength` bytes; the answer
   * holds the signed upload URL (`signed_upload_url`) for `uploadTranslateSource`.
   */
  async createTranslateJob(
    sourceFile: { name: string; contentType: string; contentLength: number },
    options: Omit<VoiceTranslateJobOptions, 'contentType' | 'fileName'>,
  ): Promise<VoiceTranslateCreateJobResponse> {
    if (!Array.isArray(options?.targets) || options.targets.length === 0) {
      throw new TypeError('Expected `targets` to be a non-empty array of {language, type}');
    }
    return this.#transport.request<VoiceTranslateCreateJobResponse>({
      method: 'POST',
      path: '/v1/jobs/voice/translate',
      query: { include: ['signed_url'] },
      json: {
        source_file: {
          name: requireString('name', sourceFile?.name),
          content_type: requireString('contentType', sourceFile.contentType),
          content_length: sourceFile.contentLength,
        },
        ...(options.sourceLanguage !== undefined && {
          parameters: { source_language: requireString('sourceLanguage', options.sourceLanguage) },
        }),
        targets: options.targets.map(({ language, type }) => ({ language, type })),
      },
      options: requestOptionsOf(options),
    });
  }

  /** PUT the audio to the job's signed upload URL (no key is sent there). */
  async uploadTranslateSource(
    job: VoiceTranslateCreateJobResponse,
    bytes: Uint8Array,
    contentType: string,
    options?: RequestOptions,
  ): Promise<void> {
    const url = requireString('signed_upload_url', job?.signed_upload_url);
    await this.#transport.request<void>({
      method: 'PUT',
      url: new URL(url, this.#transport.baseUrl).href,
      raw: { body: bytes, contentType },
      expect: 'none',
      options: requestOptionsOf(options),
    });
  }

  /** GET /v1/jobs/voice/translate/{job_id}: the job, with each target's result and its signed download URL. */
  async getTranslateJob(jobId: string, options?: RequestOptions): Promise<VoiceTranslateJobStatusResponse> {
    return this.#transport.request<VoiceTranslateJobStatusResponse>({
      method: 'GET',
      path: `/v1/jobs/voice/translate/${idSegment('jobId', jobId)}`,
      query: { include: ['signed_url'] },
      options: requestOptionsOf(options),
    });
  }

  /** The bytes of one complete result, from its signed download URL. */
  async downloadTranslateResult(result: VoiceTranslateResult, options?: RequestOptions): Promise<Buffer> {
    const url = requireString('signed_download_url', result?.signed_download_url);
    return this.#transport.request<Buffer>({
      method: 'GET',
      url: new URL(url, this.#transport.baseUrl).href,
      expect: 'bytes',
      options: requestOptionsOf(options),
    });
  }

  /**
   * Create a voice translation job for `input` (a path or Buffer), upload it, and poll until every target
   * is finished; resolves to the job (download each `complete` result with `downloadTranslateResult`).
   * A target that failed: `JobFailedError` with its message.
   */
  async translateFile(
    input: FileInput,
    options: VoiceTranslateJobOptions & Omit<PollOptions, 'signal'>,
  ): Promise<VoiceTranslateJobStatusResponse> {
    const file = await loadFile(input, options.fileName);
    const call = requestOptionsOf(options);
    const job = await this.createTranslateJob(
      { name: file.fileName, contentType: options.contentType, contentLength: file.bytes.byteLength },
      options,
    );
    await this.uploadTranslateSource(job, file.bytes, options.contentType, call);
    const status = await pollUntilDone(`Voice translation job ${job.job_id}`, options, async () => {
      const current = await this.getTranslateJob(job.job_id, call);
      return { done: current.results.every((result) => FINISHED_RESULTS.has(result.status)), value: current };
    });
    const failed = status.results.find((result) => result.status === 'failed');
    if (failed) {
      throw new JobFailedError(
        `Voice translation job ${job.job_id} failed: ${failed.error?.message ?? 'no reason given'}`,
        job.job_id,
      );
    }
    return status;
  }
}

function spokenTermsBody(input: SpokenTermsInput) {
  requireString('name', input?.name);
  requireString('language', input.language);
  if (!Array.isArray(input.terms) || input.terms.some((term) => typeof term !== 'string')) {
    throw new TypeError('Expected `terms` to be an array of strings');
  }
  return { name: input.name, language: input.language, terms: input.terms };
}
