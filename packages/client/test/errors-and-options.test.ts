import { inspect } from 'node:util';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  BadRequestError,
  DEFAULT_FREE_SERVER_URL,
  DEFAULT_SERVER_URL,
  errorFromResponse,
  GlossaClient,
  GlossaError,
  NotFoundError,
  parseErrorBody,
  QuotaExceededError,
  RequestTooLargeError,
  ServerError,
  TooManyRequestsError,
  UnsupportedMediaTypeError,
} from '../src/index.js';
import { startFaultServer } from './fault-server.js';

const input = (status: number, body: unknown) => ({
  status,
  bodyText: typeof body === 'string' ? body : JSON.stringify(body),
  traceId: 'trace',
  retryAfterMs: undefined,
  operation: 'GET /v2/usage',
  secrets: [] as string[],
});

describe('errorFromResponse', () => {
  it('maps each status to its class, with the name set explicitly', () => {
    const cases = [
      [400, BadRequestError],
      [401, AuthorizationError],
      [403, AuthorizationError],
      [404, NotFoundError],
      [413, RequestTooLargeError],
      [415, UnsupportedMediaTypeError],
      [429, TooManyRequestsError],
      [456, QuotaExceededError],
      [500, ServerError],
      [503, ServerError],
      [599, ServerError],
      [409, GlossaError],
    ] as const;
    for (const [status, ErrorClass] of cases) {
      const error = errorFromResponse(input(status, { message: 'm' }));
      expect(error.constructor).toBe(ErrorClass);
      expect(error.name).toBe(ErrorClass.name);
      expect(error).toBeInstanceOf(GlossaError);
      expect(
        String(error.stack).startsWith(`${ErrorClass.name}: GET /v2/usage failed with ${status}: m`),
      ).toBe(true);
    }
  });

  it('reads both body shapes, and bodies that are not JSON', () => {
    expect(parseErrorBody('{"message":"bad","code":"invalid_request","detail":"Line 2"}')).toEqual({
      message: 'bad',
      code: 'invalid_request',
      detail: 'Line 2',
    });
    expect(parseErrorBody('{"error":{"message":"edge timeout"}}')).toEqual({ message: 'edge timeout' });
    expect(parseErrorBody('<html>Bad Gateway</html>')).toEqual({ message: '<html>Bad Gateway</html>' });
    expect(parseErrorBody('')).toEqual({});
    expect(errorFromResponse(input(502, '')).message).toBe('GET /v2/usage failed with 502: HTTP 502');
  });
});

describe('client options', () => {
  it('uses the free base URL for a :fx key and the paid one otherwise, unless serverUrl is given', () => {
    expect(new GlossaClient({ authKey: 'abc:fx' }).serverUrl).toBe(`${DEFAULT_FREE_SERVER_URL}/`);
    expect(new GlossaClient({ authKey: 'abc' }).serverUrl).toBe(`${DEFAULT_SERVER_URL}/`);
    expect(new GlossaClient({ authKey: 'abc:fx', serverUrl: 'https://gw.example/glossa' }).serverUrl).toBe(
      'https://gw.example/glossa/',
    );
  });

  it('refuses misuse with a TypeError or RangeError that says what was expected', () => {
    expect(() => new GlossaClient({ authKey: '' })).toThrow(
      new TypeError('Expected `authKey` to be a non-empty string'),
    );
    expect(() => new GlossaClient({ authKey: 'k', serverUrl: 'not a url' })).toThrow(TypeError);
    expect(() => new GlossaClient({ authKey: 'k', maxRetries: -1 })).toThrow(
      new RangeError('Expected `maxRetries` to be an integer from 0 to 100, got -1'),
    );
    expect(() => new GlossaClient({ authKey: 'k', reportingTag: 'x'.repeat(101) })).toThrow(
      new RangeError('Expected `reportingTag` to have 1 to 100 characters, got 101'),
    );
    expect(() => new GlossaClient({ authKey: 'k', reportingTag: 'two words' })).toThrow(RangeError);
    expect(() => new GlossaClient({ authKey: 'k', reportingTag: 'x'.repeat(100) })).not.toThrow();
  });

  it('ignores unknown constructor keys', () => {
    const options = { authKey: 'k', apiKey: 'k', baseUrl: 'http://x' } as ConstructorParameters<
      typeof GlossaClient
    >[0];
    expect(new GlossaClient(options).serverUrl).toBe(`${DEFAULT_SERVER_URL}/`);
  });
});

describe('key redaction, against a fault-injecting loopback server (fake service)', async () => {
  const server = await startFaultServer();
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  const key = 'secret-key-0d9a7f3b:fx';

  it('keeps the key out of errors, stacks, causes, log lines and inspect output', async () => {
    const lines: string[] = [];
    const logger = { debug: (line: string) => lines.push(line), warn: (line: string) => lines.push(line) };
    const client = new GlossaClient({
      authKey: key,
      serverUrl: server.url,
      logger,
      maxRetries: 1,
      retryBaseDelay: 1,
    });
    server.plan([
      { kind: 'status', status: 500, body: { message: `upstream said Service-Auth-Key ${key}` } },
      {
        kind: 'status',
        status: 403,
        body: { message: `key ${key} is wrong`, detail: `key body ${key.slice(0, -3)}` },
      },
    ]);
    let caught: unknown;
    try {
      await client.translateText('a', { targetLang: 'es' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AuthorizationError);
    const error = caught as AuthorizationError;
    expect(error.message).toBe(
      'POST /v2/translate failed with 403: key [redacted] is wrong (key body [redacted])',
    );
    const everything = [
      error.message,
      String(error.stack),
      String(error.detail),
      JSON.stringify(error),
      inspect(error, { depth: 5 }),
      inspect(client, { depth: 5, showHidden: true }),
      JSON.stringify(client),
      ...lines,
    ].join('\n');
    expect(everything).not.toContain('secret-key-0d9a7f3b');
    expect(lines).toHaveLength(3);
    expect(server.requests[0]?.headers.authorization).toBe(`Service-Auth-Key ${key}`);
  });

  it('sends the reporting tag header when configured', async () => {
    const client = new GlossaClient({ authKey: key, serverUrl: server.url, reportingTag: 'docs-site' });
    await client.translateText('a', { targetLang: 'es' });
    expect(server.requests[0]?.headers['x-service-reporting-tag']).toBe('docs-site');
  });
});
