import { type EndpointCases, edit, G1, TIME } from './types.js';

const v2 = {
  name: 'acceptance',
  source_lang: 'en',
  target_lang: 'es',
  entries: 'file\tarchivo\nbutton\tbotón',
  entries_format: 'tsv',
};
const dictionary = { source_lang: 'en', target_lang: 'es', entries: 'car\tcoche', entries_format: 'tsv' };
const v3 = {
  name: 'multilingual',
  dictionaries: [
    dictionary,
    { ...dictionary, target_lang: 'de', entries: 'car,Auto', entries_format: 'csv' },
  ],
};
const glossaryV2 = {
  glossary_id: G1,
  name: 'acceptance',
  ready: true,
  source_lang: 'en',
  target_lang: 'es',
  creation_time: TIME,
  entry_count: 2,
};
const glossary = {
  glossary_id: G1,
  name: 'multilingual',
  dictionaries: [{ source_lang: 'en', target_lang: 'es', entry_count: 1 }],
  creation_time: TIME,
};
const params = { glossary_id: G1 };
const badParams = {
  kind: 'format',
  part: 'params',
  value: { glossary_id: 'abc' },
  message: "Parameter 'glossary_id' must be a UUID.",
} as const;
const missingParams = {
  kind: 'missing',
  part: 'params',
  value: {},
  message: "Missing required parameter 'glossary_id'.",
} as const;
const typeParams = {
  kind: 'type',
  part: 'params',
  value: { glossary_id: 5 },
  message: "Parameter 'glossary_id' must be a string.",
} as const;
const pair = { source_lang: 'en', target_lang: 'es' };
const formats = "Expected one of: 'tsv', 'csv'.";

export const GLOSSARY_CASES = {
  createGlossaryV2: {
    valid: { body: v2 },
    response: glossaryV2,
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(v2, { entries_format: undefined }),
        message: "Missing required parameter 'entries_format'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(v2, { entries: ['file\tarchivo'] }),
        message: "Parameter 'entries' must be a string.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(v2, { entries_format: 'xlsx' }),
        message: `Value for 'entries_format' not supported. ${formats}`,
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(v2, { name: '' }),
        message: "Parameter 'name' must not be empty.",
      },
    ],
  },
  listGlossariesV2: { valid: {}, response: { glossaries: [glossaryV2] } },
  getGlossaryV2: { valid: { params }, response: glossaryV2, rejects: [missingParams, typeParams, badParams] },
  deleteGlossaryV2: { valid: { params }, rejects: [missingParams, typeParams, badParams] },
  getGlossaryEntriesV2: { valid: { params }, rejects: [missingParams, typeParams, badParams] },
  createGlossary: {
    valid: { body: v3 },
    response: glossary,
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(v3, { name: undefined }),
        message: "Missing required parameter 'name'.",
      },
      {
        kind: 'missing',
        part: 'body',
        value: edit(v3, { dictionaries: [edit(dictionary, { entries: undefined })] }),
        message: "Missing required parameter 'dictionaries[0].entries'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(v3, { dictionaries: dictionary }),
        message: "Parameter 'dictionaries' must be an array.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(v3, { dictionaries: [edit(dictionary, { entries_format: 'tmx' })] }),
        message: `Value for 'dictionaries[0].entries_format' not supported. ${formats}`,
      },
    ],
  },
  listGlossaries: { valid: {}, response: { glossaries: [glossary] } },
  getGlossary: { valid: { params }, response: glossary, rejects: [missingParams, typeParams, badParams] },
  updateGlossary: {
    valid: { params, body: { name: 'renamed', dictionaries: [dictionary] } },
    response: glossary,
    accepts: [
      { part: 'body', value: { name: 'renamed' }, why: 'name only' },
      {
        part: 'body',
        value: { dictionaries: [dictionary] },
        why: 'one dictionary only',
        bounds: ['dictionaries'],
      },
    ],
    rejects: [
      missingParams,
      typeParams,
      {
        kind: 'missing',
        part: 'body',
        value: {},
        message: "Expected at least one of: 'name', 'dictionaries'.",
      },
      { kind: 'type', part: 'body', value: { name: 3 }, message: "Parameter 'name' must be a string." },
      {
        kind: 'enum',
        part: 'body',
        value: { dictionaries: [edit(dictionary, { entries_format: 'json' })] },
        message: `Value for 'dictionaries[0].entries_format' not supported. ${formats}`,
      },
      {
        kind: 'limit',
        part: 'body',
        value: { dictionaries: [dictionary, dictionary] },
        message: "Parameter 'dictionaries' has too many items (at most 1).",
      },
    ],
  },
  deleteGlossary: { valid: { params }, rejects: [missingParams, typeParams, badParams] },
  getGlossaryEntries: {
    valid: { params, query: pair },
    response: {
      dictionaries: [{ source_lang: 'en', target_lang: 'es', entries: 'car\tcoche', entries_format: 'tsv' }],
    },
    rejects: [
      missingParams,
      typeParams,
      {
        kind: 'missing',
        part: 'query',
        value: { source_lang: 'en' },
        message: "Missing required parameter 'target_lang'.",
      },
      {
        kind: 'format',
        part: 'query',
        value: { source_lang: 'en', target_lang: 'e' },
        message: "Parameter 'target_lang' is too short (at least 2 characters).",
      },
      {
        kind: 'type',
        part: 'query',
        value: { source_lang: 'en', target_lang: ['es', 'de'] },
        message: "Parameter 'target_lang' must be a string.",
      },
    ],
  },
  replaceGlossaryDictionary: {
    valid: { params, body: dictionary },
    response: { source_lang: 'en', target_lang: 'es', entry_count: 1 },
    rejects: [
      missingParams,
      typeParams,
      {
        kind: 'missing',
        part: 'body',
        value: edit(dictionary, { source_lang: undefined }),
        message: "Missing required parameter 'source_lang'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(dictionary, { entries: 1 }),
        message: "Parameter 'entries' must be a string.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(dictionary, { entries_format: 'TSV ' }),
        message: `Value for 'entries_format' not supported. ${formats}`,
      },
    ],
  },
  deleteGlossaryDictionary: {
    valid: { params, query: pair },
    rejects: [
      missingParams,
      typeParams,
      {
        kind: 'missing',
        part: 'query',
        value: { target_lang: 'es' },
        message: "Missing required parameter 'source_lang'.",
      },
      {
        kind: 'type',
        part: 'query',
        value: { source_lang: 1, target_lang: 'es' },
        message: "Parameter 'source_lang' must be a string.",
      },
    ],
  },
} satisfies Record<string, EndpointCases>;
