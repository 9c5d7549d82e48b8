/**
 * A quality-evaluation job that the memory admission (the spine's memory-budget.ts) refuses because the
 * server is busy does not fail: it waits the refusal's Retry-After and asks again, and completes once the
 * memory is there. A real server on loopback, with its SQLite file (or PostgreSQL with GLOSSA_TEST_POSTGRES);
 * the admission is made busy (`busyAdmission`: a stand-in RSS, its queue full), so that the job's
 * reservation is refused at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryAdmission } from '../../server/src/memory-budget.js';
import { busyAdmission, type Reply, startTestServer, type TestServer, until } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('a quality job refused by the memory admission', () => {
  it('waits and asks again, and completes once memory is available (not failed)', async () => {
    // 20 segments of 2 × 10,000 characters: 7 MiB reserved (pool.ts evaluationBytes), heavy work.
    const segments = Array.from({ length: 20 }, (_, index) => ({
      source: `The file ${index} is saved. `.repeat(500).slice(0, 10_000),
      target: `El archivo ${index} se guarda. `.repeat(500).slice(0, 10_000),
    }));
    // Nothing heavy fits, and the admission's queue is full: the job's reservation is refused at once.
    const busy = busyAdmission();
    let reply: Reply;
    try {
      const created = await t.call('/v1/quality-evaluation', {
        json: { metadata: { source_language: 'en', target_language: 'es' }, segments },
      });
      expect(created.status, created.text).toBe(202);
      const pollUrl: string = created.data.poll_url;
      // Refused, it waits to ask again; as before, the runner would have failed it (three failed attempts
      // within seconds) and its poll answered a failed report.
      await until('the job refused and waiting to ask again, or ended', async () => {
        if (memoryAdmission().retrying > 0) return true;
        return (await t.call(pollUrl)).status !== 202;
      });
      expect((await t.call(pollUrl)).status).toBe(202);
      expect(memoryAdmission().retrying).toBe(1);
      // Memory is available.
      await busy.free();
      await until('the job ended', async () => (await t.call(pollUrl)).status !== 202);
      reply = await t.call(pollUrl);
    } finally {
      await busy.free();
    }
    expect(reply.status).toBe(200);
    expect(reply.data.status, JSON.stringify(reply.data).slice(0, 500)).toBe('done');
    expect(reply.data.segments).toHaveLength(segments.length);
    expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 0 });
  }, 120_000);
});
