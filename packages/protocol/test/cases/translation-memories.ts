import { type EndpointCases, edit, G1, TIME } from './types.js';

const memory = {
  translation_memory_id: G1,
  name: 'acceptance',
  source_language: 'en',
  target_languages: ['es'],
  segment_count: 2,
};
const params = { translation_memory_id: G1 };
const jobParams = { job_id: 'job-1' };
const importBody = {
  source_file: { file_name: 'acceptance.tmx', content_length: 512, content_type: 'application/xml' },
  parameters: { display_name: 'acceptance' },
};
const signed = { expires: 1795000000, signature: 'c2lnbmF0dXJl' };
const memoryParamCases = [
  {
    kind: 'missing',
    part: 'params',
    value: {},
    message: "Missing required parameter 'translation_memory_id'.",
  },
  {
    kind: 'type',
    part: 'params',
    value: { translation_memory_id: 9 },
    message: "Parameter 'translation_memory_id' must be a string.",
  },
  {
    kind: 'format',
    part: 'params',
    value: { translation_memory_id: 'tm-1' },
    message: "Parameter 'translation_memory_id' must be a UUID.",
  },
] as const;
const jobParamCases = [
  { kind: 'missing', part: 'params', value: {}, message: "Missing required parameter 'job_id'." },
  { kind: 'type', part: 'params', value: { job_id: 1 }, message: "Parameter 'job_id' must be a string." },
  {
    kind: 'limit',
    part: 'params',
    value: { job_id: 'j'.repeat(129) },
    message: "Parameter 'job_id' is too long (at most 128 characters).",
  },
] as const;
const signedAccepts = [
  { part: 'params', value: { job_id: 'j'.repeat(128) }, why: 'a 128-character job id', bounds: ['job_id'] },
  { part: 'query', value: { expires: 0, signature: 's' }, why: 'expires 0', bounds: ['expires'] },
] as const;
const signedCases = [
  ...jobParamCases,
  {
    kind: 'missing',
    part: 'query',
    value: { expires: 1 },
    message: "Missing required parameter 'signature'.",
  },
  {
    kind: 'type',
    part: 'query',
    value: { expires: 'soon', signature: 's' },
    message: "Parameter 'expires' must be an integer.",
  },
  {
    kind: 'limit',
    part: 'query',
    value: { expires: -1, signature: 's' },
    message: "Parameter 'expires' must be at least 0.",
  },
] as const;
const job = {
  job_id: 'job-1',
  operation: 'import',
  creation_time: TIME,
  updated_time: TIME,
  parameters: { display_name: 'acceptance' },
  results: [{ status: 'completed', translation_memory_id: G1, skipped_segment_count: 0 }],
};

export const TRANSLATION_MEMORY_CASES = {
  listTranslationMemories: {
    valid: { query: { page: 0, page_size: 10 } },
    response: { translation_memories: [memory], total_count: 1 },
    accepts: [
      { part: 'query', value: { page_size: 25 }, why: 'page_size 25 (the bound)', bounds: ['page_size'] },
      {
        part: 'query',
        value: { page_size: 1, page: 0 },
        why: 'the lower bounds',
        bounds: ['page_size', 'page'],
      },
    ],
    rejects: [
      {
        kind: 'type',
        part: 'query',
        value: { page: 'first' },
        message: "Parameter 'page' must be an integer.",
      },
      {
        kind: 'limit',
        part: 'query',
        value: { page_size: 26 },
        message: "Parameter 'page_size' must be between 1 and 25.",
      },
      {
        kind: 'limit',
        part: 'query',
        value: { page_size: 0 },
        message: "Parameter 'page_size' must be between 1 and 25.",
      },
      { kind: 'limit', part: 'query', value: { page: -1 }, message: "Parameter 'page' must be at least 0." },
    ],
  },
  getTranslationMemory: { valid: { params }, response: memory, rejects: memoryParamCases },
  deleteTranslationMemory: { valid: { params }, rejects: memoryParamCases },
  listTranslationMemorySegments: {
    valid: { params, query: { page_size: 50, page_cursor: 'c2', filter_text: 'saved' } },
    response: {
      segments: [
        {
          source_segment_id: 's1',
          source_text: 'Your changes have been saved.',
          targets: [
            { target_segment_id: 't1', target_language: 'es', target_text: 'Se han guardado sus cambios.' },
          ],
        },
      ],
      segment_count: 2,
      next_page_cursor: null,
    },
    accepts: [
      { part: 'query', value: { page_size: 100 }, why: 'page_size 100 (the bound)', bounds: ['page_size'] },
      { part: 'query', value: { page_size: 1 }, why: 'page_size 1', bounds: ['page_size'] },
    ],
    rejects: [
      ...memoryParamCases,
      {
        kind: 'type',
        part: 'query',
        value: { page_cursor: ['a', 'b'] },
        message: "Parameter 'page_cursor' must be a string.",
      },
      {
        kind: 'limit',
        part: 'query',
        value: { page_size: 101 },
        message: "Parameter 'page_size' must be between 1 and 100.",
      },
      {
        kind: 'limit',
        part: 'query',
        value: { page_size: 0 },
        message: "Parameter 'page_size' must be between 1 and 100.",
      },
    ],
  },
  importTranslationMemory: {
    valid: { body: importBody },
    response: {
      job_id: 'job-1',
      upload_url: 'http://127.0.0.1:8080/v3/translation_memories/jobs/job-1/upload?expires=1&signature=s',
      expires_at: TIME,
    },
    accepts: [
      {
        part: 'body',
        value: { source_file: { file_name: 'a.tmx', content_length: 1 } },
        why: 'no optional fields, content_length 1',
        bounds: ['source_file.content_length'],
      },
    ],
    rejects: [
      { kind: 'missing', part: 'body', value: {}, message: "Missing required parameter 'source_file'." },
      {
        kind: 'missing',
        part: 'body',
        value: edit(importBody, { source_file: { file_name: 'a.tmx' } }),
        message: "Missing required parameter 'source_file.content_length'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(importBody, { source_file: { file_name: 'a.tmx', content_length: '512' } }),
        message: "Parameter 'source_file.content_length' must be an integer.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(importBody, { source_file: { file_name: 'a.tmx', content_length: 0 } }),
        message: "Parameter 'source_file.content_length' must be at least 1.",
      },
    ],
  },
  uploadTranslationMemoryFile: {
    valid: { params: jobParams, query: signed },
    accepts: signedAccepts,
    rejects: signedCases,
  },
  exportTranslationMemory: {
    valid: { params },
    response: { job_id: 'job-2', parameters: { translation_memory_id: G1 } },
    rejects: memoryParamCases,
  },
  getTranslationMemoryJob: {
    valid: { params: jobParams },
    response: job,
    accepts: [
      {
        part: 'params',
        value: { job_id: 'j'.repeat(128) },
        why: 'a 128-character job id',
        bounds: ['job_id'],
      },
    ],
    rejects: jobParamCases,
  },
  downloadTranslationMemoryExport: {
    valid: { params: jobParams, query: signed },
    accepts: signedAccepts,
    rejects: signedCases,
  },
} satisfies Record<string, EndpointCases>;

/** A job response with a status outside the list, for the response-schema test. */
export const BAD_JOB = edit(job, { results: [{ status: 'done' }] });
