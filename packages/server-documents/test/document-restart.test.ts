import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { countingApertium } from './counting-engine.js';
import { download, upload, waitDone } from './document-helpers.js';
import { startTestServer } from './helpers.js';
import { chunkSizes, documentStatuses } from './storage-probe.js';

const dataDir = mkdtempSync(join(tmpdir(), 'glossa-document-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('a restart mid-queue: queued and interrupted documents resume, each billed once', async () => {
  const text = 'The red car is fast. The house is big and the garden is green.\n'.repeat(1500);
  let t = await startTestServer({ dataDir });
  const ids = [];
  for (let i = 0; i < 4; i++) {
    const uploaded = await upload(t, `doc${i}.txt`, text, { target_lang: 'ES', source_lang: 'EN' });
    expect(uploaded.status).toBe(200);
    ids.push(uploaded.data);
  }
  await t.server.close();

  const statuses = await documentStatuses(t);
  expect(statuses).toHaveLength(4);
  expect(statuses.filter((status) => status === 'queued' || status === 'translating').length).toBeGreaterThan(
    0,
  );

  t = await startTestServer({ dataDir });
  try {
    for (const id of ids) {
      expect((await waitDone(t, id, 120_000)).status).toBe('done');
      const result = await download(t, id);
      expect(result.status).toBe(200);
      const lines = result.bytes.toString().split('\n');
      expect(lines).toHaveLength(1501);
      expect(lines[0]).toMatch(/^El coche rojo es .+ La casa es grande/);
    }
    const usage = await t.call('/v2/usage');
    expect(usage.data.character_count).toBe(4 * [...text].length);
  } finally {
    await t.server.close();
  }
}, 240_000);

it('a restart mid-job: the chunks translated before it are kept and not translated again (SQLite, or PostgreSQL with GLOSSA_TEST_POSTGRES)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-document-chunks-'));
  const text = Array.from(
    { length: 3000 },
    (_, index) => `The red car ${index} is fast. The house is big and the garden ${index} is green.\n`,
  ).join('');
  const chunks = () => chunkSizes({ dataDir: dir });
  const first = countingApertium();
  let t = await startTestServer({ dataDir: dir, documents: { concurrency: 1 }, engines: [first.engine] });
  try {
    const uploaded = await upload(t, 'long.txt', text, { target_lang: 'ES', source_lang: 'EN' });
    expect(uploaded.status).toBe(200);
    const deadline = Date.now() + 60_000;
    while ((await chunks()).length < 2) {
      if (Date.now() > deadline) throw new Error('no chunk kept in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await t.server.close();
    const kept = (await chunks()).reduce((sum, n) => sum + n, 0);
    expect(kept).toBeGreaterThanOrEqual(400);
    expect(kept).toBeLessThan(6000);
    const counting = countingApertium();
    t = await startTestServer({ dataDir: dir, documents: { concurrency: 1 }, engines: [counting.engine] });
    expect((await waitDone(t, uploaded.data, 120_000)).status).toBe('done');
    // 6,000 sentences (two a line): the engine got those not kept; the chunks are gone with the job.
    expect(counting.texts()).toBe(6000 - kept);
    expect(await chunks()).toEqual([]);
    const result = await download(t, uploaded.data);
    const lines = result.bytes.toString().split('\n');
    expect(lines).toHaveLength(3001);
    expect(lines[0]).toMatch(/^El coche rojo 0 es /);
    expect(lines[2999]).toMatch(/^El coche rojo 2999 es /);
    expect((await t.call('/v2/usage')).data.character_count).toBe([...text].length);
    // The engine usage holds what Apertium was sent by both runs (a chunk in flight at the close is
    // finished, stored, and kept), not the kept chunks again.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const report = await t.call(`/v2/admin/analytics/custom-tags?start_date=${day(-1)}&end_date=${day(1)}`);
    expect(report.data.custom_tag_usage_report.engine_usage).toEqual([
      { engine: 'apertium', characters: first.characters() + counting.characters() },
    ]);
    expect(first.texts()).toBe(kept);
  } finally {
    await t.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 240_000);

it('a document whose job the runner refuses is not stored, nor billed: row and job go together (SQLite, or PostgreSQL with GLOSSA_TEST_POSTGRES)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-document-refused-'));
  // No workers (the first job stays queued) and one job per account: the second submit is refused.
  const t = await startTestServer({ dataDir: dir, jobs: { concurrency: 0, maxQueuedPerAccount: 1 } });
  try {
    const first = await upload(t, 'a.txt', 'The red car is fast.', { target_lang: 'ES', source_lang: 'EN' });
    expect(first.status).toBe(200);
    const second = await upload(t, 'b.txt', 'The house is big and green.', {
      target_lang: 'ES',
      source_lang: 'EN',
    });
    expect(second.status).toBe(429);
    expect(second.data.message).toBe('Too many jobs: an account may have 1 jobs waiting or running.');
    // Only the first document's row (a row left without its job would be run later, billed, after a 429).
    expect(await documentStatuses(t)).toEqual(['queued']);
    expect((await t.call('/v2/usage')).data.character_count).toBe('The red car is fast.'.length);
  } finally {
    await t.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
