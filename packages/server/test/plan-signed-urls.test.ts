/**
 * A signed URL works only on its plan's base URL and for its own purpose: a paid account's TMX upload and
 * export download URLs sent to the free plan's base URL, a free account's sent to the paid one, and an
 * upload signature on the download path (and back) are all 403; the URL as issued works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { tmx } from './memory-helpers.js';

let t: TestServer;
let free: string;
beforeAll(async () => {
  t = await startTestServer();
  free = (await t.server.createAccount({ plan: 'free' })).key;
});
afterAll(() => t.close());

/** A call with `key` on its plan's base URL. */
const call = (key: string, path: string, init: Parameters<TestServer['call']>[1] = {}) =>
  t.call(path, { ...init, key, base: key === free ? t.server.freeUrl : t.server.url });

async function waitFor<T>(poll: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await poll();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the job did not finish');
}

const CONTENT = tmx([['Delete the file.', 'Elimine el archivo.']]);

/** The same path and query on another base URL. */
const moved = (url: string, base: string) => {
  const parsed = new URL(url);
  return `${base}${parsed.pathname}${parsed.search}`;
};
const other = (url: string) => (url.startsWith(t.server.freeUrl) ? t.server.url : t.server.freeUrl);
/** The same query on the other purpose's path (upload ↔ download). */
const otherPurpose = (url: string) =>
  url.replace(/\/(upload|download)\?/, (_, purpose) => `/${purpose === 'upload' ? 'download' : 'upload'}?`);

async function startImport(key: string) {
  const started = await call(key, '/v3/translation_memories/import', {
    json: { source_file: { file_name: 'a.tmx', content_length: Buffer.byteLength(CONTENT) } },
  });
  expect(started.status).toBe(202);
  return started.data as { job_id: string; upload_url: string };
}

async function exportUrl(key: string, memoryId: string) {
  const started = await call(key, `/v3/translation_memories/${memoryId}/export`, { method: 'POST' });
  expect([200, 202]).toContain(started.status);
  return waitFor(async () => {
    const job = await call(key, `/v3/translation_memories/jobs/${started.data.job_id}`);
    return job.data.results?.[0]?.download_url as string | undefined;
  });
}

describe('TMX signed URLs across plans and purposes', () => {
  for (const [plan, key] of [
    ['paid', () => t.server.devKey],
    ['free', () => free],
  ] as const) {
    it(`a ${plan} account's upload and download URLs: 403 on the other plan's base URL and for the other purpose`, async () => {
      const { job_id, upload_url } = await startImport(key());
      expect(upload_url.startsWith(plan === 'free' ? t.server.freeUrl : t.server.url)).toBe(true);
      const crossPlan = await fetch(moved(upload_url, other(upload_url)), { method: 'PUT', body: CONTENT });
      expect(crossPlan.status).toBe(403);
      expect(((await crossPlan.json()) as { message: string }).message).toBe(
        `This URL belongs to the ${plan} plan's base URL; use it there.`,
      );
      // An upload signature does not download.
      expect((await fetch(otherPurpose(upload_url))).status).toBe(403);
      expect((await fetch(upload_url, { method: 'PUT', body: CONTENT })).status).toBe(204);
      const memoryId = await waitFor(async () => {
        const job = await call(key(), `/v3/translation_memories/jobs/${job_id}`);
        return job.data.results?.[0]?.translation_memory_id as string | undefined;
      });

      const download = await exportUrl(key(), memoryId);
      expect((await fetch(moved(download, other(download)))).status).toBe(403);
      // A download signature does not upload.
      expect((await fetch(otherPurpose(download), { method: 'PUT', body: CONTENT })).status).toBe(403);
      const body = await fetch(download);
      expect(body.status).toBe(200);
      expect(await body.text()).toContain('Elimine el archivo.');
    });
  }
});
