import { baseLanguage, canonicalLanguage, ENDPOINTS, ERROR_CODES } from '@glossa/protocol';
import type { GlossaryTerm } from '@glossa/quality';
import type { ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  defineRoute,
  glossaryDictionary,
  notFound,
  ServiceError,
  unsupportedLanguage,
} from '@glossa/server/feature';
import { evaluateSync, SpellingCheckFailed } from './evaluate.js';
import { MAX_WAITING_EVALUATIONS } from './pool.js';
import { qualityServiceOf } from './service.js';
import { sourceTermFinder, termsInSources } from './terms-in-sources.js';

/**
 * POST /v3/quality/evaluate (closed alpha): the checks of `@glossa/quality` on each segment, with the
 * target language's spelling check and the glossary's terms for the pair. Not billed.
 *
 * The checks run on a worker thread of the feature's pool (pool.ts, as the jobs do; Hunspell's processes stay
 * the main thread's), which answers the JSON as bytes, serialized as Fastify would serialize the object: the
 * event loop keeps answering meanwhile (a 1 MiB body is seconds of checks). With `syncOnEventLoop` they run
 * on the event loop as before.
 */
export const evaluateQualityRoute = defineRoute(
  ENDPOINTS.evaluateQuality,
  async ({ body, caller, context, reply }) => {
    const sourceLang = canonicalLanguage(body.source_lang);
    const targetLang = canonicalLanguage(body.target_lang);
    if (!sourceLang)
      throw unsupportedLanguage(`Value for 'source_lang' not supported: '${body.source_lang}'.`);
    if (!targetLang)
      throw unsupportedLanguage(`Value for 'target_lang' not supported: '${body.target_lang}'.`);
    const glossary =
      body.glossary_id === undefined
        ? undefined
        : await glossaryTerms(
            context,
            caller.account.id,
            body.glossary_id,
            sourceLang,
            targetLang,
            body.segments,
          );
    const request = {
      sourceLang,
      targetLang,
      segments: body.segments,
      ...(glossary ? { glossary } : {}),
    };
    const { pool, options } = qualityServiceOf(context);
    if (options.syncOnEventLoop) {
      try {
        return await evaluateSync(request);
      } catch (error) {
        if (error instanceof SpellingCheckFailed) throw spellingFailed(error);
        throw error;
      }
    }
    const outcome = await pool.evaluateSync(request);
    if (!outcome) throw new ServiceError(503, 'The server is shutting down.', ERROR_CODES.serviceUnavailable);
    switch (outcome.kind) {
      case 'answer':
        return reply
          .type('application/json; charset=utf-8')
          .send(Buffer.from(outcome.json.buffer, outcome.json.byteOffset, outcome.json.byteLength));
      case 'spelling':
        throw spellingFailed(new Error(outcome.message));
      case 'error':
        throw new Error(outcome.message);
      case 'failed':
        throw new ServiceError(503, `The evaluation failed: ${outcome.message}`, ERROR_CODES.engineError);
      case 'busy':
        throw new ServiceError(
          429,
          `Too many quality evaluations at once: at most ${MAX_WAITING_EVALUATIONS} wait for their turn.`,
          ERROR_CODES.tooManyRequests,
        );
    }
  },
);

/** The 503 of a spelling check that could not be had (a Hunspell process failed). */
function spellingFailed(error: Error): ServiceError {
  return new ServiceError(
    503,
    `Spelling check failed: ${error.message}`,
    ERROR_CODES.engineError,
    undefined,
    {
      cause: error,
    },
  );
}

/**
 * The terms of the glossary's dictionary for the pair (root languages) that the glossary check reports if
 * their target is missing: those some segment's source holds as whole words (`termsInSources`), in the
 * dictionary's order. The others never give an issue, so the answer is the one the whole dictionary gives.
 * The dictionary and its term finder come from the server's cache of compiled glossaries, built once per
 * glossary version (issue 31: reading a 160,000-entry dictionary and scanning it on every request held the
 * event loop 239–356 ms). 404 when the account has no such glossary, 400 when the glossary has no dictionary
 * for the pair.
 */
async function glossaryTerms(
  context: ServiceContext,
  accountId: string,
  id: string,
  sourceLang: string,
  targetLang: string,
  segments: readonly { readonly source: string }[],
): Promise<readonly GlossaryTerm[]> {
  const pair = { source: baseLanguage(sourceLang), target: baseLanguage(targetLang) };
  const dictionary = await glossaryDictionary(
    context.resources,
    accountId,
    id,
    pair,
    'quality source terms',
    (entries) => sourceTermFinder(entries, pair.source),
  );
  if (dictionary === 'no glossary') throw notFound(`Glossary '${id}' not found.`);
  if (dictionary === 'no dictionary')
    throw badRequest(`Glossary '${id}' has no dictionary for ${pair.source} → ${pair.target}.`);
  const { entries, index } = dictionary;
  const kept = await termsInSources(
    index,
    segments.map((segment) => segment.source),
  );
  return kept.map((term) => ({ source: entries.source(term), target: entries.target(term) }));
}
