/**
 * Signed URLs for TMX uploads and export downloads: `?expires=<unix seconds>&signature=<hex>` where the
 * signature is HMAC-SHA256 over `plan:purpose:job id:expires` with a secret kept in the server's settings.
 * The URL is the credential, so no Authorization header is needed there; it works only on the base URL of
 * the plan it was issued on (the account's), and only for its purpose.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { forbidden } from '../errors.js';
import type { Plan, Storage } from '../storage/storage.js';

const SECRET_SETTING = 'memory_url_secret';
export type UrlPurpose = 'upload' | 'download';

export interface UrlSigner {
  sign(plan: Plan, base: string, purpose: UrlPurpose, jobId: string, expiresAt: string): string;
  /**
   * Throws a 403 unless the signature is right for the plan whose base URL received the request and for
   * this purpose, and not expired.
   */
  verify(plan: Plan, purpose: UrlPurpose, jobId: string, expires: number, signature: string): void;
}

export async function createUrlSigner(storage: Storage): Promise<UrlSigner> {
  // Claimed atomically: instances of a fleet starting together on a fresh database agree on one secret
  // (a URL signed by one is verified by another).
  const secret =
    (await storage.getSetting(SECRET_SETTING)) ??
    (await storage.claimSetting(SECRET_SETTING, randomBytes(32).toString('hex')));
  const key = Buffer.from(secret, 'hex');
  const mac = (plan: Plan, purpose: UrlPurpose, jobId: string, expires: number) =>
    createHmac('sha256', key).update(`${plan}:${purpose}:${jobId}:${expires}`).digest();
  return {
    sign(plan, base, purpose, jobId, expiresAt) {
      const expires = Math.floor(Date.parse(expiresAt) / 1000);
      const signature = mac(plan, purpose, jobId, expires).toString('hex');
      return `${base}/v3/translation_memories/jobs/${jobId}/${purpose}?expires=${expires}&signature=${signature}`;
    },
    verify(plan, purpose, jobId, expires, signature) {
      const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
      const valid = (candidate: Plan) => {
        const expected = mac(candidate, purpose, jobId, expires);
        return given.length === expected.length && timingSafeEqual(given, expected);
      };
      if (!valid(plan)) {
        const other: Plan = plan === 'free' ? 'paid' : 'free';
        throw forbidden(
          valid(other)
            ? `This URL belongs to the ${other} plan's base URL; use it there.`
            : 'The signature of this URL is not valid.',
        );
      }
      if (expires * 1000 <= Date.now()) throw forbidden('This URL has expired; start a new job.');
    },
  };
}
