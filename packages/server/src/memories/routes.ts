/** Translation memory endpoints: read, delete, and import/export jobs with signed URLs. */
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DEFAULT_MEMORY_SEGMENTS_PAGE_SIZE,
  DEFAULT_TRANSLATION_MEMORIES_PAGE_SIZE,
  ENDPOINTS,
  type MemoryJob,
  type MemoryJobResult,
  TMX_CONTENT_TYPE,
  type TranslationMemory,
} from '@glossa/protocol';
import type { Caller, ServiceContext } from '../context.js';
import { badRequest, notFound, ServiceError } from '../errors.js';
import { defineRoute, type Route } from '../http/route.js';
import type { JobRecord } from './jobs.js';
import type { MemoryRecord } from './store.js';
import { MAX_TMX_BYTES } from './tmx.js';

const missing = (id: string) => notFound(`Translation memory '${id}' not found.`);
const missingJob = (id: string) => notFound(`Translation memory job '${id}' not found.`);
const uploadedOnce = (id: string, status: string) =>
  new ServiceError(409, `Job '${id}' is ${status}; a file can only be uploaded once.`, 'invalid_request');

const toWire = (memory: MemoryRecord): TranslationMemory => ({
  translation_memory_id: memory.id,
  name: memory.name,
  source_language: memory.source,
  target_languages: [...memory.targets],
  segment_count: memory.segmentCount,
});

const baseUrl = (caller: Caller, context: ServiceContext) =>
  caller.account.plan === 'free' ? context.urls.free : context.urls.paid;

function jobToWire(job: JobRecord, caller: Caller, context: ServiceContext): MemoryJob {
  const result: MemoryJobResult = { status: job.status };
  if (job.error !== undefined) result.error = { message: job.error };
  if (job.operation === 'import') {
    if (job.status === 'completed' && job.memoryId) result.translation_memory_id = job.memoryId;
    if (job.skipped !== undefined) result.skipped_segment_count = job.skipped;
  } else {
    if (job.memoryId) result.translation_memory_id = job.memoryId;
    if (job.status === 'completed' || job.status === 'downloaded') {
      result.download_url = context.resources.signer.sign(
        caller.account.plan,
        baseUrl(caller, context),
        'download',
        job.id,
        job.expiresAt,
      );
      result.expires_at = job.expiresAt;
    }
  }
  return {
    job_id: job.id,
    operation: job.operation,
    creation_time: job.createdAt,
    updated_time: job.updatedAt,
    parameters: job.parameters,
    results: [result],
  };
}

function cursorAfter(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^s(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw badRequest("Parameter 'page_cursor' is not a cursor this server issued.");
  return Number(match[1]);
}
const cursorOf = (id: number) => Buffer.from(`s${id}`).toString('base64url');

/** Counts the bytes of an upload and stops it past `limit`. */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) {
        done(
          new ServiceError(
            413,
            `Upload larger than the ${limit} bytes announced as content_length.`,
            'request_too_large',
          ),
        );
      } else done(null, chunk);
    },
  });
}

export const MEMORY_ROUTES: readonly Route[] = [
  defineRoute(ENDPOINTS.listTranslationMemories, async ({ query, caller, context }) => {
    const size = query.page_size ?? DEFAULT_TRANSLATION_MEMORIES_PAGE_SIZE;
    const { memories, total } = await context.resources.memories.list(
      caller.account.id,
      (query.page ?? 0) * size,
      size,
    );
    return { translation_memories: memories.map(toWire), total_count: total };
  }),
  defineRoute(ENDPOINTS.getTranslationMemory, async ({ params, caller, context }) => {
    const memory = await context.resources.memories.get(caller.account.id, params.translation_memory_id);
    if (!memory) throw missing(params.translation_memory_id);
    return toWire(memory);
  }),
  defineRoute(ENDPOINTS.deleteTranslationMemory, async ({ params, caller, context }) => {
    const memory = await context.resources.memories.get(caller.account.id, params.translation_memory_id);
    if (!memory) throw missing(params.translation_memory_id);
    await context.resources.memories.remove(memory.id);
  }),
  defineRoute(ENDPOINTS.listTranslationMemorySegments, async ({ params, query, caller, context }) => {
    const memory = await context.resources.memories.get(caller.account.id, params.translation_memory_id);
    if (!memory) throw missing(params.translation_memory_id);
    const size = query.page_size ?? DEFAULT_MEMORY_SEGMENTS_PAGE_SIZE;
    const page = await context.resources.memories.segments(
      memory.id,
      cursorAfter(query.page_cursor),
      size + 1,
      query.filter_text,
    );
    const segments = page.segments.slice(0, size);
    const last = segments[segments.length - 1];
    return {
      segments: segments.map((segment) => ({
        source_segment_id: String(segment.id),
        source_text: segment.source,
        targets: segment.targets.map((target) => ({
          target_segment_id: `${segment.id}-${target.seq}`,
          target_language: target.language,
          target_text: target.text,
        })),
      })),
      segment_count: page.filtered ?? memory.segmentCount,
      next_page_cursor: page.segments.length > size && last ? cursorOf(last.id) : null,
    };
  }),
  defineRoute(ENDPOINTS.importTranslationMemory, async ({ body, caller, context }) => {
    const length = body.source_file.content_length;
    if (length > MAX_TMX_BYTES) {
      throw new ServiceError(
        413,
        `TMX file too large: ${length} bytes announced, the limit is ${MAX_TMX_BYTES} bytes (100 MiB). Split the memory into several files.`,
        'request_too_large',
      );
    }
    const parameters: Record<string, unknown> = { file_name: body.source_file.file_name };
    if (body.parameters?.display_name !== undefined) parameters.display_name = body.parameters.display_name;
    const job = await context.resources.jobs.createImport(caller.account.id, parameters, length);
    return {
      job_id: job.id,
      upload_url: context.resources.signer.sign(
        caller.account.plan,
        baseUrl(caller, context),
        'upload',
        job.id,
        job.expiresAt,
      ),
      expires_at: job.expiresAt,
    };
  }),
  defineRoute(ENDPOINTS.uploadTranslationMemoryFile, async ({ params, query, request, context }) => {
    context.resources.signer.verify(request.plan, 'upload', params.job_id, query.expires, query.signature);
    const jobs = context.resources.jobs;
    const job = await jobs.get(params.job_id);
    if (job?.operation !== 'import') throw missingJob(params.job_id);
    if (job.status !== 'awaiting_input') throw uploadedOnce(job.id, job.status);
    const limit = Math.min(job.contentLength ?? MAX_TMX_BYTES, MAX_TMX_BYTES);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      request.raw.resume();
      throw new ServiceError(
        413,
        `Upload of ${declared} bytes is larger than the ${limit} bytes announced as content_length.`,
        'request_too_large',
      );
    }
    let received: boolean;
    try {
      received = await jobs.receive(job, (sink) => pipeline(request.raw, byteLimit(limit), sink));
    } catch (error) {
      request.raw.resume();
      throw error instanceof ServiceError ? error : badRequest('The upload was interrupted.');
    }
    // Another upload took the job first.
    if (!received) throw uploadedOnce(job.id, (await jobs.get(job.id))?.status ?? 'failed');
  }),
  defineRoute(ENDPOINTS.exportTranslationMemory, async ({ params, caller, context, reply }) => {
    const memory = await context.resources.memories.get(caller.account.id, params.translation_memory_id);
    if (!memory) throw missing(params.translation_memory_id);
    const { job, created } = await context.resources.jobs.export(caller.account.id, memory.id);
    const body = { job_id: job.id, parameters: { translation_memory_id: memory.id } };
    if (created) return body;
    return reply.code(200).send(body);
  }),
  defineRoute(ENDPOINTS.getTranslationMemoryJob, async ({ params, caller, context }) => {
    const job = await context.resources.jobs.get(params.job_id, caller.account.id);
    if (!job) throw missingJob(params.job_id);
    return jobToWire(job, caller, context);
  }),
  defineRoute(
    ENDPOINTS.downloadTranslationMemoryExport,
    async ({ params, query, request, context, reply }) => {
      context.resources.signer.verify(
        request.plan,
        'download',
        params.job_id,
        query.expires,
        query.signature,
      );
      const job = await context.resources.jobs.get(params.job_id);
      if (job?.operation !== 'export') throw missingJob(params.job_id);
      if (job.status !== 'completed' && job.status !== 'downloaded') {
        throw new ServiceError(
          409,
          `Export job '${job.id}' is ${job.status}, not completed.`,
          'invalid_request',
        );
      }
      const content = await context.resources.jobs.download(job);
      return reply
        .code(200)
        .type(TMX_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${job.memoryId ?? job.id}.tmx"`)
        .send(content);
    },
  ),
];
