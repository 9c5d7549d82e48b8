import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { download, upload, waitDone } from './document-helpers.js';
import { startTestServer } from './helpers.js';
import { documentStatuses } from './storage-probe.js';

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
