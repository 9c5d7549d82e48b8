import { type EndpointCases, edit, G1, TIME, uuids } from './types.js';

const translate = {
  text: ['Hello, world!', 'The file is too large.'],
  target_lang: 'DE',
  source_lang: 'en',
  context: 'A greeting on a web page',
  show_billed_characters: true,
  split_sentences: 'nonewlines',
  preserve_formatting: false,
  formality: 'prefer_more',
  model_type: 'quality_optimized',
  glossary_ids: [G1],
  translation_memory_id: G1,
  translation_memory_threshold: 75,
  show_translation_memory_matches: true,
  custom_instructions: ['Use a friendly tone'],
  tag_handling: 'xml',
  tag_handling_version: 'v2',
  outline_detection: false,
  splitting_tags: 'p,br',
  non_splitting_tags: ['b', 'i'],
  ignore_tags: 'x',
};

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
  translateText: {
    valid: { body: translate },
    response: {
      translations: [
        {
          detected_source_language: 'EN',
          text: 'Hallo, Welt!',
          billed_characters: 13,
          model_type_used: 'quality_optimized',
          tag_handling_version: 'v2',
          customizations: {
            translation_memory_matches: [
              {
                translation_memory_id: G1,
                segment_id: 's1',
                match_score: 100,
                text_ranges: [{ start: 0, end: 13 }],
              },
            ],
          },
        },
      ],
      billed_characters: 13,
    },
    accepts: [
      {
        part: 'body',
        value: { text: ['Hi'], target_lang: 'en-xa' },
        why: 'minimal request, code in any case',
      },
      { part: 'body', value: edit(translate, { glossary_ids: uuids(5) }), why: '5 glossary_ids (the bound)' },
      {
        part: 'body',
        value: edit(translate, { custom_instructions: Array(10).fill('x'.repeat(300)) }),
        why: '10 custom instructions of 300 characters (the bounds)',
      },
      { part: 'body', value: edit(translate, { translation_memory_threshold: 0 }), why: 'threshold 0' },
      { part: 'body', value: edit(translate, { translation_memory_threshold: 100 }), why: 'threshold 100' },
    ],
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(translate, { text: undefined }),
        message: "Missing required parameter 'text'.",
      },
      {
        kind: 'missing',
        part: 'body',
        value: edit(translate, { target_lang: undefined }),
        message: "Missing required parameter 'target_lang'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(translate, { text: 'Hello' }),
        message: "Parameter 'text' must be an array.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(translate, { show_billed_characters: 'yes' }),
        message: "Parameter 'show_billed_characters' must be a boolean.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(translate, { translation_memory_threshold: 75.5 }),
        message: "Parameter 'translation_memory_threshold' must be an integer.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(translate, { formality: 'very' }),
        message:
          "Value for 'formality' not supported. Expected one of: 'default', 'more', 'less', 'prefer_more', 'prefer_less'.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(translate, { split_sentences: '2' }),
        message: "Value for 'split_sentences' not supported. Expected one of: '0', '1', 'nonewlines'.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(translate, { tag_handling: 'markdown' }),
        message: "Value for 'tag_handling' not supported. Expected one of: 'xml', 'html'.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(translate, { glossary_ids: uuids(6) }),
        message: "Parameter 'glossary_ids' has too many items (at most 5).",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(translate, { custom_instructions: Array(11).fill('Be brief') }),
        message: "Parameter 'custom_instructions' has too many items (at most 10).",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(translate, { custom_instructions: ['x'.repeat(301)] }),
        message: "Parameter 'custom_instructions[0]' is too long (at most 300 characters).",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(translate, { translation_memory_threshold: 101 }),
        message: "Parameter 'translation_memory_threshold' must be between 0 and 100.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(translate, { translation_memory_threshold: -1 }),
        message: "Parameter 'translation_memory_threshold' must be between 0 and 100.",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(translate, { text: [] }),
        message: "Parameter 'text' must not be empty.",
      },
      {
        kind: 'format',
        part: 'body',
        value: edit(translate, { target_lang: 'German!' }),
        message:
          "Parameter 'target_lang' has an invalid format (expected a language code such as de or en-US).",
      },
      {
        kind: 'format',
        part: 'body',
        value: edit(translate, { glossary_ids: ['not-a-uuid'] }),
        message: "Parameter 'glossary_ids[0]' must be a UUID.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(translate, { ignore_tags: 5 }),
        message: "Parameter 'ignore_tags' must be a string or an array of them.",
      },
      {
        kind: 'unknown',
        part: 'body',
        value: edit(translate, { formal: true }),
        message: "Unknown parameter 'formal'.",
      },
    ],
  },
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
    accepts: [{ part: 'query', value: edit(analytics, { aggregate_by: '' }), why: 'an empty aggregate_by' }],
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
