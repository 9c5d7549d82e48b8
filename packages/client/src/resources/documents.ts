/**
 * Document translation (`/v2/document`): upload (multipart), status, download (once), and
 * `translate(input, output)` which does all three, polling with backoff.
 */

import type {
  DocumentExtension,
  DocumentStatusResponse,
  TranslateRequest,
  UploadDocumentResponse,
} from '@glossa/protocol';
import { JobFailedError } from '../errors.js';
import { type FileInput, loadFile, writeFileAtomic } from '../files.js';
import type { RequestOptions } from '../options.js';
import { type PollOptions, pollUntilDone } from '../polling.js';
import { requestOptionsOf } from '../translate.js';
import type { Transport } from '../transport.js';
import { idSegment, requireString, toWire } from '../wire-names.js';

export interface UploadDocumentOptions extends RequestOptions {
  targetLang: string;
  sourceLang?: string | undefined;
  /** Needed when the input is a Buffer: its extension names the format (`page.html`). */
  fileName?: string | undefined;
  /** Another format to return (`docx` for a `pdf`, ...). */
  outputFormat?: DocumentExtension | undefined;
  formality?: TranslateRequest['formality'] | undefined;
  glossaryId?: string | undefined;
  glossaryIds?: string[] | undefined;
  styleId?: string | undefined;
  translationMemoryId?: string | undefined;
  translationMemoryThreshold?: number | undefined;
}

export type TranslateDocumentOptions = UploadDocumentOptions & Omit<PollOptions, 'signal'>;

const UPLOAD_FIELDS = [
  'targetLang',
  'sourceLang',
  'outputFormat',
  'formality',
  'glossaryId',
  'glossaryIds',
  'styleId',
  'translationMemoryId',
  'translationMemoryThreshold',
] as const;

function handleBody(handle: UploadDocumentResponse) {
  requireString('document_key', handle?.document_key);
  return { document_key: handle.document_key };
}

export class Documents {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Upload a file for translation; keep the handle to ask for its status and result. */
  async upload(input: FileInput, options: UploadDocumentOptions): Promise<UploadDocumentResponse> {
    requireString('targetLang', options?.targetLang);
    const file = await loadFile(input, options.fileName);
    const form = new FormData();
    for (const [name, value] of Object.entries(toWire(options, UPLOAD_FIELDS))) {
      form.append(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    form.append('file', new Blob([file.bytes]), file.fileName);
    return this.#transport.request<UploadDocumentResponse>({
      method: 'POST',
      path: '/v2/document',
      form,
      options: requestOptionsOf(options),
    });
  }

  async getStatus(handle: UploadDocumentResponse, options?: RequestOptions): Promise<DocumentStatusResponse> {
    return this.#transport.request<DocumentStatusResponse>({
      method: 'POST',
      path: `/v2/document/${idSegment('document_id', handle?.document_id)}`,
      json: handleBody(handle),
      options: requestOptionsOf(options),
    });
  }

  /** The translated file. It can be downloaded once; the service then deletes the document. */
  async download(handle: UploadDocumentResponse, options?: RequestOptions): Promise<Buffer> {
    return this.#transport.request<Buffer>({
      method: 'POST',
      path: `/v2/document/${idSegment('document_id', handle?.document_id)}/result`,
      json: handleBody(handle),
      accept: '*/*',
      expect: 'bytes',
      options: requestOptionsOf(options),
    });
  }

  /** Poll until the document is done (resolves to its last status) or failed (`JobFailedError`). */
  async waitUntilDone(
    handle: UploadDocumentResponse,
    options: RequestOptions & Omit<PollOptions, 'signal'> = {},
  ): Promise<DocumentStatusResponse> {
    const status = await pollUntilDone(`Document ${handle.document_id}`, options, async () => {
      const current = await this.getStatus(handle, requestOptionsOf(options));
      const seconds = current.seconds_remaining;
      return {
        done: current.status === 'done' || current.status === 'error',
        value: current,
        hintMs: typeof seconds === 'number' ? seconds * 1000 : undefined,
      };
    });
    if (status.status === 'error') {
      throw new JobFailedError(
        `Document ${handle.document_id} failed: ${status.error_message ?? 'no reason given'}`,
        handle.document_id,
      );
    }
    return status;
  }

  /**
   * Upload `input`, wait until translated, and write the result to `output` through a temporary file
   * that is renamed into place: on any failure the partial file is deleted and an existing `output` is
   * left untouched.
   */
  async translate(
    input: FileInput,
    output: string,
    options: TranslateDocumentOptions,
  ): Promise<DocumentStatusResponse> {
    requireString('output', output);
    const handle = await this.upload(input, options);
    const status = await this.waitUntilDone(handle, options);
    const bytes = await this.download(handle, requestOptionsOf(options));
    await writeFileAtomic(output, bytes);
    return status;
  }
}
