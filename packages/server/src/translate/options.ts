import {
  baseLanguage,
  CUSTOM_INSTRUCTION_LANGUAGES,
  type TranslateRequest,
  toV2LanguageCode,
} from '@glossa/protocol';
import type { Caller, ServiceContext } from '../context.js';
import type { EngineFormality } from '../engines/engine.js';
import type { EngineChoice } from '../engines/registry.js';
import { badRequest, notFound, ServiceError } from '../errors.js';
import type { PrepareOptions } from './prepare.js';

const v2 = toV2LanguageCode;

function tagSet(list: string | readonly string[] | undefined, html: boolean): Set<string> {
  const items = typeof list === 'string' ? list.split(',') : (list ?? []);
  return new Set(items.map((tag) => (html ? tag.trim().toLowerCase() : tag.trim())).filter(Boolean));
}

/** The text-preparation options of a request (wire decisions: `split_sentences` defaults by tag handling). */
export function prepareOptions(request: TranslateRequest): PrepareOptions {
  const html = request.tag_handling === 'html';
  return {
    tagHandling: request.tag_handling,
    splitSentences: request.split_sentences ?? (html ? 'nonewlines' : '1'),
    splittingTags: tagSet(request.splitting_tags, html),
    nonSplittingTags: tagSet(request.non_splitting_tags, html),
    ignoreTags: tagSet(request.ignore_tags, html),
    preserveFormatting: request.preserve_formatting ?? false,
  };
}

/** `more`/`less` need an engine with formality for the target (else 400); `prefer_*` fall back to default. */
export function engineFormality(
  request: TranslateRequest,
  choice: EngineChoice,
  target: string,
): EngineFormality {
  const asked = request.formality ?? 'default';
  if (asked === 'default') return 'default';
  const supported = choice.engine.supportsFormality(choice.pair.target);
  if (asked === 'more' || asked === 'less') {
    if (!supported) {
      throw badRequest(
        `'formality' is not supported for target language ${v2(target)}; use 'prefer_${asked}' to fall back to the default.`,
      );
    }
    return asked;
  }
  return supported ? (asked === 'prefer_more' ? 'more' : 'less') : 'default';
}

/** Rules that depend on the account and the target language rather than on the request's shape. */
export function checkRequestRules(request: TranslateRequest, target: string, caller: Caller): void {
  if (request.custom_instructions && request.custom_instructions.length > 0) {
    if (!(CUSTOM_INSTRUCTION_LANGUAGES as readonly string[]).includes(baseLanguage(target))) {
      throw badRequest(
        `'custom_instructions' are not supported for target language ${v2(target)} (supported: ${CUSTOM_INSTRUCTION_LANGUAGES.join(', ')} and their variants).`,
      );
    }
  }
  if (request.show_translation_memory_matches && !caller.account.memoryMatches) {
    throw badRequest("'show_translation_memory_matches' is not available for this account.");
  }
}

/**
 * Glossaries, translation memory and style list must exist in the caller's account (404 otherwise, also
 * for another account's id) and fit the request's languages.
 */
export async function checkResources(
  request: TranslateRequest,
  source: string | undefined,
  target: string,
  caller: Caller,
  context: ServiceContext,
): Promise<void> {
  const accountId = caller.account.id;
  const glossaryIds =
    request.glossary_ids ?? (request.glossary_id !== undefined ? [request.glossary_id] : []);
  for (const id of glossaryIds) {
    const glossary = await context.resources.glossary(accountId, id);
    if (!glossary) throw notFound(`Glossary '${id}' not found.`);
    const fits = glossary.dictionaries.some(
      (pair) =>
        source !== undefined &&
        baseLanguage(pair.source) === baseLanguage(source) &&
        baseLanguage(pair.target) === baseLanguage(target),
    );
    if (!fits) {
      // The public service's wording (400), which its clients match on.
      throw badRequest(
        `No dictionary found for language pair ${v2(source ?? '')} → ${v2(target)} in glossary '${id}'.`,
      );
    }
  }
  if (request.translation_memory_id !== undefined) {
    const id = request.translation_memory_id;
    const memory = await context.resources.translationMemory(accountId, id);
    if (!memory) throw notFound(`Translation memory '${id}' not found.`);
    const covers =
      (source === undefined || baseLanguage(memory.source) === baseLanguage(source)) &&
      memory.targets.some((language) => baseLanguage(language) === baseLanguage(target));
    if (!covers)
      throw notFound(`Translation memory '${id}' does not cover ${v2(source ?? '')} → ${v2(target)}.`);
  }
  if (request.style_id !== undefined) {
    const list = await context.resources.styleList(accountId, request.style_id);
    if (!list) throw notFound(`Style rule list '${request.style_id}' not found.`);
    if (baseLanguage(list.language) !== baseLanguage(target)) {
      throw new ServiceError(
        400,
        `Style rule list '${request.style_id}' is for ${list.language}, not for target language ${v2(target)}.`,
        'invalid_request',
      );
    }
  }
}
