/** Style rule lists (`/v3/style_rules`) and their custom instructions. Paid plans only. */

import type { ConfiguredRules, CustomInstruction, StyleRuleList } from '@glossa/protocol';
import type { RequestOptions } from '../options.js';
import { requestOptionsOf } from '../translate.js';
import type { Transport } from '../transport.js';
import { idSegment, requireString, toWire } from '../wire-names.js';

export interface CustomInstructionInput {
  label: string;
  /** At most 300 characters. */
  prompt: string;
  sourceLanguage?: string | undefined;
}

export interface CreateStyleRuleListOptions extends RequestOptions {
  name: string;
  /** Root target language: de, en, es, fr, it, ja, ko or zh. */
  language: string;
  configuredRules?: ConfiguredRules | undefined;
  customInstructions?: CustomInstructionInput[] | undefined;
}

export interface ListStyleRulesOptions extends RequestOptions {
  page?: number | undefined;
  /** 1 to 25; default 10. */
  pageSize?: number | undefined;
  /** Include each list's rules and instructions. */
  detailed?: boolean | undefined;
}

function instructionBody(instruction: CustomInstructionInput) {
  requireString('label', instruction?.label);
  requireString('prompt', instruction.prompt);
  return toWire(instruction, ['label', 'prompt', 'sourceLanguage']);
}

export class StyleRules {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  async create(options: CreateStyleRuleListOptions): Promise<StyleRuleList> {
    return this.#transport.request<StyleRuleList>({
      method: 'POST',
      path: '/v3/style_rules',
      json: {
        name: requireString('name', options?.name),
        language: requireString('language', options.language),
        configured_rules: options.configuredRules ?? {},
        custom_instructions: (options.customInstructions ?? []).map(instructionBody),
      },
      options: requestOptionsOf(options),
    });
  }

  /** One page of lists. */
  async list(options: ListStyleRulesOptions = {}): Promise<StyleRuleList[]> {
    const response = await this.#transport.request<{ style_rules: StyleRuleList[] }>({
      method: 'GET',
      path: '/v3/style_rules',
      query: { page: options.page, page_size: options.pageSize, detailed: options.detailed },
      options: requestOptionsOf(options),
    });
    return response.style_rules;
  }

  async get(styleId: string, options?: RequestOptions): Promise<StyleRuleList> {
    return this.#transport.request<StyleRuleList>({
      method: 'GET',
      path: `/v3/style_rules/${idSegment('styleId', styleId)}`,
      options: requestOptionsOf(options),
    });
  }

  async rename(styleId: string, name: string, options?: RequestOptions): Promise<StyleRuleList> {
    return this.#transport.request<StyleRuleList>({
      method: 'PATCH',
      path: `/v3/style_rules/${idSegment('styleId', styleId)}`,
      json: { name: requireString('name', name) },
      options: requestOptionsOf(options),
    });
  }

  /** Replace all configured rules; custom instructions stay. */
  async replaceConfiguredRules(
    styleId: string,
    rules: ConfiguredRules,
    options?: RequestOptions,
  ): Promise<StyleRuleList> {
    if (typeof rules !== 'object' || rules === null) throw new TypeError('Expected `rules` to be an object');
    return this.#transport.request<StyleRuleList>({
      method: 'PUT',
      path: `/v3/style_rules/${idSegment('styleId', styleId)}/configured_rules`,
      json: rules,
      options: requestOptionsOf(options),
    });
  }

  async delete(styleId: string, options?: RequestOptions): Promise<void> {
    await this.#transport.request<void>({
      method: 'DELETE',
      path: `/v3/style_rules/${idSegment('styleId', styleId)}`,
      expect: 'none',
      options: requestOptionsOf(options),
    });
  }

  async addInstruction(
    styleId: string,
    instruction: CustomInstructionInput,
    options?: RequestOptions,
  ): Promise<CustomInstruction> {
    return this.#transport.request<CustomInstruction>({
      method: 'POST',
      path: `/v3/style_rules/${idSegment('styleId', styleId)}/custom_instructions`,
      json: instructionBody(instruction),
      options: requestOptionsOf(options),
    });
  }

  async getInstruction(
    styleId: string,
    instructionId: string,
    options?: RequestOptions,
  ): Promise<CustomInstruction> {
    return this.#transport.request<CustomInstruction>({
      method: 'GET',
      path: `/v3/style_rules/${idSegment('styleId', styleId)}/custom_instructions/${idSegment('instructionId', instructionId)}`,
      options: requestOptionsOf(options),
    });
  }

  /** Replace an instruction; every field is required. */
  async replaceInstruction(
    styleId: string,
    instructionId: string,
    instruction: CustomInstructionInput,
    options?: RequestOptions,
  ): Promise<CustomInstruction> {
    return this.#transport.request<CustomInstruction>({
      method: 'PUT',
      path: `/v3/style_rules/${idSegment('styleId', styleId)}/custom_instructions/${idSegment('instructionId', instructionId)}`,
      json: instructionBody(instruction),
      options: requestOptionsOf(options),
    });
  }

  async deleteInstruction(styleId: string, instructionId: string, options?: RequestOptions): Promise<void> {
    await this.#transport.request<void>({
      method: 'DELETE',
      path: `/v3/style_rules/${idSegment('styleId', styleId)}/custom_instructions/${idSegment('instructionId', instructionId)}`,
      expect: 'none',
      options: requestOptionsOf(options),
    });
  }
}
