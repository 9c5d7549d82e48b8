import { type Static, Type } from '@sinclair/typebox';
import { DateTime, LanguageCode, Name, StringEnum, Uuid } from './common.js';
import { FORMALITIES } from './translate.js';

/** POST /v3/voice/realtime body. */
/** `formality` of a voice session: the translate values plus the public description's `formal`/`informal`. */
export const VOICE_FORMALITIES = [...FORMALITIES, 'formal', 'informal'] as const;

export const VoiceSessionRequest = Type.Object(
  {
    source_media_content_type: Type.String({ minLength: 1, description: 'for example audio/wav' }),
    message_format: Type.Optional(
      StringEnum(['json', 'msgpack'] as const, {
        description:
          'json: JSON text frames (default); msgpack: MessagePack maps in binary frames, both ways',
      }),
    ),
    source_language: Type.Optional(LanguageCode),
    source_language_mode: Type.Optional(
      StringEnum(['auto', 'fixed'] as const, { description: 'the source language is always fixed here' }),
    ),
    target_languages: Type.Optional(Type.Array(LanguageCode, { maxItems: 5 })),
    target_media_languages: Type.Optional(
      Type.Array(LanguageCode, {
        maxItems: 1,
        description: 'the target spoken as audio; one of target_languages',
      }),
    ),
    target_media_voice: Type.Optional(StringEnum(['male', 'female'] as const)),
    spoken_terms_id: Type.Optional(Uuid),
    glossary_id: Type.Optional(Uuid),
    formality: Type.Optional(StringEnum(VOICE_FORMALITIES)),
    target_media_content_type: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'audio/wav: also send synthesized speech of each translation (speech messages)',
      }),
    ),
  },
  { $id: 'VoiceSessionRequest', additionalProperties: false },
);
export type VoiceSessionRequest = Static<typeof VoiceSessionRequest>;

/** The token in `streaming_url` is single-use and short-lived. */
export const VoiceSessionResponse = Type.Object(
  {
    streaming_url: Type.String({
      pattern: '^wss?://',
      description: 'ws://.../v3/voice/realtime/connect?token=...',
    }),
    token: Type.String(),
    session_id: Type.String(),
  },
  { $id: 'VoiceSessionResponse' },
);
export type VoiceSessionResponse = Static<typeof VoiceSessionResponse>;

/** Query of the WebSocket upgrade: the session token. */
export const VoiceStreamQuery = Type.Object(
  { token: Type.String({ minLength: 1 }) },
  { $id: 'VoiceStreamQuery', additionalProperties: false },
);

/** The text message a client sends after the last audio frame (`VoiceClientMessage`). */
export const END_OF_SOURCE_MEDIA = { type: 'end_of_source_media' } as const;

/** Body of POST and PUT /v3/voice/spoken_terms. */
export const SpokenTermsInput = Type.Object(
  {
    name: Name,
    language: LanguageCode,
    terms: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  },
  { $id: 'SpokenTermsInput', additionalProperties: false },
);
export type SpokenTermsInput = Static<typeof SpokenTermsInput>;

export const SpokenTerms = Type.Object(
  {
    spoken_terms_id: Uuid,
    name: Type.String(),
    language: Type.String(),
    terms: Type.Array(Type.String()),
    creation_time: DateTime,
  },
  { $id: 'SpokenTerms' },
);
export type SpokenTerms = Static<typeof SpokenTerms>;

export const SpokenTermsList = Type.Object(
  { spoken_terms: Type.Array(SpokenTerms) },
  { $id: 'SpokenTermsList' },
);
export type SpokenTermsList = Static<typeof SpokenTermsList>;

export const SpokenTermsParams = Type.Object({ spoken_terms_id: Uuid }, { additionalProperties: false });

export const VOICE_JOB_STATUSES = ['queued', 'processing', 'done', 'error'] as const;
export type VoiceJobStatus = (typeof VOICE_JOB_STATUSES)[number];

/**
 * POST /v3/voice/jobs: multipart fields besides the `file` part (target_languages repeated or comma-joined).
 * `spoken_terms_id` and `glossary_id` are checked and applied as on the realtime session request.
 */
export const CreateVoiceJobFields = Type.Object(
  {
    source_language: LanguageCode,
    target_languages: Type.Array(LanguageCode, { minItems: 1 }),
    spoken_terms_id: Type.Optional(Uuid),
    glossary_id: Type.Optional(Uuid),
  },
  { $id: 'CreateVoiceJobFields', additionalProperties: false },
);
export type CreateVoiceJobFields = Static<typeof CreateVoiceJobFields>;

export const VoiceJobCreated = Type.Object({ job_id: Type.String() }, { $id: 'VoiceJobCreated' });

export const VoiceJob = Type.Object(
  {
    job_id: Type.String(),
    status: StringEnum(VOICE_JOB_STATUSES),
    error_message: Type.Optional(Type.String()),
  },
  { $id: 'VoiceJob' },
);
export type VoiceJob = Static<typeof VoiceJob>;

export const VoiceJobResult = Type.Object(
  {
    transcript: Type.String(),
    translations: Type.Array(Type.Object({ target_language: Type.String(), text: Type.String() })),
  },
  { $id: 'VoiceJobResult' },
);
export type VoiceJobResult = Static<typeof VoiceJobResult>;

/**
 * Messages of the voice WebSocket. The client sends audio as binary frames and ends with the text message
 * `{"type":"end_of_source_media"}`. The server answers with JSON text messages:
 * - `partial`: an interim transcript of the open utterance (for live captions): each replaces the previous
 *   one with the same `segment_id`, and the `transcript` with that `segment_id` replaces them all;
 * - `transcript`: a final transcript segment of the source audio, in order;
 * - `translation`: the translation of the final segment with the same `segment_id` into one target;
 * - `end_of_stream`: every segment has been sent; the server then closes the socket (1000);
 * - `error`: the session failed; the server closes with 1011 (or 1008 for a used or expired token).
 * A server that shuts down sends `end_of_stream` (or `error` if it could not finish) and closes with 1001.
 * Only `transcript` messages carry final source text, so joining their `text` gives the transcript.
 */
export const VOICE_SERVER_MESSAGE_TYPES = [
  'partial',
  'transcript',
  'translation',
  'end_of_stream',
  'error',
] as const;
export type VoiceServerMessageType = (typeof VOICE_SERVER_MESSAGE_TYPES)[number];

export const VoicePartialMessage = Type.Object({
  type: Type.Literal('partial'),
  /** The `segment_id` its final `transcript` will have. */
  segment_id: Type.Integer({ minimum: 0 }),
  text: Type.String(),
});
export const VoiceTranscriptMessage = Type.Object({
  type: Type.Literal('transcript'),
  segment_id: Type.Integer({ minimum: 0 }),
  text: Type.String(),
  language: Type.String(),
});
export const VoiceTranslationMessage = Type.Object({
  type: Type.Literal('translation'),
  segment_id: Type.Integer({ minimum: 0 }),
  target_language: Type.String(),
  text: Type.String(),
});
export const VoiceEndMessage = Type.Object({ type: Type.Literal('end_of_stream') });
export const VoiceErrorMessage = Type.Object({ type: Type.Literal('error'), message: Type.String() });

export const VoiceServerMessage = Type.Union(
  [VoicePartialMessage, VoiceTranscriptMessage, VoiceTranslationMessage, VoiceEndMessage, VoiceErrorMessage],
  { $id: 'VoiceServerMessage' },
);
export type VoiceServerMessage = Static<typeof VoiceServerMessage>;

/** The one text message a client sends: after the last audio frame. */
export const VoiceClientMessage = Type.Object(
  { type: Type.Literal('end_of_source_media') },
  { $id: 'VoiceClientMessage', additionalProperties: false },
);
export type VoiceClientMessage = Static<typeof VoiceClientMessage>;

// Voice translation jobs at the public description's paths (/v1/jobs/voice/translate).

/** The largest source file of a voice translation job (the description allows 1 GiB; Glossa takes less). */
export const MAX_VOICE_JOB_SOURCE_BYTES = 100 * 1024 * 1024;
/** The scheme word of the `Authorization` header on upload and download URLs. */
export const VOICE_JOB_SIGNATURE_SCHEME = 'Service-Signature';

export const VoiceTranslateCreateJobRequest = Type.Object(
  {
    source_file: Type.Object({
      name: Type.String({ minLength: 1 }),
      content_type: Type.String({ minLength: 1 }),
      content_length: Type.Integer({ minimum: 1, maximum: 1_073_741_824 }),
    }),
    parameters: Type.Optional(Type.Object({ source_language: Type.Optional(Type.String()) })),
    targets: Type.Array(Type.Object({ language: Type.String(), type: Type.String() }), { minItems: 1 }),
  },
  { $id: 'VoiceTranslateCreateJobRequest' },
);
export type VoiceTranslateCreateJobRequest = Static<typeof VoiceTranslateCreateJobRequest>;

export const VOICE_TRANSLATE_RESULT_STATUSES = [
  'pending',
  'uploaded',
  'processing',
  'complete',
  'downloaded',
  'failed',
] as const;
export type VoiceTranslateResultStatus = (typeof VOICE_TRANSLATE_RESULT_STATUSES)[number];

const TargetResult = Type.Object({
  status: Type.Union(VOICE_TRANSLATE_RESULT_STATUSES.map((status) => Type.Literal(status))),
  download_url: Type.Optional(Type.String()),
  signature: Type.Optional(Type.String()),
  signed_download_url: Type.Optional(Type.String()),
  error: Type.Optional(Type.Object({ message: Type.String() })),
});
const Target = Type.Object({ language: Type.String(), type: Type.String() });
export const VoiceTranslateJobStatusResponse = Type.Object(
  {
    job_id: Type.String(),
    product: Type.Literal('voice'),
    operation: Type.Literal('translate'),
    created_at: Type.String(),
    updated_at: Type.String(),
    usage: Type.Object({ storage_used: Type.Integer() }),
    source_file: Type.Object({
      name: Type.String(),
      content_type: Type.String(),
      content_length: Type.Integer(),
    }),
    parameters: Type.Object({ source_language: Type.Optional(Type.String()) }),
    targets: Type.Array(Target),
    results: Type.Array(TargetResult),
  },
  { $id: 'VoiceTranslateJobStatusResponse' },
);
export type VoiceTranslateJobStatusResponse = Static<typeof VoiceTranslateJobStatusResponse>;
export const VoiceTranslateCreateJobResponse = Type.Object(
  {
    job_id: Type.String(),
    upload_url: Type.String(),
    signature: Type.String(),
    signed_upload_url: Type.Optional(Type.String()),
  },
  { $id: 'VoiceTranslateCreateJobResponse' },
);
export type VoiceTranslateCreateJobResponse = Static<typeof VoiceTranslateCreateJobResponse>;
