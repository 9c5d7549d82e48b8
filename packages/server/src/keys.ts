import * as crypto from 'node:crypto';
import type { Plan } from './storage/storage.js';

/** Free-plan keys end with this suffix (wire decisions); the free plan has its own base URL. */
export const FREE_KEY_SUFFIX = ':fx';

/**
 * A new random API key: 32 random bytes, base64url, with `:fx` for the free plan. Shown once, stored hashed.
 * Never one that starts with `-` (1 in 64 would): `keys revoke --key -abc…` reads it as another option.
 */
export function generateKey(plan: Plan): string {
  let key: string;
  do key = crypto.randomBytes(32).toString('base64url');
  while (key.startsWith('-'));
  return plan === 'free' ? `${key}${FREE_KEY_SUFFIX}` : key;
}

/**
 * What the store keeps instead of a key. Keys are 256-bit random values, so one SHA-256 is enough (a slow
 * password hash guards guessable secrets, which these are not).
 */
export function hashKey(key: string): string {
  // One-shot `crypto.hash` (Node 20.12+) is about 2.5x faster than a Hash object.
  return oneShotHash
    ? oneShotHash('sha256', key, 'hex')
    : crypto.createHash('sha256').update(key).digest('hex');
}

const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function planOfKey(key: string): Plan {
  return key.endsWith(FREE_KEY_SUFFIX) ? 'free' : 'paid';
}

const AUTHORIZATION = /^Service-Auth-Key ([\x21-\x7e]{1,512})$/i;

/** The key of an `Authorization: Service-Auth-Key <key>` header, or `undefined` when absent or malformed. */
export function keyFromAuthorization(header: string | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  return AUTHORIZATION.exec(header.trim())?.[1];
}
