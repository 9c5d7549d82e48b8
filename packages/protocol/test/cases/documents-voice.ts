import { type EndpointCases, edit, G1, G2, TIME, uuids } from './types.js';

const DOC_ID = '04DE5AD98A02647D83285A36021911C6';
const DOC_KEY = '0CB0054F1C132C1625B392EADDA41CB754A742822F6877173029A6C487E7F60A';
const upload = {
  target_lang: 'ES',
  source_lang: 'EN',
  output_format: 'docx',
  formality: 'less',
  glossary_ids: [G1, G2],
  translation_memory_id: G1,
  translation_memory_threshold: 80,
};
const documentParams = { document_id: DOC_ID };
const documentCases = [
  { kind: 'missing', part: 'params', value: {}, message: "Missing required parameter 'document_id'." },
  {
    kind: 'type',
    part: 'params',
    value: { document_id: 5 },
    message: "Parameter 'document_id' must be a string.",
  },
  {
    kind: 'format',
    part: 'params',
    value: { document_id: 'abc' },
    message: "Parameter 'document_id' has an invalid format (expected 32 hex characters).",
  },
  { kind: 'missing', part: 'body', value: {}, message: "Missing required parameter 'document_key'." },
  {
    kind: 'type',
    part: 'body',
    value: { document_key: 7 },
    message: "Parameter 'document_key' must be a string.",
  },
  {
    kind: 'format',
    part: 'body',
    value: { document_key: '0'.repeat(63) },
    message: "Parameter 'document_key' has an invalid format (expected 64 hex characters).",
  },
] as const;

const session = {
  source_media_content_type: 'audio/wav',
  source_language: 'en',
  target_languages: ['es', 'de'],
  spoken_terms_id: G1,
  formality: 'more',
};
const terms = { name: 'product names', language: 'en', terms: ['Glossa', 'Apertium'] };
const spokenTerms = { spoken_terms_id: G1, creation_time: TIME, ...terms };
const termsParams = { spoken_terms_id: G1 };
const termsParamCases = [
  { kind: 'missing', part: 'params', value: {}, message: "Missing required parameter 'spoken_terms_id'." },
  {
    kind: 'type',
    part: 'params',
    value: { spoken_terms_id: 1 },
    message: "Parameter 'spoken_terms_id' must be a string.",
  },
  {
    kind: 'format',
    part: 'params',
    value: { spoken_terms_id: 'terms' },
    message: "Parameter 'spoken_terms_id' must be a UUID.",
  },
] as const;
const termsCases = [
  {
    kind: 'missing',
    part: 'body',
    value: edit(terms, { terms: undefined }),
    message: "Missing required parameter 'terms'.",
  },
  {
    kind: 'type',
    part: 'body',
    value: edit(terms, { terms: 'Glossa' }),
    message: "Parameter 'terms' must be an array.",
  },
  {
    kind: 'limit',
    part: 'body',
    value: edit(terms, { terms: [''] }),
    message: "Parameter 'terms[0]' must not be empty.",
  },
] as const;
const job = { source_language: 'en', target_languages: ['es'] };
const jobParams = { job_id: 'voice-1' };
const jobParamCases = [
  { kind: 'missing', part: 'params', value: {}, message: "Missing required parameter 'job_id'." },
  { kind: 'type', part: 'params', value: { job_id: 3 }, message: "Parameter 'job_id' must be a string." },
  {
    kind: 'limit',
    part: 'params',
    value: { job_id: 'j'.repeat(129) },
    message: "Parameter 'job_id' is too long (at most 128 characters).",
  },
] as const;
const jobAccepts = [
  { part: 'params', value: { job_id: 'j'.repeat(128) }, why: 'a 128-character job id', bounds: ['job_id'] },
] as const;
const voiceTranslateJob = {
  source_file: { name: 'talk.mp3', content_type: 'audio/mpeg', content_length: 12_000 },
  parameters: { source_language: 'en' },
  targets: [{ language: 'es', type: 'text/plain' }],
};
const formalities = "Expected one of: 'default', 'more', 'less', 'prefer_more', 'prefer_less'.";
const voiceFormalities =
  "Expected one of: 'default', 'more', 'less', 'prefer_more', 'prefer_less', 'formal', 'informal'.";

export const DOCUMENT_VOICE_CASES = {
  uploadDocument: {
    valid: { body: upload },
    response: { document_id: DOC_ID, document_key: DOC_KEY },
    accepts: [
      { part: 'body', value: { target_lang: 'en-XA' }, why: 'target only' },
      {
        part: 'body',
        value: edit(upload, { glossary_ids: uuids(5), translation_memory_threshold: 100 }),
        why: 'the bounds',
        bounds: ['glossary_ids', 'translation_memory_threshold'],
      },
    ],
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(upload, { target_lang: undefined }),
        message: "Missing required parameter 'target_lang'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(upload, { translation_memory_threshold: 'high' }),
        message: "Parameter 'translation_memory_threshold' must be an integer.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(upload, { formality: 'formal' }),
        message: `Value for 'formality' not supported. ${formalities}`,
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(upload, { output_format: 'exe' }),
        message:
          "Value for 'output_format' not supported. Expected one of: 'docx', 'pptx', 'xlsx', 'pdf', 'htm', 'html', 'txt', 'xlf', 'xliff', 'srt', 'idml', 'xml', 'json', 'dita', 'mif'.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(upload, { glossary_ids: uuids(6) }),
        message: "Parameter 'glossary_ids' has too many items (at most 5).",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(upload, { translation_memory_threshold: 101 }),
        message: "Parameter 'translation_memory_threshold' must be between 0 and 100.",
      },
    ],
  },
  getDocumentStatus: {
    valid: { params: documentParams, body: { document_key: DOC_KEY } },
    response: { document_id: DOC_ID, status: 'translating', seconds_remaining: 20 },
    rejects: documentCases,
  },
  downloadDocument: {
    valid: { params: documentParams, body: { document_key: DOC_KEY } },
    rejects: documentCases,
  },
  createVoiceSession: {
    valid: { body: session },
    response: {
      streaming_url: 'ws://127.0.0.1:8080/v3/voice/realtime/connect?token=abc',
      token: 'abc',
      session_id: 's-1',
    },
    accepts: [
      { part: 'body', value: { source_media_content_type: 'audio/ogg' }, why: 'media type only' },
      {
        part: 'body',
        value: {
          source_media_content_type: 'audio/ogg',
          target_languages: ['es', 'fr', 'it', 'pt', 'ca'],
          target_media_languages: ['es'],
          formality: 'informal',
        },
        why: 'five targets, one spoken (the bounds), formality informal',
        bounds: ['target_languages', 'target_media_languages'],
      },
    ],
    rejects: [
      {
        kind: 'limit',
        part: 'body',
        value: edit(session, { target_languages: ['es', 'fr', 'it', 'pt', 'ca', 'en'] }),
        message: "Parameter 'target_languages' has too many items (at most 5).",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(session, { target_media_languages: ['es', 'fr'] }),
        message: "Parameter 'target_media_languages' has too many items (at most 1).",
      },
      {
        kind: 'missing',
        part: 'body',
        value: { source_language: 'en' },
        message: "Missing required parameter 'source_media_content_type'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(session, { target_languages: 'es' }),
        message: "Parameter 'target_languages' must be an array.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(session, { formality: 'casual' }),
        message: `Value for 'formality' not supported. ${voiceFormalities}`,
      },
      {
        kind: 'format',
        part: 'body',
        value: edit(session, { spoken_terms_id: 'x' }),
        message: "Parameter 'spoken_terms_id' must be a UUID.",
      },
    ],
  },
  reconnectVoiceSession: {
    valid: { query: { token: 'abc' } },
    response: {
      streaming_url: 'ws://127.0.0.1:8080/v3/voice/realtime/connect?token=def',
      token: 'def',
      session_id: 's-1',
    },
    rejects: [
      { kind: 'missing', part: 'query', value: {}, message: "Missing required parameter 'token'." },
      {
        kind: 'type',
        part: 'query',
        value: { token: ['a', 'b'] },
        message: "Parameter 'token' must be a string.",
      },
    ],
  },
  connectVoiceStream: {
    valid: { query: { token: 'abc' } },
    rejects: [
      { kind: 'missing', part: 'query', value: {}, message: "Missing required parameter 'token'." },
      {
        kind: 'type',
        part: 'query',
        value: { token: ['a', 'b'] },
        message: "Parameter 'token' must be a string.",
      },
    ],
  },
  createSpokenTerms: { valid: { body: terms }, response: spokenTerms, rejects: termsCases },
  listSpokenTerms: { valid: {}, response: { spoken_terms: [spokenTerms] } },
  getSpokenTerms: { valid: { params: termsParams }, response: spokenTerms, rejects: termsParamCases },
  replaceSpokenTerms: {
    valid: { params: termsParams, body: terms },
    response: spokenTerms,
    rejects: [...termsParamCases, ...termsCases],
  },
  deleteSpokenTerms: { valid: { params: termsParams }, rejects: termsParamCases },
  createVoiceJob: {
    valid: { body: job },
    accepts: [
      {
        part: 'body',
        value: edit(job, { spoken_terms_id: G1, glossary_id: G2 }),
        why: 'a spoken-term collection and a glossary, as on the session request',
      },
    ],
    response: { job_id: 'voice-1' },
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: { target_languages: ['es'] },
        message: "Missing required parameter 'source_language'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(job, { source_language: ['en'] }),
        message: "Parameter 'source_language' must be a string.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(job, { target_languages: [] }),
        message: "Parameter 'target_languages' must not be empty.",
      },
      {
        kind: 'format',
        part: 'body',
        value: edit(job, { spoken_terms_id: 'x' }),
        message: "Parameter 'spoken_terms_id' must be a UUID.",
      },
      {
        kind: 'format',
        part: 'body',
        value: edit(job, { glossary_id: 'glossary-1' }),
        message: "Parameter 'glossary_id' must be a UUID.",
      },
    ],
  },
  getVoiceJob: {
    valid: { params: jobParams },
    accepts: jobAccepts,
    response: { job_id: 'voice-1', status: 'error', error_message: 'audio unreadable' },
    rejects: jobParamCases,
  },
  getVoiceJobResult: {
    valid: { params: jobParams },
    accepts: jobAccepts,
    response: { transcript: 'Hello there.', translations: [{ target_language: 'es', text: 'Hola.' }] },
    rejects: jobParamCases,
  },
  createVoiceTranslateJob: {
    valid: { body: voiceTranslateJob, query: { include: ['signed_url'] } },
    response: {
      job_id: 'a1b2',
      upload_url: 'http://127.0.0.1:8080/v1/jobs/voice/translate/a1b2/source',
      signature: 'sig',
    },
    accepts: [
      {
        part: 'body',
        value: edit(voiceTranslateJob, {
          source_file: { name: 'talk.mp3', content_type: 'audio/mpeg', content_length: 1_073_741_824 },
        }),
        why: "the description's 1 GiB bound (this server's smaller limit is checked by the route)",
        bounds: ['source_file.content_length'],
      },
    ],
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(voiceTranslateJob, { targets: undefined }),
        message: "Missing required parameter 'targets'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(voiceTranslateJob, { targets: 'es' }),
        message: "Parameter 'targets' must be an array.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(voiceTranslateJob, { targets: [] }),
        message: "Parameter 'targets' must not be empty.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(voiceTranslateJob, {
          source_file: { name: 'talk.mp3', content_type: 'audio/mpeg', content_length: 1_073_741_825 },
        }),
        message: "Parameter 'source_file.content_length' must be between 1 and 1073741824.",
      },
    ],
  },
  uploadVoiceTranslateSource: {
    valid: { params: { job_id: 'a1b2' }, query: { signature: 'sig' } },
    rejects: [
      { kind: 'missing', part: 'params', value: {}, message: "Missing required parameter 'job_id'." },
      { kind: 'type', part: 'params', value: { job_id: 3 }, message: "Parameter 'job_id' must be a string." },
    ],
  },
  getVoiceTranslateJobStatus: {
    valid: { params: { job_id: 'a1b2' } },
    response: {
      job_id: 'a1b2',
      product: 'voice',
      operation: 'translate',
      created_at: TIME,
      updated_at: TIME,
      usage: { storage_used: 12_000 },
      source_file: { name: 'talk.mp3', content_type: 'audio/mpeg', content_length: 12_000 },
      parameters: { source_language: 'en' },
      targets: [{ language: 'es', type: 'text/plain' }],
      results: [{ status: 'complete', download_url: 'http://127.0.0.1:8080/r', signature: 'sig' }],
    },
    rejects: [
      { kind: 'missing', part: 'params', value: {}, message: "Missing required parameter 'job_id'." },
      { kind: 'type', part: 'params', value: { job_id: 3 }, message: "Parameter 'job_id' must be a string." },
    ],
  },
  downloadVoiceTranslateResult: {
    valid: { params: { job_id: 'a1b2', index: '0' } },
    rejects: [
      {
        kind: 'missing',
        part: 'params',
        value: { job_id: 'a1b2' },
        message: "Missing required parameter 'index'.",
      },
      {
        kind: 'type',
        part: 'params',
        value: { job_id: 'a1b2', index: 0 },
        message: "Parameter 'index' must be a string.",
      },
    ],
  },
} satisfies Record<string, EndpointCases>;
