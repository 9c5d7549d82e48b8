import { type Static, Type } from '@sinclair/typebox';
import { LanguageCode, StringEnum, Uuid } from './common.js';
import {
  MAX_GLOSSARY_IDS,
  MAX_TRANSLATION_MEMORY_THRESHOLD,
  MIN_TRANSLATION_MEMORY_THRESHOLD,
} from './limits.js';
import { FORMALITIES } from './translate.js';

/** File extensions document translation accepts (lower case, without the dot). */
export const DOCUMENT_EXTENSIONS = [
  'docx', 'pptx', 'xlsx', 'pdf', 'htm', 'html', 'txt', 'xlf', 'xliff', 'srt', 'idml', 'xml', 'json', 'dita', 'mif',
] as const; // biome-ignore format: one row per line would hide the list
/** Extensions in beta. */
export const BETA_DOCUMENT_EXTENSIONS = ['jpeg', 'jpg', 'png'] as const;
export type DocumentExtension =
  | (typeof DOCUMENT_EXTENSIONS)[number]
  | (typeof BETA_DOCUMENT_EXTENSIONS)[number];

export const DOCUMENT_STATUSES = ['queued', 'translating', 'done', 'error'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** The extension of a file name if document translation accepts it (`Report.DOCX` → `docx`). */
export function documentExtension(fileName: string): DocumentExtension | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  const known: readonly string[] = [...DOCUMENT_EXTENSIONS, ...BETA_DOCUMENT_EXTENSIONS];
  return extension && known.includes(extension) ? (extension as DocumentExtension) : undefined;
}

export const DocumentId = Type.String({ pattern: '^[0-9A-Fa-f]{32}$', description: '32 hex characters' });
export const DocumentKey = Type.String({ pattern: '^[0-9A-Fa-f]{64}$', description: '64 hex characters' });

/**
 * POST /v2/document: the fields of the multipart body besides the `file` part (which is required;
 * its file name gives the format). Field values arrive as text; decode them with `decodeForm`.
 */
export const UploadDocumentFields = Type.Object(
  {
    target_lang: LanguageCode,
    source_lang: Type.Optional(LanguageCode),
    output_format: Type.Optional(StringEnum(DOCUMENT_EXTENSIONS)),
    formality: Type.Optional(StringEnum(FORMALITIES)),
    glossary_id: Type.Optional(Uuid),
    glossary_ids: Type.Optional(Type.Array(Uuid, { maxItems: MAX_GLOSSARY_IDS })),
    style_id: Type.Optional(Uuid),
    translation_memory_id: Type.Optional(Uuid),
    translation_memory_threshold: Type.Optional(
      Type.Integer({ minimum: MIN_TRANSLATION_MEMORY_THRESHOLD, maximum: MAX_TRANSLATION_MEMORY_THRESHOLD }),
    ),
    filename: Type.Optional(
      Type.String({ minLength: 1, description: "the document's file name when the file part has none" }),
    ),
    enable_beta_languages: Type.Optional(
      Type.Boolean({ description: 'accepted for compatibility; beta languages are always on (no effect)' }),
    ),
  },
  { $id: 'UploadDocumentFields', additionalProperties: false },
);
export type UploadDocumentFields = Static<typeof UploadDocumentFields>;

/** The multipart part that carries the file. */
export const DOCUMENT_FILE_FIELD = 'file';

export const UploadDocumentResponse = Type.Object(
  { document_id: DocumentId, document_key: DocumentKey },
  { $id: 'UploadDocumentResponse' },
);
export type UploadDocumentResponse = Static<typeof UploadDocumentResponse>;

export const DocumentIdParams = Type.Object({ document_id: DocumentId }, { additionalProperties: false });

/** Body of the status and result requests. */
export const DocumentKeyRequest = Type.Object(
  { document_key: DocumentKey },
  { $id: 'DocumentKeyRequest', additionalProperties: false },
);
export type DocumentKeyRequest = Static<typeof DocumentKeyRequest>;

/** The most segments `glossa_kept_source` lists (its `count` counts them all). */
export const MAX_DOCUMENT_KEPT_SEGMENTS = 50;

/** A segment of a document every engine failed, answered in the source language inside the document. */
export const DocumentKeptSegment = Type.Object({
  /** The document's text it is in (0-based, in the order the format reads them: 0 for a plain text file). */
  text_index: Type.Integer({ minimum: 0 }),
  /** The segment (a sentence or a unit) within that text (0-based). */
  segment_index: Type.Integer({ minimum: 0 }),
  /** Its source text, markup removed (at most 300 characters, then cut with `…`). */
  source: Type.String(),
  /** Per engine tried, in order: what was wrong with its answer, or its error. */
  attempts: Type.Array(Type.Object({ engine: Type.String(), problems: Type.Array(Type.String()) })),
});
export type DocumentKeptSegment = Static<typeof DocumentKeptSegment>;

/**
 * Glossa's own, additive (the interface has no place for it; clients of the protocol ignore unknown
 * fields): the segments of a translated document that every engine failed, kept in the source language
 * ("never worse"), as `X-Glossa-Kept-Source` names such texts on `/v2/translate`.
 */
export const DocumentKeptSource = Type.Object(
  {
    /** How many segments were kept in the source language (every one, listed or not). */
    count: Type.Integer({ minimum: 0 }),
    /** The first of them in the document's order, at most `MAX_DOCUMENT_KEPT_SEGMENTS`. */
    segments: Type.Array(DocumentKeptSegment, { maxItems: MAX_DOCUMENT_KEPT_SEGMENTS }),
  },
  {
    description:
      "Glossa's own: the segments every engine failed, answered in the source language inside the document",
  },
);
export type DocumentKeptSource = Static<typeof DocumentKeptSource>;

export const DocumentStatusResponse = Type.Object(
  {
    document_id: DocumentId,
    status: StringEnum(DOCUMENT_STATUSES),
    seconds_remaining: Type.Optional(Type.Integer({ minimum: 0 })),
    billed_characters: Type.Optional(Type.Integer({ minimum: 0 })),
    error_message: Type.Optional(Type.String()),
    /** With `done` (Glossa's own): the segments kept in the source language; absent when none. */
    glossa_kept_source: Type.Optional(DocumentKeptSource),
  },
  { $id: 'DocumentStatusResponse' },
);
export type DocumentStatusResponse = Static<typeof DocumentStatusResponse>;
