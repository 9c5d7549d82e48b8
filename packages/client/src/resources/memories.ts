/**
 * Translation memories (`/v3/translation_memories`): list, get, delete, page through segments, import a
 * TMX (create the job, PUT the file to the signed `upload_url`, poll the job) and export one to a file.
 */
import {
  type ImportMemoryResponse,
  type MemoryJob,
  type MemoryJobResult,
  type MemorySegment,
  type MemorySegmentsResponse,
  TMX_CONTENT_TYPE,
  type TranslationMemory,
  type TranslationMemoryList,
} from '@glossa/protocol';
import { JobFailedError } from '../errors.js';
import { type FileInput, loadFile, writeFileAtomic } from '../files.js';
import type { RequestOptions } from '../options.js';
import { type PollOptions, pollUntilDone } from '../polling.js';
import { requestOptionsOf } from '../translate.js';
import type { Transport } from '../transport.js';
import { idSegment, requireString } from '../wire-names.js';

export interface ListMemoriesOptions extends RequestOptions {
  page?: number | undefined;
  pageSize?: number | undefined;
}

export interface MemorySegmentsOptions extends RequestOptions {
  /** Segments per page, 1 to 100 (default 50). */
  pageSize?: number | undefined;
  /** Only segments whose text holds this string. */
  filterText?: string | undefined;
}

export interface ImportMemoryOptions extends RequestOptions, Omit<PollOptions, 'signal'> {
  /** Display name of the new memory. Default: the file name. */
  name?: string | undefined;
  /** Needed when the input is a Buffer. */
  fileName?: string | undefined;
}

export type ExportMemoryOptions = RequestOptions & Omit<PollOptions, 'signal'>;

const FINISHED = new Set(['completed', 'downloaded', 'failed', 'expired']);

export class TranslationMemories {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** One page of memories, with the total count. */
  async list(options: ListMemoriesOptions = {}): Promise<TranslationMemoryList> {
    return this.#transport.request<TranslationMemoryList>({
      method: 'GET',
      path: '/v3/translation_memories',
      query: { page: options.page, page_size: options.pageSize },
      options: requestOptionsOf(options),
    });
  }

  async get(memoryId: string, options?: RequestOptions): Promise<TranslationMemory> {
    return this.#transport.request<TranslationMemory>({
      method: 'GET',
      path: `/v3/translation_memories/${idSegment('memoryId', memoryId)}`,
      options: requestOptionsOf(options),
    });
  }

  async delete(memoryId: string, options?: RequestOptions): Promise<void> {
    await this.#transport.request<void>({
      method: 'DELETE',
      path: `/v3/translation_memories/${idSegment('memoryId', memoryId)}`,
      expect: 'none',
      options: requestOptionsOf(options),
    });
  }

  /** Every stored segment, fetched page by page as the iteration goes (`next_page_cursor`). */
  async *segments(
    memoryId: string,
    options: MemorySegmentsOptions = {},
  ): AsyncGenerator<MemorySegment, void, undefined> {
    const path = `/v3/translation_memories/${idSegment('memoryId', memoryId)}/segments`;
    let cursor: string | undefined;
    for (;;) {
      const page: MemorySegmentsResponse = await this.#transport.request<MemorySegmentsResponse>({
        method: 'GET',
        path,
        query: { page_size: options.pageSize, page_cursor: cursor, filter_text: options.filterText },
        options: requestOptionsOf(options),
      });
      yield* page.segments;
      if (!page.next_page_cursor || page.segments.length === 0) return;
      cursor = page.next_page_cursor;
    }
  }

  async getJob(jobId: string, options?: RequestOptions): Promise<MemoryJob> {
    return this.#transport.request<MemoryJob>({
      method: 'GET',
      path: `/v3/translation_memories/jobs/${idSegment('jobId', jobId)}`,
      options: requestOptionsOf(options),
    });
  }

  /** Import a TMX file (path or Buffer) as a new memory; resolves when the job completed. */
  async import(input: FileInput, options: ImportMemoryOptions = {}): Promise<MemoryJobResult> {
    const file = await loadFile(input, options.fileName);
    const call = requestOptionsOf(options);
    const start = await this.#transport.request<ImportMemoryResponse>({
      method: 'POST',
      path: '/v3/translation_memories/import',
      json: {
        source_file: {
          file_name: file.fileName,
          content_length: file.bytes.byteLength,
          content_type: TMX_CONTENT_TYPE,
        },
        parameters: { display_name: options.name ?? file.fileName },
      },
      options: call,
    });
    requireString('upload_url', start?.upload_url);
    await this.#transport.request<void>({
      method: 'PUT',
      url: new URL(start.upload_url, this.#transport.baseUrl).href,
      raw: { body: file.bytes, contentType: TMX_CONTENT_TYPE },
      expect: 'none',
      options: call,
    });
    return this.#waitForJob(start.job_id, options);
  }

  /** Export a memory as TMX to `output` (written atomically); resolves to `output`. */
  async export(memoryId: string, output: string, options: ExportMemoryOptions = {}): Promise<string> {
    requireString('output', output);
    const call = requestOptionsOf(options);
    const job = await this.#transport.request<{ job_id: string }>({
      method: 'POST',
      path: `/v3/translation_memories/${idSegment('memoryId', memoryId)}/export`,
      options: call,
    });
    const result = await this.#waitForJob(job.job_id, options);
    if (!result.download_url) {
      throw new JobFailedError(`Export job ${job.job_id} completed without a download_url`, job.job_id);
    }
    const bytes = await this.#transport.request<Buffer>({
      method: 'GET',
      url: new URL(result.download_url, this.#transport.baseUrl).href,
      accept: `${TMX_CONTENT_TYPE}, application/xml, */*`,
      expect: 'bytes',
      options: call,
    });
    await writeFileAtomic(output, bytes);
    return output;
  }

  async #waitForJob(jobId: string, options: RequestOptions & PollOptions): Promise<MemoryJobResult> {
    requireString('job_id', jobId);
    const result = await pollUntilDone(`Translation memory job ${jobId}`, options, async () => {
      const job = await this.getJob(jobId, requestOptionsOf(options));
      const latest = job.results?.[job.results.length - 1];
      return { done: latest !== undefined && FINISHED.has(latest.status), value: latest };
    });
    if (!result || result.status === 'failed' || result.status === 'expired') {
      const reason = result?.error?.message ?? result?.status ?? 'no result';
      throw new JobFailedError(`Translation memory job ${jobId} ended: ${reason}`, jobId);
    }
    return result;
  }
}
