import { type AccessRule, ERROR_CODES } from '@glossa/protocol';
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.js';
import { forbidden } from '../errors.js';
import { hashKey, keyFromAuthorization } from '../keys.js';
import type { Plan } from '../storage/storage.js';
import type { Caller } from './caller-cache.js';

const AUTH_FAILED =
  "Authorization failed. Send a valid key in the header 'Authorization: Service-Auth-Key <key>'.";

/**
 * Resolves the caller from `Authorization: Service-Auth-Key <key>` and checks that the key's plan is the
 * plan this listener serves. Every failure is a 403 (never 401, thrown, or the promise rejected); the key
 * itself never reaches a message.
 */
export function authenticate(
  request: FastifyRequest,
  plan: Plan,
  context: ServiceContext,
): Caller | Promise<Caller> {
  const header = request.headers.authorization;
  // A key seen lately is answered without a turn of the event loop: this runs on every request.
  const cached = typeof header === 'string' ? context.callers.get(header) : undefined;
  if (cached) return checkPlan(cached, plan, context);
  const key = keyFromAuthorization(header);
  if (key === undefined) throw forbidden(AUTH_FAILED);
  return context.storage.findKeyByHash(hashKey(key)).then((found) => {
    if (!found) throw forbidden(AUTH_FAILED);
    context.callers.set(header as string, found);
    return checkPlan(found, plan, context);
  });
}

function checkPlan(caller: Caller, plan: Plan, context: ServiceContext): Caller {
  if (caller.account.plan !== plan) {
    const right = caller.account.plan === 'free' ? context.urls.free : context.urls.paid;
    throw forbidden(
      `Wrong endpoint: this key belongs to the ${caller.account.plan} plan. Use ${right} instead.`,
      ERROR_CODES.wrongPlanBaseUrl,
    );
  }
  return caller;
}

const DENIED: Record<Exclude<AccessRule, 'any' | 'signed_url'>, string> = {
  paid: 'Access denied: this endpoint is available on paid plans only.',
  admin: 'Access denied: this endpoint is for organization administrators.',
  detection_beta: 'Access denied: language detection needs enrollment in the beta program.',
  quality_alpha: 'Access denied: quality evaluation is a closed alpha this account is not part of.',
  voice_jobs_alpha: 'Access denied: asynchronous voice jobs are an alpha this account is not part of.',
};

/** 403 when the caller's account lacks what the endpoint's access rule needs. */
export function checkAccess(rule: AccessRule, caller: Caller): void {
  const account = caller.account;
  const allowed =
    rule === 'any' ||
    rule === 'signed_url' ||
    (rule === 'paid' && account.plan === 'paid') ||
    (rule === 'admin' && account.admin) ||
    (rule === 'detection_beta' && account.detectionBeta) ||
    (rule === 'quality_alpha' && account.qualityAlpha) ||
    (rule === 'voice_jobs_alpha' && account.voiceJobsAlpha);
  if (!allowed) throw forbidden(DENIED[rule as keyof typeof DENIED], ERROR_CODES.featureNotEnabled);
}
