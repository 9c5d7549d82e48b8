/** Style rule list endpoints (paid plans only: the protocol's access rule makes a free key a 403). */
import {
  type ConfiguredRules,
  DEFAULT_STYLE_RULES_PAGE_SIZE,
  ENDPOINTS,
  MAX_STYLE_RULE_CUSTOM_INSTRUCTIONS,
  type StyleRuleList,
} from '@glossa/protocol';
import { badRequest, notFound } from '../errors.js';
import { defineRoute, type Route } from '../http/route.js';
import { checkConfiguredRules } from './rules.js';
import { type StyleListRecord, withId } from './store.js';

const missing = (id: string) => notFound(`Style rule list '${id}' not found.`);

function checked(rules: ConfiguredRules): ConfiguredRules {
  const problem = checkConfiguredRules(rules);
  if (problem) throw badRequest(problem);
  return rules;
}

function toWire(list: StyleListRecord, detailed = true): StyleRuleList {
  const wire: StyleRuleList = {
    style_id: list.id,
    name: list.name,
    creation_time: list.createdAt,
    updated_time: list.updatedAt,
    language: list.language,
    version: list.version,
  };
  if (detailed) {
    wire.configured_rules = list.configuredRules;
    wire.custom_instructions = [...list.customInstructions];
  }
  return wire;
}

const tooMany = () =>
  badRequest(`A style rule list holds at most ${MAX_STYLE_RULE_CUSTOM_INSTRUCTIONS} custom instructions.`);

export const STYLE_RULE_ROUTES: readonly Route[] = [
  defineRoute(ENDPOINTS.createStyleRuleList, async ({ body, caller, context }) => {
    const list = await context.resources.styleLists.create(caller.account.id, {
      name: body.name,
      language: body.language.toLowerCase(),
      configuredRules: checked(body.configured_rules ?? {}),
      customInstructions: body.custom_instructions ?? [],
    });
    return toWire(list);
  }),
  defineRoute(ENDPOINTS.listStyleRuleLists, async ({ query, caller, context }) => {
    const size = query.page_size ?? DEFAULT_STYLE_RULES_PAGE_SIZE;
    const lists = await context.resources.styleLists.list(caller.account.id, (query.page ?? 0) * size, size);
    return { style_rules: lists.map((list) => toWire(list, query.detailed === true)) };
  }),
  defineRoute(ENDPOINTS.getStyleRuleList, async ({ params, caller, context }) => {
    const list = await context.resources.styleLists.get(caller.account.id, params.style_id);
    if (!list) throw missing(params.style_id);
    return toWire(list);
  }),
  defineRoute(ENDPOINTS.updateStyleRuleList, async ({ params, body, caller, context }) => {
    const list = await context.resources.styleLists.update(caller.account.id, params.style_id, () => ({
      name: body.name,
    }));
    if (!list) throw missing(params.style_id);
    return toWire(list);
  }),
  defineRoute(ENDPOINTS.replaceConfiguredRules, async ({ params, body, caller, context }) => {
    const rules = checked(body);
    const list = await context.resources.styleLists.update(caller.account.id, params.style_id, () => ({
      configuredRules: rules,
    }));
    if (!list) throw missing(params.style_id);
    return toWire(list);
  }),
  defineRoute(ENDPOINTS.deleteStyleRuleList, async ({ params, caller, context }) => {
    if (!(await context.resources.styleLists.delete(caller.account.id, params.style_id))) {
      throw missing(params.style_id);
    }
  }),
  defineRoute(ENDPOINTS.createCustomInstruction, async ({ params, body, caller, context }) => {
    const instruction = withId(body);
    const list = await context.resources.styleLists.update(caller.account.id, params.style_id, (current) => {
      if (current.customInstructions.length >= MAX_STYLE_RULE_CUSTOM_INSTRUCTIONS) throw tooMany();
      return { customInstructions: [...current.customInstructions, instruction] };
    });
    if (!list) throw missing(params.style_id);
    return instruction;
  }),
  defineRoute(ENDPOINTS.getCustomInstruction, async ({ params, caller, context }) => {
    const list = await context.resources.styleLists.get(caller.account.id, params.style_id);
    if (!list) throw missing(params.style_id);
    const instruction = list.customInstructions.find((item) => item.id === params.instruction_id);
    if (!instruction) throw notFound(`Custom instruction '${params.instruction_id}' not found.`);
    return instruction;
  }),
  defineRoute(ENDPOINTS.replaceCustomInstruction, async ({ params, body, caller, context }) => {
    const instruction = withId(body, params.instruction_id);
    let found = false;
    const list = await context.resources.styleLists.update(caller.account.id, params.style_id, (current) => {
      found = current.customInstructions.some((item) => item.id === params.instruction_id);
      if (!found) return undefined;
      return {
        customInstructions: current.customInstructions.map((item) =>
          item.id === params.instruction_id ? instruction : item,
        ),
      };
    });
    if (!list) throw missing(params.style_id);
    if (!found) throw notFound(`Custom instruction '${params.instruction_id}' not found.`);
    return instruction;
  }),
  defineRoute(ENDPOINTS.deleteCustomInstruction, async ({ params, caller, context }) => {
    let found = false;
    const list = await context.resources.styleLists.update(caller.account.id, params.style_id, (current) => {
      found = current.customInstructions.some((item) => item.id === params.instruction_id);
      if (!found) return undefined;
      return {
        customInstructions: current.customInstructions.filter((item) => item.id !== params.instruction_id),
      };
    });
    if (!list) throw missing(params.style_id);
    if (!found) throw notFound(`Custom instruction '${params.instruction_id}' not found.`);
  }),
];
