/**
 * A TMX import job that the memory admission (memory-budget.ts) refuses because the server is busy does not
 * fail: it waits the refusal's Retry-After and asks again (`reserveMemoryPatiently`), and ends ready once the
 * memory is there. A real server on loopback, with its SQLite file (or PostgreSQL with GLOSSA_TEST_POSTGRES);
 * the admission is made busy (`busyAdmission`: a stand-in RSS, its queue full), so that the import's
 * reservation is refused at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryAdmission } from '../src/memory-budget.js';
import { busyAdmission, startTestServer, type TestServer, until } from './helpers.js';
import { tmx, waitForJob } from './memory-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const UNITS = Array.from({ length: 50 }, (_, n): [string, string] => [
  `The file ${n} is saved.`,
  `El archivo ${n} se guarda.`,
]);

describe('a TMX import refused by the memory admission', () => {
  it('waits and asks again, and ends ready once memory is available (not failed)', async () => {
    // Nothing heavy fits, and the admission's queue is full: the import's reservation is refused at once.
    const busy = busyAdmission();
    let jobId: string;
    try {
      const content = tmx(UNITS);
      const started = await t.call('/v3/translation_memories/import', {
        json: {
          source_file: { file_name: 'busy.tmx', content_length: Buffer.byteLength(content) },
          parameters: { display_name: 'busy' },
        },
      });
      expect(started.status, started.text).toBe(202);
      jobId = started.data.job_id;
      const upload = await fetch(started.data.upload_url, { method: 'PUT', body: content });
      await upload.arrayBuffer();
      expect(upload.status).toBeLessThan(300);
      const status = async () =>
        (await t.call(`/v3/translation_memories/jobs/${jobId}`)).data.results?.[0]?.status;
      // Refused, it waits to ask again; as before, its one attempt failed (the kind's maxFailures: 1).
      await until('the import refused and waiting to ask again, or ended', async () => {
        if (memoryAdmission().retrying > 0) return true;
        return !['processing', 'awaiting_input'].includes(await status());
      });
      expect(await status()).toBe('processing');
      expect(memoryAdmission().retrying).toBe(1);
      // Memory is available.
      await busy.free();
      await until('the import ended', async () => (await status()) !== 'processing');
    } finally {
      await busy.free();
    }
    const job = await waitForJob(t, jobId);
    expect(job.status, JSON.stringify(job.result)).toBe('completed');
    const memoryId = job.result.translation_memory_id;
    const memory = await t.call(`/v3/translation_memories/${memoryId}`);
    expect(memory.status, memory.text).toBe(200);
    expect(memory.data.segment_count).toBe(UNITS.length);
    expect(memoryAdmission()).toEqual({ running: 0, waiting: 0, bytes: 0, retrying: 0 });
  }, 120_000);
});
