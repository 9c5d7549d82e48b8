import { type EndpointCases, edit, TIME } from './types.js';

const language = {
  lang: 'en-US',
  name: 'English (American)',
  usable_as_source: false,
  usable_as_target: true,
  status: 'stable',
  features: { formality: { status: 'beta' }, tag_handling: { status: 'stable' } },
};

const analytics = { start_date: '2025-01-01', end_date: '2025-01-31', aggregate_by: 'day', page: 1 };

export const SPINE_CASES = {
  getLanguages: {
    valid: { query: { resource: 'translate_text', include: ['beta', 'external'] } },
    response: [language, { ...language, lang: 'zh-Hans', name: 'Chinese (simplified)', features: {} }],
    accepts: [{ part: 'query', value: { resource: 'write', include: 'beta' }, why: 'include given once' }],
    rejects: [
      { kind: 'missing', part: 'query', value: {}, message: "Missing required parameter 'resource'." },
      {
        kind: 'type',
        part: 'query',
        value: { resource: 'write', include: 3 },
        message: "Value for 'include' not supported. Expected one or more of: 'beta', 'external'.",
      },
      {
        kind: 'enum',
        part: 'query',
        value: { resource: 'speech' },
        message:
          "Value for 'resource' not supported. Expected one of: 'translate_text', 'translate_document', 'voice', 'write', 'glossary', 'style_rules'.",
      },
      {
        kind: 'enum',
        part: 'query',
        value: { resource: 'write', include: ['alpha'] },
        message: "Value for 'include' not supported. Expected one or more of: 'beta', 'external'.",
      },
    ],
  },
  getLanguageResources: {
    valid: {},
    response: [
      {
        name: 'translate_text',
        features: [{ name: 'glossary', needs_source_support: true, needs_target_support: true }],
      },
      { name: 'glossary', features: [] },
    ],
  },
  getLanguagesV2: {
    valid: { query: { type: 'target' } },
    response: [
      { language: 'EN-US', name: 'English (American)', supports_formality: false },
      { language: 'DE', name: 'German' },
    ],
    accepts: [{ part: 'query', value: {}, why: 'type defaults to source' }],
    rejects: [
      {
        kind: 'type',
        part: 'query',
        value: { type: ['source', 'target'] },
        message: "Value for 'type' not supported. Expected one of: 'source', 'target'.",
      },
      {
        kind: 'enum',
        part: 'query',
        value: { type: 'both' },
        message: "Value for 'type' not supported. Expected one of: 'source', 'target'.",
      },
    ],
  },
  getGlossaryLanguagePairs: {
    valid: {},
    response: { supported_languages: [{ source_lang: 'en', target_lang: 'es' }] },
  },
  getUsage: {
    valid: {},
    response: {
      character_count: 180118,
      character_limit: 1250000,
      products: [
        {
          product_type: 'translate',
          billing_unit: 'characters',
          api_key_unit_count: 120,
          account_unit_count: 180118,
        },
      ],
      api_key_character_count: 120,
      api_key_character_limit: 0,
      start_time: TIME,
      end_time: '2026-12-22T05:00:00Z',
    },
  },
  getCustomTagUsage: {
    valid: { query: analytics },
    response: {
      custom_tag_usage_report: {
        aggregate_by: 'day',
        start_date: '2025-01-01T00:00:00Z',
        end_date: '2025-01-31T00:00:00Z',
        next_page: null,
        usage: [
          {
            custom_tag: 'marketing',
            usage_date: '2025-01-02T00:00:00Z',
            breakdown: {
              total_characters: 12,
              text_translation_characters: 12,
              text_improvement_characters: 0,
              speech_to_text_minutes: 1.5,
              speech_to_speech_minutes: 0,
            },
          },
        ],
      },
    },
    accepts: [
      { part: 'query', value: edit(analytics, { aggregate_by: '' }), why: 'an empty aggregate_by' },
      {
        part: 'query',
        value: edit(analytics, { page: 0 }),
        why: 'page 0 (the lower bound)',
        bounds: ['page'],
      },
    ],
    rejects: [
      {
        kind: 'missing',
        part: 'query',
        value: edit(analytics, { start_date: undefined }),
        message: "Missing required parameter 'start_date'.",
      },
      {
        kind: 'type',
        part: 'query',
        value: edit(analytics, { page: 'two' }),
        message: "Parameter 'page' must be an integer.",
      },
      {
        kind: 'limit',
        part: 'query',
        value: edit(analytics, { page: -1 }),
        message: "Parameter 'page' must be at least 0.",
      },
      {
        kind: 'format',
        part: 'query',
        value: edit(analytics, { end_date: '2025-02-30' }),
        message: "Parameter 'end_date' must be a date (YYYY-MM-DD).",
      },
      {
        kind: 'enum',
        part: 'query',
        value: edit(analytics, { aggregate_by: 'week' }),
        message: "Value for 'aggregate_by' not supported. Expected one of: 'period', 'day', ''.",
      },
    ],
  },
} satisfies Record<string, EndpointCases>;
