/**
 * Signed URLs for TMX uploads and export downloads: `?expires=<unix seconds>&signature=<hex>` where the
 * signature is HMAC-SHA256 over `purpose:job id:expires` with a secret kept in the server's settings.
 * The URL is the credential, so no Authorization header is needed there.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { forbidden } from '../errors.js';
import type { Storage } from '../storage/storage.js';

const SECRET_SETTING = 'memory_url_secret';
export type UrlPurpose = 'upload' | 'download';

export interface UrlSigner {
  sign(base: string, purpose: UrlPurpose, jobId: string, expiresAt: string): string;
  /** Throws a 403 unless the signature is right and not expired. */
  verify(purpose: UrlPurpose, jobId: string, expires: number, signature: string): void;
}

export async function createUrlSigner(storage: Storage): Promise<UrlSigner> {
  // Claimed atomically: instances of a fleet starting together on a fresh database agree on one secret
  // (a URL signed by one is verified by another).
  const secret =
    (await storage.getSetting(SECRET_SETTING)) ??
    (await storage.claimSetting(SECRET_SETTING, randomBytes(32).toString('hex')));
  const key = Buffer.from(secret, 'hex');
  const mac = (purpose: UrlPurpose, jobId: string, expires: number) =>
    createHmac('sha256', key).update(`${purpose}:${jobId}:${expires}`).digest();
  return {
    sign(base, purpose, jobId, expiresAt) {
      const expires = Math.floor(Date.parse(expiresAt) / 1000);
      const signature = mac(purpose, jobId, expires).toString('hex');
      return `${base}/v3/translation_memories/jobs/${jobId}/${purpose}?expires=${expires}&signature=${signature}`;
    },
    verify(purpose, jobId, expires, signature) {
      const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
      const expected = mac(purpose, jobId, expires);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw forbidden('The signature of this URL is not valid.');
      }
      if (expires * 1000 <= Date.now()) throw forbidden('This URL has expired; start a new job.');
    },
  };
}
