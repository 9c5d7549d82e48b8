/**
 * The signed URLs of voice translation jobs (`/v1/jobs/voice/translate`): a signature is
 * `<expires>.<hmac>`, HMAC-SHA256 over the job, the plan and purpose and the expiry, with a secret kept in
 * the server's settings (shared by a fleet on one database: a URL signed by one instance is valid on every
 * other). Sent as `Authorization: Service-Signature <signature>` or as the URL's `signature` parameter.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ERROR_CODES, VOICE_JOB_SIGNATURE_SCHEME } from '@glossa/protocol';
import { type ServiceContext, ServiceError } from '@glossa/server/feature';

/** How long an upload or download signature is valid. */
export const SIGNATURE_TTL_MS = 60 * 60_000;

const SECRET_SETTING = 'voice_job_url_secret';
const secrets = new WeakMap<ServiceContext, Promise<Buffer>>();

function secretOf(context: ServiceContext): Promise<Buffer> {
  let secret = secrets.get(context);
  if (!secret) {
    secret = (async () => {
      const value =
        (await context.storage.getSetting(SECRET_SETTING)) ??
        (await context.storage.claimSetting(SECRET_SETTING, randomBytes(32).toString('hex')));
      return Buffer.from(value, 'hex');
    })();
    secrets.set(context, secret);
  }
  return secret;
}

/**
 * `<expires>.<hmac>`: what the signature covers is the job, the plan and purpose (`paid:upload`,
 * `free:result-0`: a URL works only on its plan's base URL) and the expiry.
 */
export async function sign(context: ServiceContext, jobId: string, purpose: string): Promise<string> {
  const expires = Math.floor((Date.now() + SIGNATURE_TTL_MS) / 1000);
  const mac = createHmac('sha256', await secretOf(context))
    .update(`voice-translate:${purpose}:${jobId}:${expires}`)
    .digest('base64url');
  return `${expires}.${mac}`;
}

export async function verify(
  context: ServiceContext,
  jobId: string,
  purpose: string,
  signature: string | undefined,
): Promise<void> {
  const denied = (message: string) => new ServiceError(403, message, ERROR_CODES.authorizationFailed);
  if (!signature) {
    throw denied(
      `This URL needs its signature: send 'Authorization: ${VOICE_JOB_SIGNATURE_SCHEME} <signature>' or use the signed URL.`,
    );
  }
  const [expiresText = '', given = ''] = signature.split('.');
  const expires = Number(expiresText);
  const expected = createHmac('sha256', await secretOf(context))
    .update(`voice-translate:${purpose}:${jobId}:${expires}`)
    .digest();
  const actual = Buffer.from(given, 'base64url');
  if (!Number.isInteger(expires) || actual.length !== expected.length || !timingSafeEqual(actual, expected))
    throw denied('The signature is not valid for this URL.');
  if (expires * 1000 <= Date.now()) throw denied('The signature has expired; get a new one from the job.');
}

export function signatureOf(
  request: { headers: Record<string, string | string[] | undefined> },
  query: { signature?: string | undefined },
) {
  const header = request.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  const match = value === undefined ? null : /^(\S+)\s+(\S+)$/.exec(value.trim());
  if (match && match[1]!.toLowerCase() === VOICE_JOB_SIGNATURE_SCHEME.toLowerCase()) return match[2];
  return query.signature;
}
