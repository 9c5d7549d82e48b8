import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffCeiling,
  computeRetryDelay,
  DEFAULT_RETRY_POLICY,
  GlossaClient,
  parseRetryAfter,
} from '../src/index.js';
import { startFaultServer } from './fault-server.js';

describe('retry delay bounds', () => {
  it('doubles the full-jitter ceiling from 500 ms up to 8 s', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 10].map((retry) => backoffCeiling(retry, DEFAULT_RETRY_POLICY));
    expect(ceilings).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('draws every backoff wait from [0, ceiling)', () => {
    for (let retry = 1; retry <= 8; retry++) {
      const ceiling = backoffCeiling(retry, DEFAULT_RETRY_POLICY);
      expect(computeRetryDelay(retry, undefined, DEFAULT_RETRY_POLICY, () => 0)).toBe(0);
      expect(computeRetryDelay(retry, undefined, DEFAULT_RETRY_POLICY, () => 0.999_999)).toBe(ceiling - 1);
      for (let i = 0; i < 200; i++) {
        const delay = computeRetryDelay(retry, undefined, DEFAULT_RETRY_POLICY);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
    }
  });

  it('uses Retry-After exactly, capped at 60 s', () => {
    expect(computeRetryDelay(1, 2_000, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(2_000);
    expect(computeRetryDelay(1, 3_600_000, DEFAULT_RETRY_POLICY)).toBe(60_000);
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(parseRetryAfter('0.25')).toBe(250);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });
});

describe('retry waits with fake timers, against a fault-injecting loopback server (fake service)', async () => {
  const server = await startFaultServer();
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** Let real I/O run (setImmediate and performance.now are not faked) until `condition` holds. */
  async function until(condition: () => boolean): Promise<void> {
    const start = performance.now();
    while (!condition() && performance.now() - start < 10_000)
      await new Promise((resolve) => setImmediate(resolve));
    expect(condition()).toBe(true);
  }

  /** Let real I/O run for 100 ms of real time, to show that nothing else happens. */
  async function settle(): Promise<void> {
    const start = performance.now();
    while (performance.now() - start < 100) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Start a call whose first attempt fails as planned; resolve once the client is waiting to retry. */
  async function waitingClient(retryAfter: string | undefined, status = 429) {
    const waits: string[] = [];
    const client = new GlossaClient({
      authKey: 'timing-key',
      serverUrl: server.url,
      maxRetries: 2,
      logger: { debug: () => {}, warn: (line) => waits.push(line) },
    });
    server.plan([{ kind: 'status', status, ...(retryAfter === undefined ? {} : { retryAfter }) }]);
    const call = client.translateText('a', { targetLang: 'es' });
    await until(() => waits.length === 1);
    return { call, waits };
  }

  it('waits exactly Retry-After: 2 before retrying a 429', async () => {
    const { call, waits } = await waitingClient('2');
    expect(waits[0]).toBe(
      `POST /v2/translate: TooManyRequestsError, trace ${'0123456789abcdef'.repeat(2)}; retry 1/2 in 2000 ms`,
    );
    vi.advanceTimersByTime(1_999);
    await settle();
    expect(server.requests).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await until(() => server.requests.length === 2);
    await expect(call).resolves.toMatchObject({ text: 'es:a' });
  });

  it('caps a Retry-After of one hour at 60 s', async () => {
    const { call } = await waitingClient('3600');
    vi.advanceTimersByTime(59_999);
    await settle();
    expect(server.requests).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await until(() => server.requests.length === 2);
    await call;
  });

  it('waits less than the 500 ms ceiling before the first retry of a 503 (random at its top)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const { call, waits } = await waitingClient(undefined, 503);
    expect(waits[0]).toMatch(/retry 1\/2 in 499 ms$/);
    vi.advanceTimersByTime(498);
    await settle();
    expect(server.requests).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await until(() => server.requests.length === 2);
    await call;
  });

  it('retries at once when the jitter draws 0', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { call } = await waitingClient(undefined, 500);
    vi.advanceTimersByTime(0);
    await until(() => server.requests.length === 2);
    await call;
  });
});
