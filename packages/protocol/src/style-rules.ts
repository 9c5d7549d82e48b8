import { type Static, Type } from '@sinclair/typebox';
import { DateTime, LanguageCode, LanguageCodeIn, Name, Uuid } from './common.js';
import { STYLE_RULE_LANGUAGES } from './languages.js';
import {
  DEFAULT_STYLE_RULES_PAGE_SIZE,
  MAX_CUSTOM_INSTRUCTION_LABEL_LENGTH,
  MAX_CUSTOM_INSTRUCTION_LENGTH,
  MAX_STYLE_RULE_CUSTOM_INSTRUCTIONS,
  MAX_STYLE_RULES_PAGE_SIZE,
} from './limits.js';

/** Configured rules the interface names, with their option values (more may exist; the map is open). */
export const KNOWN_CONFIGURED_RULES = {
  dates_and_times: { calendar_era: ['use_bc_and_ad', 'use_bce_and_ce'] },
  punctuation: { periods_in_academic_degrees: ['use', 'do_not_use'] },
} as const;

/** `configured_rules`: category → rule → option value. No limit on the number of rules. */
export const ConfiguredRules = Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
  $id: 'ConfiguredRules',
  description: 'category name → rule name → option value',
});
export type ConfiguredRules = Static<typeof ConfiguredRules>;

/** A custom instruction as sent (POST, PUT: all fields except the optional source_language required). */
export const CustomInstructionInput = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: MAX_CUSTOM_INSTRUCTION_LABEL_LENGTH }),
    prompt: Type.String({ minLength: 1, maxLength: MAX_CUSTOM_INSTRUCTION_LENGTH }),
    source_language: Type.Optional(LanguageCode),
  },
  { $id: 'CustomInstructionInput', additionalProperties: false },
);
export type CustomInstructionInput = Static<typeof CustomInstructionInput>;

/** A custom instruction as stored: the input plus the `id` the service assigns. */
export const CustomInstruction = Type.Object(
  {
    id: Uuid,
    label: Type.String(),
    prompt: Type.String(),
    source_language: Type.Optional(Type.String()),
  },
  { $id: 'CustomInstruction' },
);
export type CustomInstruction = Static<typeof CustomInstruction>;

const StyleLanguage = LanguageCodeIn(STYLE_RULE_LANGUAGES, 'root language; `en` serves en-US and en-GB');

/** POST /v3/style_rules body. */
export const CreateStyleRuleListRequest = Type.Object(
  {
    name: Name,
    language: StyleLanguage,
    configured_rules: Type.Optional(ConfiguredRules),
    custom_instructions: Type.Optional(
      Type.Array(CustomInstructionInput, { maxItems: MAX_STYLE_RULE_CUSTOM_INSTRUCTIONS }),
    ),
  },
  { $id: 'CreateStyleRuleListRequest', additionalProperties: false },
);
export type CreateStyleRuleListRequest = Static<typeof CreateStyleRuleListRequest>;

/** A style rule list. The list endpoint leaves out `configured_rules` and `custom_instructions` unless `detailed`. */
export const StyleRuleList = Type.Object(
  {
    style_id: Uuid,
    name: Type.String(),
    creation_time: DateTime,
    updated_time: DateTime,
    language: Type.String(),
    version: Type.Integer({ minimum: 1, description: 'starts at 1; +1 on every change' }),
    configured_rules: Type.Optional(ConfiguredRules),
    custom_instructions: Type.Optional(Type.Array(CustomInstruction)),
  },
  { $id: 'StyleRuleList' },
);
export type StyleRuleList = Static<typeof StyleRuleList>;

/** GET /v3/style_rules query. */
export const StyleRuleListsQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0 })),
    page_size: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_STYLE_RULES_PAGE_SIZE,
        default: DEFAULT_STYLE_RULES_PAGE_SIZE,
      }),
    ),
    detailed: Type.Optional(Type.Boolean()),
  },
  { $id: 'StyleRuleListsQuery', additionalProperties: false },
);
export type StyleRuleListsQuery = Static<typeof StyleRuleListsQuery>;

export const StyleRuleLists = Type.Object(
  { style_rules: Type.Array(StyleRuleList) },
  { $id: 'StyleRuleLists' },
);
export type StyleRuleLists = Static<typeof StyleRuleLists>;

/** PATCH /v3/style_rules/{style_id} body. */
export const UpdateStyleRuleListRequest = Type.Object(
  { name: Name },
  { $id: 'UpdateStyleRuleListRequest', additionalProperties: false },
);
export type UpdateStyleRuleListRequest = Static<typeof UpdateStyleRuleListRequest>;

export const StyleIdParams = Type.Object({ style_id: Uuid }, { additionalProperties: false });
export const InstructionParams = Type.Object(
  { style_id: Uuid, instruction_id: Uuid },
  { additionalProperties: false },
);

/** Whether a list in `language` (a root) applies to `target` (`en` applies to `EN-US` and `en-GB`). */
export function styleListAppliesTo(language: string, target: string): boolean {
  return language.toLowerCase() === target.split('-')[0]!.toLowerCase();
}
