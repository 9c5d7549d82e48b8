import { type EndpointCases, edit, G1, G2, TIME } from './types.js';

const instruction = { label: 'Sign in', prompt: 'Use "sign in" instead of "log in"', source_language: 'de' };
const create = {
  name: 'house',
  language: 'en',
  configured_rules: {
    punctuation: { periods_in_academic_degrees: 'do_not_use' },
    dates_and_times: { calendar_era: 'use_bc_and_ad' },
  },
  custom_instructions: [instruction],
};
const list = {
  style_id: G1,
  name: 'house',
  creation_time: TIME,
  updated_time: TIME,
  language: 'en',
  version: 1,
  configured_rules: create.configured_rules,
  custom_instructions: [{ id: G2, ...instruction }],
};
const params = { style_id: G1 };
const instructionParams = { style_id: G1, instruction_id: G2 };
const styleParamCases = [
  { kind: 'missing', part: 'params', value: {}, message: "Missing required parameter 'style_id'." },
  { kind: 'type', part: 'params', value: { style_id: 1 }, message: "Parameter 'style_id' must be a string." },
  {
    kind: 'format',
    part: 'params',
    value: { style_id: 'house' },
    message: "Parameter 'style_id' must be a UUID.",
  },
] as const;
const instructionParamCases = [
  {
    kind: 'missing',
    part: 'params',
    value: { style_id: G1 },
    message: "Missing required parameter 'instruction_id'.",
  },
  {
    kind: 'type',
    part: 'params',
    value: { style_id: G1, instruction_id: [G2] },
    message: "Parameter 'instruction_id' must be a string.",
  },
  {
    kind: 'format',
    part: 'params',
    value: { style_id: G1, instruction_id: '7' },
    message: "Parameter 'instruction_id' must be a UUID.",
  },
] as const;
const instructionCases = [
  {
    kind: 'missing',
    part: 'body',
    value: edit(instruction, { prompt: undefined }),
    message: "Missing required parameter 'prompt'.",
  },
  {
    kind: 'type',
    part: 'body',
    value: edit(instruction, { label: null }),
    message: "Parameter 'label' must be a string.",
  },
  {
    kind: 'limit',
    part: 'body',
    value: edit(instruction, { prompt: 'x'.repeat(301) }),
    message: "Parameter 'prompt' is too long (at most 300 characters).",
  },
  {
    kind: 'limit',
    part: 'body',
    value: edit(instruction, { label: 'l'.repeat(101) }),
    message: "Parameter 'label' is too long (at most 100 characters).",
  },
] as const;
const instructionAccepts = [
  {
    part: 'body',
    value: edit(instruction, { label: 'l'.repeat(100), prompt: 'x'.repeat(300), source_language: undefined }),
    why: 'a 100-character label and a 300-character prompt',
    bounds: ['label', 'prompt'],
  },
] as const;
const languages = "Expected one of: 'de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'zh'.";

export const STYLE_RULE_CASES = {
  createStyleRuleList: {
    valid: { body: create },
    response: list,
    accepts: [
      {
        part: 'body',
        value: { name: 'minimal', language: 'DE' },
        why: 'name and language only, code in any case',
      },
      {
        part: 'body',
        value: edit(create, {
          custom_instructions: Array(200).fill(
            edit(instruction, { label: 'l'.repeat(100), prompt: 'x'.repeat(300) }),
          ),
        }),
        why: '200 instructions of 300 characters',
        bounds: ['custom_instructions', 'custom_instructions[0].label', 'custom_instructions[0].prompt'],
      },
    ],
    rejects: [
      {
        kind: 'missing',
        part: 'body',
        value: edit(create, { language: undefined }),
        message: "Missing required parameter 'language'.",
      },
      {
        kind: 'type',
        part: 'body',
        value: edit(create, { configured_rules: { punctuation: 'none' } }),
        message: "Parameter 'configured_rules.punctuation' must be an object.",
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(create, { language: 'pt' }),
        message: `Value for 'language' not supported. ${languages}`,
      },
      {
        kind: 'enum',
        part: 'body',
        value: edit(create, { language: 'en-US' }),
        message: `Value for 'language' not supported. ${languages}`,
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(create, { custom_instructions: Array(201).fill(instruction) }),
        message: "Parameter 'custom_instructions' has too many items (at most 200).",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(create, { custom_instructions: [edit(instruction, { prompt: 'x'.repeat(301) })] }),
        message: "Parameter 'custom_instructions[0].prompt' is too long (at most 300 characters).",
      },
      {
        kind: 'limit',
        part: 'body',
        value: edit(create, { custom_instructions: [edit(instruction, { label: 'l'.repeat(101) })] }),
        message: "Parameter 'custom_instructions[0].label' is too long (at most 100 characters).",
      },
    ],
  },
  listStyleRuleLists: {
    valid: { query: { page: 0, page_size: 10, detailed: true } },
    response: {
      style_rules: [list, edit(list, { configured_rules: undefined, custom_instructions: undefined })],
    },
    accepts: [
      { part: 'query', value: { page_size: 25 }, why: 'page_size 25 (the bound)', bounds: ['page_size'] },
      {
        part: 'query',
        value: { page_size: 1, page: 0 },
        why: 'page_size 1 and page 0 (the lower bounds)',
        bounds: ['page_size', 'page'],
      },
    ],
    rejects: [
      {
        kind: 'type',
        part: 'query',
        value: { detailed: 'yes' },
        message: "Parameter 'detailed' must be a boolean.",
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
  getStyleRuleList: { valid: { params }, response: list, rejects: styleParamCases },
  updateStyleRuleList: {
    valid: { params, body: { name: 'house2' } },
    response: edit(list, { name: 'house2', version: 2 }),
    rejects: [
      ...styleParamCases,
      { kind: 'missing', part: 'body', value: {}, message: "Missing required parameter 'name'." },
      { kind: 'type', part: 'body', value: { name: ['a'] }, message: "Parameter 'name' must be a string." },
    ],
  },
  replaceConfiguredRules: {
    valid: { params, body: { punctuation: { periods_in_academic_degrees: 'use' } } },
    response: list,
    accepts: [{ part: 'body', value: {}, why: 'no rules at all' }],
    rejects: [
      ...styleParamCases,
      {
        kind: 'type',
        part: 'body',
        value: { punctuation: { periods_in_academic_degrees: true } },
        message: "Parameter 'punctuation.periods_in_academic_degrees' must be a string.",
      },
    ],
  },
  deleteStyleRuleList: { valid: { params }, rejects: styleParamCases },
  createCustomInstruction: {
    valid: { params, body: instruction },
    response: { id: G2, ...instruction },
    accepts: instructionAccepts,
    rejects: [...styleParamCases, ...instructionCases],
  },
  getCustomInstruction: {
    valid: { params: instructionParams },
    response: { id: G2, ...instruction },
    rejects: instructionParamCases,
  },
  replaceCustomInstruction: {
    valid: { params: instructionParams, body: instruction },
    response: { id: G2, ...instruction },
    accepts: instructionAccepts,
    rejects: [...instructionParamCases, ...instructionCases],
  },
  deleteCustomInstruction: { valid: { params: instructionParams }, rejects: instructionParamCases },
} satisfies Record<string, EndpointCases>;
