import { type Static, Type } from '@sinclair/typebox';
import { DateTime, Name, Nullable, StringEnum, Uuid } from './common.js';
import {
  DEFAULT_MEMORY_SEGMENTS_PAGE_SIZE,
  DEFAULT_TRANSLATION_MEMORIES_PAGE_SIZE,
  MAX_MEMORY_SEGMENTS_PAGE_SIZE,
  MAX_TRANSLATION_MEMORIES_PAGE_SIZE,
} from './limits.js';

/** Statuses of a translation memory job result; clients poll until `completed` (or a final failure). */
export const MEMORY_JOB_STATUSES = [
  'awaiting_input',
  'processing',
  'completed',
  'downloaded',
  'failed',
  'expired',
] as const;
export type MemoryJobStatus = (typeof MEMORY_JOB_STATUSES)[number];
export const MEMORY_JOB_OPERATIONS = ['import', 'export'] as const;

/** Content type of the TMX upload and of the export download. */
export const TMX_CONTENT_TYPE = 'application/x-tmx+xml';

export const MemoryIdParams = Type.Object({ translation_memory_id: Uuid }, { additionalProperties: false });
export const JobIdParams = Type.Object({ job_id: Type.String({ minLength: 1, maxLength: 128 }) });

export const TranslationMemory = Type.Object(
  {
    translation_memory_id: Uuid,
    name: Type.String(),
    source_language: Type.String(),
    target_languages: Type.Array(Type.String()),
    segment_count: Type.Integer({ minimum: 0 }),
  },
  { $id: 'TranslationMemory' },
);
export type TranslationMemory = Static<typeof TranslationMemory>;

/** GET /v3/translation_memories query. */
export const TranslationMemoriesQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0 })),
    page_size: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TRANSLATION_MEMORIES_PAGE_SIZE,
        default: DEFAULT_TRANSLATION_MEMORIES_PAGE_SIZE,
      }),
    ),
  },
  { $id: 'TranslationMemoriesQuery', additionalProperties: false },
);
export type TranslationMemoriesQuery = Static<typeof TranslationMemoriesQuery>;

export const TranslationMemoryList = Type.Object(
  { translation_memories: Type.Array(TranslationMemory), total_count: Type.Integer({ minimum: 0 }) },
  { $id: 'TranslationMemoryList' },
);
export type TranslationMemoryList = Static<typeof TranslationMemoryList>;

/** GET /v3/translation_memories/{id}/segments query: cursor paging, optional text filter. */
export const MemorySegmentsQuery = Type.Object(
  {
    page_size: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_MEMORY_SEGMENTS_PAGE_SIZE,
        default: DEFAULT_MEMORY_SEGMENTS_PAGE_SIZE,
      }),
    ),
    page_cursor: Type.Optional(Type.String({ minLength: 1 })),
    filter_text: Type.Optional(Type.String()),
  },
  { $id: 'MemorySegmentsQuery', additionalProperties: false },
);
export type MemorySegmentsQuery = Static<typeof MemorySegmentsQuery>;

export const MemorySegment = Type.Object({
  source_segment_id: Type.String(),
  source_text: Type.String(),
  targets: Type.Array(
    Type.Object({
      target_segment_id: Type.String(),
      target_language: Type.String(),
      target_text: Type.String(),
    }),
  ),
});
export type MemorySegment = Static<typeof MemorySegment>;

/** `next_page_cursor` is null on the last page. */
export const MemorySegmentsResponse = Type.Object(
  {
    segments: Type.Array(MemorySegment),
    segment_count: Type.Integer({ minimum: 0 }),
    next_page_cursor: Nullable(Type.String()),
  },
  { $id: 'MemorySegmentsResponse' },
);
export type MemorySegmentsResponse = Static<typeof MemorySegmentsResponse>;

/** POST /v3/translation_memories/import body: describe the TMX file, then PUT it to `upload_url`. */
export const ImportMemoryRequest = Type.Object(
  {
    source_file: Type.Object(
      {
        file_name: Type.String({ minLength: 1 }),
        content_length: Type.Integer({ minimum: 1 }),
        content_type: Type.Optional(Type.String({ minLength: 1 })),
      },
      { additionalProperties: false },
    ),
    parameters: Type.Optional(Type.Object({ display_name: Name }, { additionalProperties: false })),
  },
  { $id: 'ImportMemoryRequest', additionalProperties: false },
);
export type ImportMemoryRequest = Static<typeof ImportMemoryRequest>;

/** `upload_url` carries its own signed, expiring credential: no Authorization header is sent there. */
export const ImportMemoryResponse = Type.Object(
  { job_id: Type.String(), upload_url: Type.String({ format: 'uri' }), expires_at: DateTime },
  { $id: 'ImportMemoryResponse' },
);
export type ImportMemoryResponse = Static<typeof ImportMemoryResponse>;

/** Query of a signed URL (TMX upload and export download). */
export const SignedUrlQuery = Type.Object(
  { expires: Type.Integer({ minimum: 0 }), signature: Type.String({ minLength: 1 }) },
  { $id: 'SignedUrlQuery', additionalProperties: false },
);
export type SignedUrlQuery = Static<typeof SignedUrlQuery>;

/** POST /v3/translation_memories/{id}/export: 202 for a new job, 200 when an unexpired export exists. */
export const ExportMemoryResponse = Type.Object(
  { job_id: Type.String(), parameters: Type.Object({ translation_memory_id: Uuid }) },
  { $id: 'ExportMemoryResponse' },
);
export type ExportMemoryResponse = Static<typeof ExportMemoryResponse>;

export const MemoryJobResult = Type.Object({
  status: StringEnum(MEMORY_JOB_STATUSES),
  download_url: Type.Optional(Type.String({ format: 'uri' })),
  expires_at: Type.Optional(DateTime),
  error: Type.Optional(Type.Object({ message: Type.String() })),
  translation_memory_id: Type.Optional(Uuid),
  skipped_segment_count: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type MemoryJobResult = Static<typeof MemoryJobResult>;

/** GET /v3/translation_memories/jobs/{job_id}. */
export const MemoryJob = Type.Object(
  {
    job_id: Type.String(),
    operation: StringEnum(MEMORY_JOB_OPERATIONS),
    creation_time: DateTime,
    updated_time: DateTime,
    parameters: Type.Record(Type.String(), Type.Unknown()),
    results: Type.Array(MemoryJobResult),
  },
  { $id: 'MemoryJob' },
);
export type MemoryJob = Static<typeof MemoryJob>;
