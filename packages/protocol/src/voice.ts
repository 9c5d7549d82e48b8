import { type Static, Type } from '@sinclair/typebox';
import { DateTime, LanguageCode, Name, StringEnum, Uuid } from './common.js';
import { FORMALITIES } from './translate.js';

/** POST /v3/voice/realtime body. */
export const VoiceSessionRequest = Type.Object(
  {
    source_media_content_type: Type.String({ minLength: 1, description: 'for example audio/wav' }),
    source_language: Type.Optional(LanguageCode),
    target_languages: Type.Optional(Type.Array(LanguageCode)),
    spoken_terms_id: Type.Optional(Uuid),
    glossary_id: Type.Optional(Uuid),
    formality: Type.Optional(StringEnum(FORMALITIES)),
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

/** The text message a client sends after the last audio frame. */
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

/** POST /v3/voice/jobs: multipart fields besides the `file` part (target_languages repeated or comma-joined). */
export const CreateVoiceJobFields = Type.Object(
  {
    source_language: LanguageCode,
    target_languages: Type.Array(LanguageCode, { minItems: 1 }),
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
