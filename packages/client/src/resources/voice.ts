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
} from '@glossa/protocol';
import WebSocket from 'ws';
import { type FileInput, loadFile } from '../files.js';
import type { RequestOptions } from '../options.js';
import { requestOptionsOf } from '../translate.js';
import type { Transport } from '../transport.js';
import { idSegment, requireString, toWire } from '../wire-names.js';

export interface VoiceSessionOptions extends RequestOptions {
  /** e.g. `audio/pcm;encoding=s16le;rate=16000`, `audio/wav`. */
  sourceMediaContentType: string;
  sourceLanguage?: string | undefined;
  targetLanguages?: string[] | undefined;
  spokenTermsId?: string | undefined;
  formality?: TranslateRequest['formality'] | undefined;
  glossaryId?: string | undefined;
  /** `audio/wav`: the server also sends synthesized speech of each translation (`speech` messages). */
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
}

function spokenTermsBody(input: SpokenTermsInput) {
  requireString('name', input?.name);
  requireString('language', input.language);
  if (!Array.isArray(input.terms) || input.terms.some((term) => typeof term !== 'string')) {
    throw new TypeError('Expected `terms` to be an array of strings');
  }
  return { name: input.name, language: input.language, terms: input.terms };
}
