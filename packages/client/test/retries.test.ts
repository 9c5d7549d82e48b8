import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  BadRequestError,
  ConnectionError,
  GlossaClient,
  type GlossaError,
  NotFoundError,
  QuotaExceededError,
  RequestAbortedError,
  RequestTooLargeError,
  ServerError,
  TimeoutError,
  TooManyRequestsError,
  UnsupportedMediaTypeError,
} from '../src/index.js';
import { type Fault, startFaultServer, TRACE_ID } from './fault-server.js';

const server = await startFaultServer();
afterAll(() => server.close());
beforeEach(() => server.reset());

const KEY = 'test-key-6f1c2a9e';

/** Fast backoff so the retry paths run in milliseconds; the timing itself is tested with fake timers. */
function client(extra: Partial<ConstructorParameters<typeof GlossaClient>[0]> = {}) {
  return new GlossaClient({
    authKey: KEY,
    serverUrl: server.url,
    maxRetries: 3,
    retryBaseDelay: 2,
    retryMaxDelay: 10,
    timeout: 2_000,
    ...extra,
  });
}

async function failure(promise: Promise<unknown>): Promise<GlossaError> {
  try {
    await promise;
  } catch (error) {
    return error as GlossaError;
  }
  throw new Error('expected the call to fail');
}

describe('retries against a fault-injecting loopback server (fake service)', () => {
  it('sends JSON with the Service-Auth-Key scheme and returns one translation per text', async () => {
    const result = await client().translateText(['Hello', 'World'], { targetLang: 'es' });
    expect(result.map((translation) => translation.text)).toEqual(['es:Hello', 'es:World']);
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe(`Service-Auth-Key ${KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ text: ['Hello', 'World'], target_lang: 'es' });
  });

  it('maps every camelCase translate option to its wire name and ignores unknown keys', async () => {
    const options = {
      targetLang: 'de',
      sourceLang: 'en',
      context: 'ctx',
      formality: 'prefer_more' as const,
      glossaryIds: ['a'],
      tagHandling: 'xml' as const,
      ignoreTags: 'x',
      showBilledCharacters: true,
      translationMemoryThreshold: 80,
      notAnOption: 'dropped',
      target_lang: 'ignored-snake-duplicate',
    };
    const single = await client().translateText('Hi', options);
    expect(single.text).toBe('es:Hi');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      text: ['Hi'],
      target_lang: 'de',
      source_lang: 'en',
      context: 'ctx',
      formality: 'prefer_more',
      glossary_ids: ['a'],
      tag_handling: 'xml',
      ignore_tags: 'x',
      show_billed_characters: true,
      translation_memory_threshold: 80,
    });
  });

  it('retries 429 with Retry-After, 429 without it, and 500, 502, 503, then succeeds', async () => {
    server.plan([
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'status', status: 429 },
      { kind: 'status', status: 500 },
    ]);
    const result = await client().translateText('a', { targetLang: 'es' });
    expect(result.text).toBe('es:a');
    expect(server.requests).toHaveLength(4);
    server.reset();
    server.plan([
      { kind: 'status', status: 502 },
      { kind: 'status', status: 503 },
    ]);
    await client().translateText('b', { targetLang: 'es' });
    expect(server.requests).toHaveLength(3);
  });

  it('retries a connection reset', async () => {
    server.plan([{ kind: 'reset' }, { kind: 'reset' }]);
    await client().translateText('a', { targetLang: 'es' });
    expect(server.requests).toHaveLength(3);
  });

  it('throws ConnectionError once resets exhaust the retry budget', async () => {
    server.plan(Array.from({ length: 4 }, (): Fault => ({ kind: 'reset' })));
    const error = await failure(client().translateText('a', { targetLang: 'es' }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.name).toBe('ConnectionError');
    expect(server.requests).toHaveLength(4);
  });

  it('waits for a slow response within the timeout, in one attempt', async () => {
    server.plan([{ kind: 'slow', delayMs: 150 }]);
    await client({ timeout: 1_000 }).translateText('a', { targetLang: 'es' });
    expect(server.requests).toHaveLength(1);
  });

  it('times out a hung response, retries it, and throws TimeoutError when every attempt hangs', async () => {
    server.plan([{ kind: 'hang' }]);
    await client({ timeout: 1_000 }).translateText('a', { targetLang: 'es' });
    expect(server.requests).toHaveLength(2);
    server.reset();
    server.plan([{ kind: 'hang' }, { kind: 'hang' }]);
    const error = await failure(
      client({ timeout: 100, maxRetries: 1 }).translateText('a', { targetLang: 'es' }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe('POST /v2/translate timed out after 100 ms');
    expect(server.requests).toHaveLength(2);
  });

  const nonRetryable = [
    [400, BadRequestError, 'BadRequestError'],
    [403, AuthorizationError, 'AuthorizationError'],
    [404, NotFoundError, 'NotFoundError'],
    [413, RequestTooLargeError, 'RequestTooLargeError'],
    [415, UnsupportedMediaTypeError, 'UnsupportedMediaTypeError'],
    [456, QuotaExceededError, 'QuotaExceededError'],
  ] as const;
  for (const [status, ErrorClass, name] of nonRetryable) {
    it(`tries a ${status} once and throws ${name} with status, code and trace id`, async () => {
      server.plan([
        { kind: 'status', status, body: { message: `no ${status}`, code: 'some_code', detail: 'd' } },
      ]);
      const error = await failure(client().translateText('a', { targetLang: 'es' }));
      expect(server.requests).toHaveLength(1);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error.name).toBe(name);
      expect(error.status).toBe(status);
      expect(error.code).toBe('some_code');
      expect(error.detail).toBe('d');
      expect(error.traceId).toBe(TRACE_ID);
      expect(error.retryable).toBe(false);
      expect(error.message).toBe(`POST /v2/translate failed with ${status}: no ${status} (d)`);
    });
  }

  it('throws ServerError after the last retry, with the edge body shape parsed', async () => {
    server.plan(
      Array.from(
        { length: 4 },
        (): Fault => ({ kind: 'status', status: 502, body: { error: { message: 'edge down' } } }),
      ),
    );
    const error = await failure(client().translateText('a', { targetLang: 'es' }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('POST /v2/translate failed with 502: edge down');
    expect(server.requests).toHaveLength(4);
  });

  it('throws TooManyRequestsError with retryAfterMs when 429 persists', async () => {
    server.plan(Array.from({ length: 2 }, (): Fault => ({ kind: 'status', status: 429, retryAfter: '0' })));
    const error = await failure(client({ maxRetries: 1 }).translateText('a', { targetLang: 'es' }));
    expect(error).toBeInstanceOf(TooManyRequestsError);
    expect((error as TooManyRequestsError).retryAfterMs).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it('lets per-call maxRetries, headers and timeout override the client defaults', async () => {
    server.plan(Array.from({ length: 5 }, (): Fault => ({ kind: 'status', status: 503 })));
    const error = await failure(
      client({ headers: { 'x-client': 'c' } }).translateText('a', {
        targetLang: 'es',
        maxRetries: 0,
        headers: { 'x-call': 'k' },
      }),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers['x-client']).toBe('c');
    expect(server.requests[0]?.headers['x-call']).toBe('k');
  });

  it('refuses a bad per-call timeout or maxRetries before sending', async () => {
    await expect(client().translateText('a', { targetLang: 'es', timeout: -5 })).rejects.toThrow(
      new RangeError('Expected `timeout` to be an integer ≥ 0 (ms), got -5'),
    );
    await expect(client().translateText('a', { targetLang: 'es', maxRetries: 1.5 })).rejects.toThrow(
      RangeError,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('never retries an aborted call: aborted before the call, or during the wait before a retry', async () => {
    const controller = new AbortController();
    controller.abort();
    const before = await failure(
      client().translateText('a', { targetLang: 'es', signal: controller.signal }),
    );
    expect(before).toBeInstanceOf(RequestAbortedError);
    expect(server.requests).toHaveLength(0);

    server.plan([{ kind: 'status', status: 503 }]);
    const during = new AbortController();
    const logger = { debug: () => {}, warn: () => during.abort() };
    const error = await failure(
      client({ logger, retryBaseDelay: 5_000 }).translateText('a', {
        targetLang: 'es',
        signal: during.signal,
      }),
    );
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('aborts a hung attempt at once when the caller aborts, without retrying', async () => {
    server.plan([{ kind: 'hang' }]);
    const controller = new AbortController();
    const call = client({ timeout: 0 }).translateText('a', { targetLang: 'es', signal: controller.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await failure(call)).toBeInstanceOf(RequestAbortedError);
    expect(server.requests).toHaveLength(1);
  });

  it('completes 1,000 calls under injected faults, each within the retry budget', async () => {
    // Call i fails its first (i mod 4) attempts (fewer than maxRetries + 1 = 4), cycling through every
    // fault; every 100th call hangs instead (timed out), every tenth call's successful answer is slow.
    // The timeout leaves room for a loaded machine: an answer that came late would count as a retry.
    const faults: Fault[] = [
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'status', status: 429 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502 },
      { kind: 'status', status: 503 },
      { kind: 'reset' },
    ];
    const attempts = new Map<number, number>();
    server.handle((request) => {
      const call = Number(request.headers['x-call']);
      const attempt = attempts.get(call) ?? 0;
      attempts.set(call, attempt + 1);
      if (attempt >= call % 4) return call % 10 === 0 ? { kind: 'slow', delayMs: 5 } : { kind: 'ok' };
      if (call % 100 === 1) return { kind: 'hang' };
      return faults[(call + attempt) % faults.length]!;
    });
    const glossa = client({ timeout: 5_000 });
    const calls = 1_000;
    const results: string[] = new Array(calls);
    let next = 0;
    const worker = async () => {
      while (next < calls) {
        const call = next++;
        const translation = await glossa.translateText(`t${call}`, {
          targetLang: 'es',
          headers: { 'x-call': String(call) },
        });
        results[call] = translation.text;
      }
    };
    await Promise.all(Array.from({ length: 25 }, worker));
    expect(results.every((text, call) => text === `es:t${call}`)).toBe(true);
    const expectedAttempts = Array.from({ length: calls }, (_, call) => (call % 4) + 1).reduce(
      (a, b) => a + b,
      0,
    );
    const extra = [...attempts].filter(([call, count]) => count !== (call % 4) + 1);
    expect(extra).toEqual([]);
    expect(server.requests).toHaveLength(expectedAttempts);
    expect([...attempts.values()].every((count) => count <= 4)).toBe(true);
  }, 120_000);
});
