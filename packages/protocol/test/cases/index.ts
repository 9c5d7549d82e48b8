import type { OperationId } from '../../src/index.js';
import { DOCUMENT_VOICE_CASES } from './documents-voice.js';
import { GLOSSARY_CASES } from './glossaries.js';
import { LANGUAGE_TOOL_CASES } from './language-tools.js';
import { SPINE_CASES } from './spine.js';
import { STYLE_RULE_CASES } from './style-rules.js';
import { TRANSLATE_CASES } from './translate.js';
import { TRANSLATION_MEMORY_CASES } from './translation-memories.js';
import type { EndpointCases } from './types.js';

/** Cases for every endpoint: the type makes a missing endpoint a compile error. */
export const CASES: Record<OperationId, EndpointCases> = {
  ...TRANSLATE_CASES,
  ...SPINE_CASES,
  ...LANGUAGE_TOOL_CASES,
  ...GLOSSARY_CASES,
  ...STYLE_RULE_CASES,
  ...TRANSLATION_MEMORY_CASES,
  ...DOCUMENT_VOICE_CASES,
};
