/**
 * The `google` engine: Cloud Translation Basic (v2) with an API key: `POST
 * {baseUrl}/language/translate/v2?key=…` with `q` (128 texts, about 30k characters a request at most),
 * `format=html` when the texts hold inline codes (the `<g>`/`<x/>` codes come back as tags; the HTML
 * entities Google adds are turned back into characters), `text` otherwise. No formality, glossaries
 * (the pipeline locks terms in codes), context or instructions: v2 has none of them. Settings: `apiKey`
 * (`GOOGLE_API_KEY`), `baseUrl` (`GLOSSA_GOOGLE_BASE_URL`, default https://translation.googleapis.com).
 *
 * With a project id (`projectId`, `GOOGLE_CLOUD_PROJECT`): Cloud Translation Advanced (v3), `POST
 * {baseUrl}/v3/projects/{project}/locations/{location}:translateText` with `contents`,
 * `sourceLanguageCode`, `targetLanguageCode` and `mimeType` (`text/html` for codes), the same limits. v3
 * takes no API key: an OAuth access token, obtained from a service account's key file
 * (`credentialsFile`, `GOOGLE_APPLICATION_CREDENTIALS`) as Google documents for server-to-server calls (a
 * JWT signed RS256 with the file's `private_key`, exchanged at its `token_uri`), kept until a minute
 * before it expires; or given as it is (`accessToken`). `location`: `GLOSSA_GOOGLE_LOCATION`, default
 * `global`.
 */
import { createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LANGUAGES } from '@glossa/protocol';
import type { EngineInput, EngineUsage, LanguagePair, TranslationEngine } from './engine.js';
import { EngineError } from './engine.js';
import { createHttpClient } from './http.js';

export interface GoogleOptions {
  readonly apiKey?: string;
  /** Cloud Translation Advanced (v3) in this project instead of v2. */
  readonly projectId?: string;
  /** v3's location, default `global`. */
  readonly location?: string;
  /** v3: a service account's JSON key file, for access tokens. */
  readonly credentialsFile?: string;
  /** v3: an access token used as it is (it expires: for short runs and tests). */
  readonly accessToken?: string;
  readonly baseUrl?: string;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  readonly retryDelayMs?: number;
  readonly fetch?: typeof fetch;
}

const MAX_TEXTS = 128;
const MAX_CHARACTERS = 25_000;

/** Google's entities back to characters, except the three the markup contract keeps escaped. */
export function decodeGoogleEntities(text: string, markup: boolean): string {
  const decoded = text
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&nbsp;|&#160;/g, '\u00a0');
  return markup ? decoded : decoded.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

export function createGoogleEngine(
  options: GoogleOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): TranslationEngine {
  const projectId = options.projectId ?? (env.GOOGLE_CLOUD_PROJECT || undefined);
  const apiKey = options.apiKey ?? (env.GOOGLE_API_KEY || undefined);
  if (!projectId && !apiKey) throw new TypeError('google: GOOGLE_API_KEY is not set');
  const location = options.location ?? (env.GLOSSA_GOOGLE_LOCATION || 'global');
  const credentialsFile = options.credentialsFile ?? (env.GOOGLE_APPLICATION_CREDENTIALS || undefined);
  if (projectId && !options.accessToken && !credentialsFile) {
    throw new TypeError(
      'google: Cloud Translation v3 (GOOGLE_CLOUD_PROJECT) needs a service account key file (GOOGLE_APPLICATION_CREDENTIALS)',
    );
  }
  const baseUrl = (
    options.baseUrl ??
    (env.GLOSSA_GOOGLE_BASE_URL || 'https://translation.googleapis.com')
  ).replace(/\/+$/, '');
  // Access tokens join the secrets as they are obtained (kept out of every error message).
  const secrets: string[] = [apiKey ?? '', options.accessToken ?? ''].filter(Boolean);
  const http = createHttpClient({
    engine: 'google',
    concurrency: options.concurrency ?? 4,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.retryDelayMs !== undefined ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    secrets,
  });
  const token = projectId
    ? options.accessToken
      ? async () => options.accessToken!
      : serviceAccountToken(credentialsFile!, http, secrets)
    : undefined;
  const usage = { requests: 0, characters: 0, tokensIn: 0, tokensOut: 0 };
  const codes = LANGUAGES.filter((language) => !language.pseudo).map((language) => language.code);
  const pairs: LanguagePair[] = codes
    .filter((code) => !code.includes('-'))
    .flatMap((source) =>
      codes.filter((target) => target.split('-')[0] !== source).map((target) => ({ source, target })),
    );
  return {
    name: 'google',
    pairs: () => pairs,
    fingerprint: (pair) =>
      projectId
        ? `google/v3/${location}/${pair.source}>${pair.target}`
        : `google/v2/${pair.source}>${pair.target}`,
    supportsFormality: () => false,
    verification: 'full',
    usage: (): EngineUsage => ({ ...usage }),
    async translate(input: EngineInput): Promise<string[]> {
      const batches: number[][] = [];
      let current: number[] = [];
      let size = 0;
      input.texts.forEach((text, index) => {
        if (current.length > 0 && (current.length >= MAX_TEXTS || size + text.length > MAX_CHARACTERS)) {
          batches.push(current);
          current = [];
          size = 0;
        }
        current.push(index);
        size += text.length;
      });
      if (current.length > 0) batches.push(current);
      const outputs = new Array<string>(input.texts.length);
      await Promise.all(
        batches.map(async (indexes) => {
          const q = indexes.map((index) => input.texts[index]!);
          usage.requests++;
          usage.characters += q.reduce((sum, text) => sum + text.length, 0);
          let list: { translatedText?: unknown }[] | undefined;
          if (token) {
            const answer = await http.request(
              'POST',
              `${baseUrl}/v3/projects/${encodeURIComponent(projectId!)}/locations/${encodeURIComponent(location)}:translateText`,
              {
                headers: {
                  'content-type': 'application/json',
                  accept: 'application/json',
                  authorization: `Bearer ${await token()}`,
                },
                body: JSON.stringify({
                  contents: q,
                  sourceLanguageCode: input.source,
                  targetLanguageCode: input.target,
                  mimeType: input.markup ? 'text/html' : 'text/plain',
                }),
                signal: input.signal,
              },
            );
            list = (answer.body as { translations?: { translatedText?: unknown }[] } | undefined)
              ?.translations;
          } else {
            const answer = await http.request(
              'POST',
              `${baseUrl}/language/translate/v2?key=${encodeURIComponent(apiKey!)}`,
              {
                headers: { 'content-type': 'application/json', accept: 'application/json' },
                body: JSON.stringify({
                  q,
                  source: input.source,
                  target: input.target,
                  format: input.markup ? 'html' : 'text',
                }),
                signal: input.signal,
              },
            );
            list = (answer.body as { data?: { translations?: { translatedText?: unknown }[] } } | undefined)
              ?.data?.translations;
          }
          if (!Array.isArray(list) || list.length !== q.length) {
            throw new EngineError(
              `google: answered ${Array.isArray(list) ? list.length : 'no'} translations for ${q.length} texts`,
              'google',
            );
          }
          indexes.forEach((textIndex, position) => {
            const text = list[position]?.translatedText;
            if (typeof text === 'string') outputs[textIndex] = decodeGoogleEntities(text, input.markup);
          });
        }),
      );
      return outputs;
    },
    close: async () => {},
  };
}

/** Google's scope for Cloud Translation. */
const TRANSLATION_SCOPE = 'https://www.googleapis.com/auth/cloud-translation';

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/**
 * Access tokens for a service account (Google's OAuth 2.0 for server-to-server applications): a JWT
 * (`iss` the account's email, `scope`, `aud` its `token_uri`, an hour long) signed RS256 with its
 * `private_key`, exchanged at `token_uri` (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`). A
 * token is reused until a minute before it expires; concurrent calls share one exchange.
 */
function serviceAccountToken(
  file: string,
  http: ReturnType<typeof createHttpClient>,
  secrets: string[],
): () => Promise<string> {
  let key: { client_email: string; private_key: string; token_uri?: string };
  try {
    key = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TypeError(`google: cannot read the service account key file ${file}`, { cause: error });
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    throw new TypeError(`google: ${file} is not a service account key file (client_email, private_key)`);
  }
  secrets.push(key.private_key);
  const tokenUri = key.token_uri ?? 'https://oauth2.googleapis.com/token';
  let current: Promise<{ token: string; expiresAt: number }> | undefined;
  const exchange = async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${base64url(
      JSON.stringify({
        iss: key.client_email,
        scope: TRANSLATION_SCOPE,
        aud: tokenUri,
        iat: now,
        exp: now + 3600,
      }),
    )}`;
    const signature = createSign('RSA-SHA256').update(unsigned).sign(key.private_key);
    const answer = await http.request('POST', tokenUri, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: `${unsigned}.${base64url(signature)}`,
      }).toString(),
    });
    const body = answer.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (typeof body?.access_token !== 'string') {
      throw new EngineError('google: the token endpoint answered no access_token', 'google');
    }
    secrets.push(body.access_token);
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    return { token: body.access_token, expiresAt: Date.now() + (lifetime - 60) * 1000 };
  };
  return async () => {
    const held = current && (await current.catch(() => undefined));
    if (held && held.expiresAt > Date.now()) return held.token;
    if (!current || held) current = exchange();
    try {
      return (await current).token;
    } catch (error) {
      current = undefined;
      throw error;
    }
  };
}
