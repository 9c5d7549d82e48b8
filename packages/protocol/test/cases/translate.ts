import { type EndpointCases, edit, G1, uuids } from './types.js';

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

export const TRANSLATE_CASES = {
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
      {
        part: 'body',
        value: edit(translate, { glossary_ids: uuids(5) }),
        why: '5 glossary_ids (the bound)',
        bounds: ['glossary_ids'],
      },
      {
        part: 'body',
        value: edit(translate, { custom_instructions: Array(10).fill('x'.repeat(300)) }),
        why: '10 custom instructions of 300 characters (the bounds)',
        bounds: ['custom_instructions', 'custom_instructions[0]'],
      },
      {
        part: 'body',
        value: edit(translate, { translation_memory_threshold: 0 }),
        why: 'threshold 0',
        bounds: ['translation_memory_threshold'],
      },
      {
        part: 'body',
        value: edit(translate, { translation_memory_threshold: 100 }),
        why: 'threshold 100',
        bounds: ['translation_memory_threshold'],
      },
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
} satisfies Record<string, EndpointCases>;
