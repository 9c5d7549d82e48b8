/**
 * The `anthropic`, `google` and `libretranslate` engines against local servers that follow each provider's
 * documented API: Anthropic's Messages API (required headers and body checked against the documented
 * request fields, https://docs.anthropic.com/en/api/messages), Cloud Translation v2
 * (https://cloud.google.com/translate/docs/reference/rest/v2/translate) and LibreTranslate's /translate and
 * /languages (https://docs.libretranslate.com). Local doubles: none of these services can run here.
 */
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createAnthropicEngine } from '../src/engines/anthropic.js';
import { createEngineChain } from '../src/engines/chain.js';
import type { EngineInput } from '../src/engines/engine.js';
import { createGoogleEngine } from '../src/engines/google.js';
import { createLibreTranslateEngine } from '../src/engines/libretranslate.js';
import { translateText } from './llm-mock.js';

type Handler = (
  request: IncomingMessage,
  body: string,
) => { status: number; body: unknown; headers?: Record<string, string> };
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});
async function serve(handler: Handler): Promise<string> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = handler(request, Buffer.concat(chunks).toString('utf8'));
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const input = (texts: string[], extra: Partial<EngineInput> = {}): EngineInput => ({
  texts,
  source: 'en',
  target: 'de',
  markup: texts.some((text) => text.includes('<')),
  formality: 'default',
  ...extra,
});

/** The Messages API's request body, as documented (the fields this engine may send). */
const MESSAGES_REQUEST = {
  type: 'object',
  required: ['model', 'max_tokens', 'messages'],
  additionalProperties: false,
  properties: {
    model: { type: 'string', minLength: 1 },
    max_tokens: { type: 'integer', minimum: 1 },
    temperature: { type: 'number', minimum: 0, maximum: 1 },
    system: { type: 'string' },
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['role', 'content'],
        additionalProperties: false,
        properties: { role: { enum: ['user', 'assistant'] }, content: { type: 'string' } },
      },
    },
  },
};
const validateMessages = new Ajv2020.default({ strict: false }).compile(MESSAGES_REQUEST);

describe('anthropic engine against a Messages API double', () => {
  it('sends a documented request with the version header and reads the prefilled JSON answer; 429 and 529 are retried', async () => {
    const requests: { valid: boolean; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] =
      [];
    const faults = [429, 529];
    const url = await serve((request, raw) => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const valid =
        request.url === '/v1/messages' &&
        request.headers['x-api-key'] === 'sk-ant-test' &&
        request.headers['anthropic-version'] === '2023-06-01' &&
        (validateMessages(body) as boolean) &&
        (body.messages as { role: string }[])[0]!.role === 'user';
      requests.push({ valid, headers: request.headers, body });
      if (!valid)
        return {
          status: 400,
          body: { type: 'error', error: { type: 'invalid_request_error', message: 'invalid' } },
        };
      const fault = faults.shift();
      if (fault === 429)
        return {
          status: 429,
          headers: { 'retry-after': '0' },
          body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
        };
      if (fault === 529)
        return {
          status: 529,
          body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        };
      const messages = body.messages as { role: string; content: string }[];
      const segments = (JSON.parse(messages[0]!.content) as { segments: { id: string; text: string }[] })
        .segments;
      const json = JSON.stringify({
        translations: segments.map((segment) => ({
          id: segment.id,
          text: translateText(segment.text, 'de'),
        })),
      });
      // The assistant turn was started with `{`: the answer continues it.
      return {
        status: 200,
        body: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text: json.slice(1) }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 120, output_tokens: 40 },
        },
      };
    });
    const anthropic = createAnthropicEngine({ baseUrl: url, apiKey: 'sk-ant-test', retryDelayMs: 5 }, {});
    const chain = createEngineChain([{ engine: anthropic, pair: { source: 'en', target: 'de' } }]);
    expect(
      await chain.translate(input(['Open the <g id="1">settings</g> page.', 'Deploy the site'])),
    ).toEqual(['Öffne die <g id="1">Einstellungsseite</g>.', 'Die Website bereitstellen']);
    expect(requests).toHaveLength(3);
    expect(requests.every((request) => request.valid)).toBe(true);
    expect(requests[0]!.body.temperature).toBe(0);
    expect(anthropic.usage!()).toMatchObject({ tokensIn: 120, tokensOut: 40 });
    expect(anthropic.fingerprint({ source: 'en', target: 'de' })).toMatch(
      /^anthropic\/.+\/claude-3-5-haiku-latest\/p\d+\/en>de$/,
    );
  });
});

describe('google engine against a Cloud Translation v2 double', () => {
  it('sends q, source, target and format=html for codes; entities come back as characters', async () => {
    const seen: Record<string, unknown>[] = [];
    const url = await serve((request, raw) => {
      const body = JSON.parse(raw) as { q: string[]; format: string; target: string };
      seen.push({ ...body, key: new URL(request.url!, 'http://x').searchParams.get('key') });
      return {
        status: 200,
        body: {
          data: {
            translations: body.q.map((text) => ({
              translatedText:
                body.format === 'html'
                  ? 'Öffne die <g id="1">Einstellungsseite</g> &quot;jetzt&quot; &#39;bitte&#39;.'
                  : translateText(text, body.target),
            })),
          },
        },
      };
    });
    const google = createGoogleEngine({ apiKey: 'AIza-test', baseUrl: url }, {});
    expect(await google.translate(input(['Open the <g id="1">settings</g> page "now" \'please\'.']))).toEqual(
      ['Öffne die <g id="1">Einstellungsseite</g> "jetzt" \'bitte\'.'],
    );
    expect(await google.translate(input(['Deploy the site']))).toEqual(['Die Website bereitstellen']);
    expect(seen.map((request) => [request.format, request.key])).toEqual([
      ['html', 'AIza-test'],
      ['text', 'AIza-test'],
    ]);
  });
});

describe('google engine against a Cloud Translation v3 double and a token endpoint', () => {
  it('exchanges a service account JWT for a token, reuses it, and sends contents with mimeType', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    let exchanges = 0;
    const seen: { path: string; authorization: string | undefined; body: Record<string, unknown> }[] = [];
    const url = await serve((request, raw) => {
      if (request.url === '/token') {
        // As Google documents: a form with the JWT bearer grant, the JWT signed RS256 by the account's key.
        const form = new URLSearchParams(raw);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
          return { status: 400, body: { error: 'unsupported_grant_type' } };
        const [header, claims, signature] = form.get('assertion')!.split('.');
        const valid = createVerify('RSA-SHA256')
          .update(`${header}.${claims}`)
          .verify(publicKey, Buffer.from(signature!, 'base64url'));
        const claim = JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8'));
        if (
          !valid ||
          claim.iss !== 'glossa@project-x.iam.gserviceaccount.com' ||
          claim.aud !== `${url}/token` ||
          claim.scope !== 'https://www.googleapis.com/auth/cloud-translation' ||
          claim.exp - claim.iat !== 3600
        )
          return { status: 400, body: { error: 'invalid_grant' } };
        exchanges++;
        return {
          status: 200,
          body: { access_token: `ya29.token-${exchanges}`, expires_in: 3599, token_type: 'Bearer' },
        };
      }
      const body = JSON.parse(raw) as { contents: string[]; mimeType: string; targetLanguageCode: string };
      seen.push({ path: request.url!, authorization: request.headers.authorization, body });
      if (request.headers.authorization !== 'Bearer ya29.token-1')
        return { status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED' } } };
      return {
        status: 200,
        body: {
          translations: body.contents.map((text) => ({
            translatedText:
              body.mimeType === 'text/html'
                ? 'Öffne die <g id="1">Einstellungsseite</g> &quot;jetzt&quot;.'
                : translateText(text, body.targetLanguageCode),
          })),
        },
      };
    });
    const dir = mkdtempSync(join(tmpdir(), 'glossa-google-'));
    try {
      const credentials = join(dir, 'key.json');
      writeFileSync(
        credentials,
        JSON.stringify({
          type: 'service_account',
          project_id: 'project-x',
          client_email: 'glossa@project-x.iam.gserviceaccount.com',
          private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
          token_uri: `${url}/token`,
        }),
      );
      const google = createGoogleEngine(
        { baseUrl: url },
        { GOOGLE_CLOUD_PROJECT: 'project-x', GOOGLE_APPLICATION_CREDENTIALS: credentials },
      );
      const [html, plain] = await Promise.all([
        google.translate(input(['Open the <g id="1">settings</g> page "now".'])),
        google.translate(input(['Deploy the site'])),
      ]);
      expect(html).toEqual(['Öffne die <g id="1">Einstellungsseite</g> "jetzt".']);
      expect(plain).toEqual(['Die Website bereitstellen']);
      expect(await google.translate(input(['Open the settings.']))).toEqual(['Öffne die Einstellungen.']);
      // One exchange for the three calls (two of them concurrent), its token on each.
      expect(exchanges).toBe(1);
      const v3 = '/v3/projects/project-x/locations/global:translateText';
      // The two concurrent calls may arrive in either order.
      expect(seen.map((call) => [call.path, call.authorization, call.body.mimeType]).sort()).toEqual([
        [v3, 'Bearer ya29.token-1', 'text/html'],
        [v3, 'Bearer ya29.token-1', 'text/plain'],
        [v3, 'Bearer ya29.token-1', 'text/plain'],
      ]);
      expect(seen.at(-1)!.body).toEqual({
        contents: ['Open the settings.'],
        sourceLanguageCode: 'en',
        targetLanguageCode: 'de',
        mimeType: 'text/plain',
      });
      expect(google.fingerprint({ source: 'en', target: 'de' })).toBe('google/v3/global/en>de');
      // A rejected token: the error names the status, never the token.
      const stale = createGoogleEngine(
        { baseUrl: url, projectId: 'project-x', accessToken: 'ya29.stale-secret', maxRetries: 0 },
        {},
      );
      const error = (await stale.translate(input(['Deploy the site'])).catch((e: unknown) => e)) as Error;
      expect(error.message).toContain('401');
      expect(error.message).not.toContain('ya29.stale-secret');
      expect(() => createGoogleEngine({ baseUrl: url }, { GOOGLE_CLOUD_PROJECT: 'project-x' })).toThrow(
        /GOOGLE_APPLICATION_CREDENTIALS/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('libretranslate engine against a LibreTranslate double', () => {
  it('reads its pairs from /languages and translates lists of texts', async () => {
    const url = await serve((request, raw) => {
      if (request.method === 'GET' && request.url === '/languages') {
        return { status: 200, body: [{ code: 'en', name: 'English', targets: ['de', 'en', 'es'] }] };
      }
      const body = JSON.parse(raw) as { q: string[]; target: string; format: string; api_key?: string };
      if (body.api_key !== 'lt-key') return { status: 403, body: { error: 'Invalid API key' } };
      return {
        status: 200,
        body: { translatedText: body.q.map((text) => translateText(text, body.target)) },
      };
    });
    const libre = await createLibreTranslateEngine({ url, apiKey: 'lt-key' }, {});
    expect(libre.pairs()).toEqual([
      { source: 'en', target: 'de' },
      { source: 'en', target: 'es' },
    ]);
    expect(await libre.translate(input(['Deploy the site', 'Open the settings.']))).toEqual([
      'Die Website bereitstellen',
      'Öffne die Einstellungen.',
    ]);
    const wrong = await createLibreTranslateEngine({ url, apiKey: 'nope' }, {});
    const error = (await wrong
      .translate(input(['Deploy the site']))
      .catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/403: Invalid API key/);
    expect(error.message).not.toContain('nope');
  });
});
