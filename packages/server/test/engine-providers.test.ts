/**
 * The `anthropic`, `google` and `libretranslate` engines against local servers that follow each provider's
 * documented API: Anthropic's Messages API (required headers and body checked against the documented
 * request fields, https://docs.anthropic.com/en/api/messages), Cloud Translation v2
 * (https://cloud.google.com/translate/docs/reference/rest/v2/translate) and LibreTranslate's /translate and
 * /languages (https://docs.libretranslate.com). Local doubles: none of these services can run here.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
