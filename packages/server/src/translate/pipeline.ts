import {
  baseLanguage,
  canonicalLanguage,
  checkTranslateRules,
  DEFAULT_TAG_HANDLING_VERSION,
  ERROR_CODES,
  type TranslateRequest,
  type TranslateResponse,
  type Translation,
  toV2LanguageCode,
} from '@glossa/protocol';
import type { Caller, ServiceContext } from '../context.js';
import { createEngineBill } from '../engines/billing.js';
import {
  EngineError,
  type EngineFormality,
  type EngineTerms,
  UnsupportedPairError,
} from '../engines/engine.js';
import type { EngineChoice } from '../engines/registry.js';
import { badRequest, ServiceError, unsupportedLanguage } from '../errors.js';
import type { EngineUsageRecord } from '../storage/storage.js';
import { currentBillingPeriod } from './billing-period.js';
import { loadCustomizations, memoryMatchesOf, type UnitMatch } from './customizations.js';
import { checkRequestRules, checkResources, engineFormality, prepareOptions } from './options.js';
import { type PreparedText, prepareText } from './prepare.js';

const v2 = toV2LanguageCode;

function language(code: string, parameter: string): string {
  const canonical = canonicalLanguage(code);
  if (!canonical) throw unsupportedLanguage(`Value for '${parameter}' not supported: '${code}'.`);
  return canonical;
}

/** Lower-case words a text needs before the engine's vocabulary may overrule the detector. */
const WORDS_TO_CHECK = 3;

/**
 * The source language of each text, detected among the sources that reach the target. The engine has the
 * last word: a text of three lower-case words or more, more than half of which its analyser for the detected
 * language does not know, is in another language (Polish, Estonian or Hungarian put on English by the
 * detector), and is refused rather than returned half untranslated.
 */
async function detectSources(
  prepared: readonly PreparedText[],
  target: string,
  context: ServiceContext,
): Promise<string[]> {
  const candidates = context.engines.sourcesFor(target);
  const detectChecked = async (text: string) => {
    const code = await context.detector.detect(text, candidates);
    const choice =
      code !== undefined && candidates.has(code) ? context.engines.select(code, target) : undefined;
    const count = choice && (await choice.engine.knownWords?.(choice.pair, text).catch(() => undefined));
    return count && count.words >= WORDS_TO_CHECK && count.known * 2 < count.words ? undefined : code;
  };
  // The same text is detected once per request (a request may repeat a short text thousands of times).
  const seen = new Map<string, Promise<string | undefined>>();
  const detectOnce = (text: string) => {
    let result = seen.get(text);
    if (!result) {
      result = detectChecked(text);
      seen.set(text, result);
    }
    return result;
  };
  const detected = await Promise.all(
    prepared.map((text) =>
      text.units.length === 0 ? undefined : detectOnce(text.units.join(' ').replace(/<[^>]*>/g, ' ')),
    ),
  );
  const fallback =
    detected.find((code) => code !== undefined) ?? (candidates.has('en') ? 'en' : [...candidates][0]);
  return detected.map((code, index) => {
    // Detected in a language no engine translates to the target: refused before anything is billed, never
    // answered with the text unchanged under another language's name.
    if (code !== undefined && !candidates.has(code)) {
      throw unsupportedLanguage(
        `Language pair ${v2(code)} → ${v2(target)} is not supported by this server's engines (text[${index}] was detected as ${v2(code)}); send 'source_lang' if that is wrong.`,
      );
    }
    if (code !== undefined) return code;
    if (prepared[index]!.units.length === 0 && fallback !== undefined) return fallback;
    throw new ServiceError(
      400,
      `Could not detect the source language of text[${index}] among the languages that translate into ${v2(target)}; send 'source_lang'.`,
      ERROR_CODES.unsupportedLanguage,
    );
  });
}

interface Group {
  readonly choice: EngineChoice;
  readonly formality: EngineFormality;
  readonly units: string[];
  /** For each unit: the index of its text, and its index within that text (flat: one group holds many). */
  readonly textIndexes: number[];
  readonly unitIndexes: number[];
}

/** Stores what the engines were sent (none, for a request answered from caches: no await). */
function recordEngines(context: ServiceContext, records: EngineUsageRecord[]): Promise<void> | undefined {
  return records.length === 0 ? undefined : context.storage.recordEngineUsage(records);
}

/** POST /v2/translate after validation: rules, languages, resources, quota, engines, response. */
export async function translateRequest(
  request: TranslateRequest,
  caller: Caller,
  customTag: string,
  context: ServiceContext,
): Promise<TranslateResponse> {
  const rule = checkTranslateRules(request);
  if (rule) throw badRequest(rule);
  const target = language(request.target_lang, 'target_lang');
  // A source is a language, not a variant: `EN-US` is read as `en` (and reported as `EN`).
  const source =
    request.source_lang === undefined
      ? undefined
      : (canonicalLanguage(baseLanguage(language(request.source_lang, 'source_lang'))) ??
        baseLanguage(request.source_lang));
  checkRequestRules(request, target, caller);
  // Most requests name no resource: they skip the resource lookups and their turns of the event loop.
  // Resources first, as the public service: a glossary without the pair is named before the engines are.
  const usesResources =
    request.glossary_id !== undefined ||
    request.glossary_ids !== undefined ||
    request.translation_memory_id !== undefined ||
    request.style_id !== undefined ||
    request.custom_instructions !== undefined;
  if (usesResources) await checkResources(request, source, target, caller, context);
  if (source !== undefined && !context.engines.select(source, target)) {
    throw unsupportedLanguage(
      `Language pair ${v2(source)} → ${v2(target)} is not supported by this server's engines.`,
    );
  }
  if (source === undefined && context.engines.sourcesFor(target).size === 0) {
    throw unsupportedLanguage(`Target language ${v2(target)} is not supported by this server's engines.`);
  }
  const customizations = usesResources
    ? await loadCustomizations(request, source, target, caller, context)
    : undefined;

  const options = prepareOptions(request);
  const prepared = request.text.map((text) => prepareText(text, options));
  const sources =
    source === undefined ? await detectSources(prepared, target, context) : prepared.map(() => source);

  // One group per engine pair (the registry hands out one choice object per pair), in order of appearance.
  const groups = new Map<EngineChoice, Group>();
  const groupBySource = new Map<string, Group>();
  for (let textIndex = 0; textIndex < prepared.length; textIndex++) {
    const text = prepared[textIndex]!;
    const textSource = sources[textIndex]!;
    let group = groupBySource.get(textSource);
    if (!group) {
      const choice = context.engines.select(textSource, target)!;
      group = groups.get(choice);
      if (!group) {
        const formality = engineFormality(request, choice, target);
        group = { choice, formality, units: [], textIndexes: [], unitIndexes: [] };
        groups.set(choice, group);
      }
      groupBySource.set(textSource, group);
    }
    for (let unitIndex = 0; unitIndex < text.units.length; unitIndex++) {
      group.units.push(text.units[unitIndex]!);
      group.textIndexes.push(textIndex);
      group.unitIndexes.push(unitIndex);
    }
  }

  const billed = prepared.reduce((sum, text) => sum + text.billed, 0);
  const period = currentBillingPeriod();
  const usage = {
    accountId: caller.account.id,
    keyId: caller.key.id,
    product: 'translate' as const,
    customTag,
    day: period.today,
  };
  // Spelled out rather than spread from `usage`: an object spread here cost ~3 µs a request.
  const reserved = await context.storage.reserveCharacters({
    accountId: usage.accountId,
    keyId: usage.keyId,
    product: usage.product,
    customTag: usage.customTag,
    day: usage.day,
    units: billed,
    periodFrom: period.fromDay,
    periodTo: period.toDay,
    limit: caller.account.characterLimit,
  });
  if (!reserved) {
    throw new ServiceError(
      456,
      'Quota exceeded: the character limit of this billing period has been reached.',
      ERROR_CODES.quotaExceeded,
    );
  }

  const outputs = prepared.map((text) => new Array<string>(text.units.length));
  // Memory matches exist only with customizations (a translation memory): no arrays for them otherwise.
  const memoryMatches = customizations
    ? prepared.map((text) => new Array<UnitMatch | undefined>(text.units.length))
    : undefined;
  const markup = options.tagHandling !== undefined;
  const instructions = customizations?.instructions ?? [];
  // What each engine was sent for this request, stored per account and day once the engines are done.
  const bill = createEngineBill();
  /** One group's units through the customizations (memory, glossary) and its engine, into `outputs`. */
  const translateGroup = async (group: Group) => {
    if (group.units.length === 0) return;
    const engine = (texts: string[], markup: boolean, terms?: EngineTerms) =>
      context.outputs.translate(group.choice, texts, {
        markup,
        formality: group.formality,
        instructions,
        ...(request.context ? { context: request.context } : {}),
        ...(terms ? { terms } : {}),
        onBilled: bill.onBilled,
      });
    const result = customizations
      ? await customizations.translate(
          group.units,
          markup,
          engine,
          group.choice.engine.supportsTerms?.(group.choice.pair) ?? false,
        )
      : { outputs: await engine(group.units, markup), matches: [] };
    for (let index = 0; index < group.units.length; index++) {
      const textIndex = group.textIndexes[index]!;
      const unitIndex = group.unitIndexes[index]!;
      outputs[textIndex]![unitIndex] = result.outputs[index] ?? '';
      if (memoryMatches) memoryMatches[textIndex]![unitIndex] = result.matches[index];
    }
  };
  try {
    // Most requests have a single group: awaited as it is, without Promise.all's arrays and promises.
    if (groups.size === 1) await translateGroup(groups.values().next().value!);
    else await Promise.all(Array.from(groups.values(), translateGroup));
  } catch (error) {
    await context.storage.recordUsage({ ...usage, units: -billed });
    // The engines that answered before the failure were sent their texts all the same.
    await recordEngines(context, bill.records(usage.accountId, usage.day));
    if (error instanceof UnsupportedPairError) {
      throw unsupportedLanguage(`Language pair not supported by the remote service: ${error.message}`);
    }
    if (error instanceof EngineError) {
      throw new ServiceError(
        503,
        `Translation engine '${error.engine}' failed: ${error.message}`,
        ERROR_CODES.engineError,
        undefined,
        { cause: error },
      );
    }
    throw error;
  }
  await recordEngines(context, bill.records(usage.accountId, usage.day));

  const v2Codes = new Map<string, string>();
  const detectedCode = (source: string) => {
    let code = v2Codes.get(source);
    if (code === undefined) {
      code = v2(source);
      v2Codes.set(source, code);
    }
    return code;
  };
  const translations = prepared.map((text, index): Translation => {
    const translation: Translation = {
      detected_source_language: detectedCode(sources[index]!),
      text: text.assemble(outputs[index]!),
    };
    if (request.show_billed_characters) translation.billed_characters = text.billed;
    if (request.show_translation_memory_matches) {
      translation.customizations = {
        translation_memory_matches: memoryMatchesOf(
          request.text[index]!,
          text.units,
          memoryMatches?.[index] ?? [],
        ),
      };
    }
    if (request.model_type !== undefined) {
      translation.model_type_used =
        request.model_type === 'latency_optimized' ? 'latency_optimized' : 'quality_optimized';
    }
    if (request.tag_handling !== undefined || request.tag_handling_version !== undefined) {
      translation.tag_handling_version = request.tag_handling_version ?? DEFAULT_TAG_HANDLING_VERSION;
    }
    return translation;
  });
  return { translations };
}
