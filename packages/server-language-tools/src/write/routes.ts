import { checkWriteRules, ENDPOINTS, ERROR_CODES, effectiveWriteStyle } from '@glossa/protocol';
import type { Caller, ServiceContext } from '@glossa/server/feature';
import { badRequest, currentBillingPeriod, defineRoute, ServiceError } from '@glossa/server/feature';
import { type ImproveRequest, improveTexts, resolveWriteRequest } from './improve.js';

/** POST /v2/write/rephrase: corrections plus the writing style's or tone's rewrites (paid plans). */
export const rephraseRoute = defineRoute(ENDPOINTS.rephraseText, async ({ body, caller, context }) => {
  const rule = checkWriteRules(body);
  if (rule) throw badRequest(rule);
  const style = effectiveWriteStyle(body);
  return billed(caller, context, {
    texts: body.text,
    targetLang: body.target_lang,
    mode: 'rephrase',
    ...(style.writing_style !== undefined ? { writingStyle: style.writing_style } : {}),
    ...(style.tone !== undefined ? { tone: style.tone } : {}),
  });
});

/** POST /v2/write/correct: spelling and grammar fixes only (paid plans). */
export const correctRoute = defineRoute(ENDPOINTS.correctText, async ({ body, caller, context }) =>
  billed(caller, context, { texts: body.text, targetLang: body.target_lang, mode: 'correct' }),
);

/**
 * Validates, reserves the texts' characters (code points) in the same monthly quota as translation
 * (product `write`), improves, and gives the characters back if the checkers fail. Write calls no translation
 * engine (the checkers are Harper, Grammalecte and Hunspell, the rewrites fixed rules), so it records no
 * engine usage (`recordEngineUsage`): docs/engines.md.
 */
async function billed(caller: Caller, context: ServiceContext, request: ImproveRequest) {
  resolveWriteRequest(request);
  const units = request.texts.reduce((sum, text) => sum + [...text].length, 0);
  const period = currentBillingPeriod();
  const usage = {
    accountId: caller.account.id,
    keyId: caller.key.id,
    product: 'write' as const,
    customTag: '',
    day: period.today,
  };
  const reserved = await context.storage.reserveCharacters({
    ...usage,
    units,
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
  try {
    return { improvements: await improveTexts(request) };
  } catch (error) {
    await context.storage.recordUsage({ ...usage, units: -units });
    throw error;
  }
}
