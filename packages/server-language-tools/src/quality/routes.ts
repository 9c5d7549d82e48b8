import { baseLanguage, canonicalLanguage, ENDPOINTS, ERROR_CODES } from '@glossa/protocol';
import { evaluateSegments, type GlossaryTerm } from '@glossa/quality';
import type { ServiceContext } from '@glossa/server/feature';
import { badRequest, defineRoute, notFound, ServiceError, unsupportedLanguage } from '@glossa/server/feature';
import { spellingCheckFor } from './spelling.js';

/**
 * POST /v3/quality/evaluate (closed alpha): the checks of `@glossa/quality` on each segment, with the
 * target language's spelling check and the glossary's terms for the pair. Not billed.
 */
export const evaluateQualityRoute = defineRoute(
  ENDPOINTS.evaluateQuality,
  async ({ body, caller, context }) => {
    const sourceLang = canonicalLanguage(body.source_lang);
    const targetLang = canonicalLanguage(body.target_lang);
    if (!sourceLang)
      throw unsupportedLanguage(`Value for 'source_lang' not supported: '${body.source_lang}'.`);
    if (!targetLang)
      throw unsupportedLanguage(`Value for 'target_lang' not supported: '${body.target_lang}'.`);
    const glossary =
      body.glossary_id === undefined
        ? undefined
        : await glossaryTerms(context, caller.account.id, body.glossary_id, sourceLang, targetLang);
    let spelling: Awaited<ReturnType<typeof spellingCheckFor>>;
    try {
      spelling = await spellingCheckFor(targetLang, body.segments);
    } catch (error) {
      const message = `Spelling check failed: ${(error as Error).message}`;
      throw new ServiceError(503, message, ERROR_CODES.engineError, undefined, { cause: error });
    }
    const results = evaluateSegments(body.segments, {
      sourceLang,
      targetLang,
      ...(glossary ? { glossary } : {}),
      ...(spelling ? { spelling } : {}),
    });
    return {
      segments: results.map((issues) => ({
        issues: issues.map(({ category, severity, message, start, end, check }) => ({
          category,
          severity,
          message,
          start,
          end,
          check,
        })),
      })),
    };
  },
);

/**
 * The terms of the glossary's dictionary for the pair (root languages): 404 when the account has no such
 * glossary, 400 when the glossary has no dictionary for the pair.
 */
async function glossaryTerms(
  context: ServiceContext,
  accountId: string,
  id: string,
  sourceLang: string,
  targetLang: string,
): Promise<readonly GlossaryTerm[]> {
  const source = baseLanguage(sourceLang);
  const target = baseLanguage(targetLang);
  const entries = await context.resources.glossaries.entries(accountId, id, source, target);
  if (entries) return entries;
  const glossary = await context.resources.glossary(accountId, id);
  if (!glossary) throw notFound(`Glossary '${id}' not found.`);
  throw badRequest(`Glossary '${id}' has no dictionary for ${source} → ${target}.`);
}
