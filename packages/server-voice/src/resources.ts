/**
 * The account resources a voice request can name, shared by the real-time sessions (`routes.ts`,
 * `socket.ts`) and the asynchronous jobs (`jobs.ts`): a spoken-term collection (its words added to the
 * recognizer's dictionary, its terms kept as written) and a glossary applied to the translations.
 */
import { canonicalLanguage } from '@glossa/protocol';
import type { Caller, ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  checkResources,
  createEngineBill,
  loadCustomizations,
  notFound,
  unsupportedLanguage,
  utcDay,
} from '@glossa/server/feature';
import { TRANSCRIPTION_LANGUAGES } from './languages.js';
import { pronunciations, termWords } from './pronunciation.js';
import { findSpokenTerms } from './spoken-terms.js';

/**
 * The canonical source and targets of a voice request: the source must be transcribed here and every
 * target reachable by an engine from it (`unsupported_language` otherwise); targets once each, in order.
 */
export function checkVoiceLanguages(
  context: ServiceContext,
  requestedSource: string,
  requestedTargets: readonly string[],
): { source: string; targets: string[] } {
  const source = canonicalLanguage(requestedSource) ?? requestedSource;
  if (!TRANSCRIPTION_LANGUAGES.includes(source)) {
    throw unsupportedLanguage(
      `Transcription of ${source} is not installed; this server transcribes ${TRANSCRIPTION_LANGUAGES.join(', ')}.`,
    );
  }
  const targets: string[] = [];
  for (const requested of requestedTargets) {
    const target = canonicalLanguage(requested) ?? requested;
    if (!context.engines.select(source, target)) {
      throw unsupportedLanguage(
        `Translation ${source} → ${requested} is not supported by this server's engines.`,
      );
    }
    if (!targets.includes(target)) targets.push(target);
  }
  return { source, targets };
}

export interface VoiceResourceRequest {
  readonly source: string;
  /** Canonical target codes, each with an engine pair from `source` (checked before). */
  readonly targets: readonly string[];
  readonly spokenTermsId: string | undefined;
  readonly glossaryId: string | undefined;
}

export interface VoiceResources {
  /** The collection's terms at the time of the request (kept as written), or none. */
  readonly spokenTerms: readonly string[];
  readonly glossaryId: string | undefined;
}

/**
 * A glossary for voice translations: it needs targets (400), must be the caller's and have a dictionary
 * for the source and every target (404 otherwise, as on /v2/translate).
 */
export async function checkVoiceGlossary(
  context: ServiceContext,
  caller: Caller,
  source: string,
  targets: readonly string[],
  glossaryId: string,
): Promise<void> {
  if (targets.length === 0) throw badRequest('glossary_id needs target_languages.');
  for (const target of targets)
    await checkResources(
      { text: [''], target_lang: target, glossary_id: glossaryId },
      source,
      target,
      caller,
      context,
    );
}

/** Checks the glossary and the spoken-term collection a voice request names (404 when not the caller's). */
export async function checkVoiceResources(
  context: ServiceContext,
  caller: Caller,
  request: VoiceResourceRequest,
): Promise<VoiceResources> {
  if (request.glossaryId !== undefined)
    await checkVoiceGlossary(context, caller, request.source, request.targets, request.glossaryId);
  let spokenTerms: readonly string[] = [];
  if (request.spokenTermsId !== undefined) {
    const collection = await findSpokenTerms(context, caller.account.id, request.spokenTermsId);
    if (!collection) throw notFound(`Spoken-term collection ${request.spokenTermsId} not found.`);
    spokenTerms = collection.terms;
  }
  return { spokenTerms, glossaryId: request.glossaryId };
}

/**
 * The words of the terms with ARPAbet phones for the recognizer's dictionary. Without espeak-ng the terms
 * are still kept as written; only the recognizer goes without them (`warn` says why).
 */
export function termPronunciations(
  terms: readonly string[],
  warn: (error: unknown) => void,
): Promise<(readonly [string, string])[]> {
  if (terms.length === 0) return Promise.resolve([]);
  return pronunciations(termWords(terms)).catch((error: unknown) => {
    warn(error);
    return [];
  });
}

export interface VoiceTranslation {
  readonly source: string;
  readonly target: string;
  readonly formality: 'default' | 'more' | 'less';
  readonly glossaryId: string | undefined;
}

/**
 * Final transcripts translated into one target by the server's engine, with the glossary if any, through
 * the server's output cache (`context.outputs`, as /v2/translate and documents): a transcript already
 * translated for this engine and pair (another target of the same language in a job, a repeated phrase) is
 * not sent again. What the engine was sent is stored in the account's engine usage, as /v2/translate
 * stores it; cache hits count nothing.
 */
export async function translateTranscripts(
  context: ServiceContext,
  caller: Caller,
  options: VoiceTranslation,
  texts: string[],
): Promise<string[]> {
  const { source, target } = options;
  const choice = context.engines.select(source, target);
  if (!choice) throw new Error(`No engine for ${source} → ${target}.`);
  const bill = createEngineBill();
  const engine = (units: string[], markup: boolean) =>
    context.outputs.translate(choice, units, {
      markup,
      formality: options.formality,
      onBilled: bill.onBilled,
    });
  try {
    const customizations =
      options.glossaryId === undefined
        ? undefined
        : await loadCustomizations(
            { text: texts, target_lang: target, glossary_id: options.glossaryId },
            source,
            target,
            caller,
            context,
          );
    return customizations
      ? (await customizations.translate(texts, false, engine)).outputs
      : await engine(texts, false);
  } finally {
    // Also after a failure: an engine that answered before it was sent its texts all the same.
    const records = bill.records(caller.account.id, utcDay(new Date()));
    if (records.length > 0) await context.storage.recordEngineUsage(records);
  }
}

/**
 * The source terms of a glossary's dictionaries from `source` whose spelling carries case ("Glossa",
 * "iPhone"), for the transcript to write them so before translation (`punctuate.ts`).
 */
export async function glossarySourceTerms(
  context: ServiceContext,
  caller: Caller,
  source: string,
  glossaryId: string | undefined,
): Promise<string[]> {
  if (glossaryId === undefined) return [];
  const glossary = await context.resources.glossaries.get(caller.account.id, glossaryId);
  if (!glossary) return [];
  const root = source.toLowerCase().split('-')[0];
  const terms = new Set<string>();
  for (const dictionary of glossary.dictionaries) {
    if (dictionary.source.toLowerCase().split('-')[0] !== root) continue;
    // Read as the compact table (issue 31): no object per entry, and only the terms kept stay.
    const table = await context.resources.glossaries.entryTable(
      caller.account.id,
      glossaryId,
      dictionary.source,
      dictionary.target,
    );
    if (!table) continue;
    for (let index = 0; index < table.length; index++) {
      const term = table.source(index);
      if (term !== term.toLowerCase()) terms.add(term);
    }
  }
  return [...terms];
}
