/**
 * A document's id and key (its credential besides the API key) work only on the base URL of its account's
 * plan: status and result on the other plan's base URL are 403, with the key of the document's own account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let free: string;
beforeAll(async () => {
  t = await startTestServer();
  free = (await t.server.createAccount({ plan: 'free' })).key;
});
afterAll(() => t.close());

describe('documents across plans', () => {
  it("status and result: 403 on the other plan's base URL, 200 on the document's own", async () => {
    for (const [key, base, other] of [
      [t.server.devKey, t.server.url, t.server.freeUrl],
      [free, t.server.freeUrl, t.server.url],
    ] as const) {
      const uploaded = await upload(
        t,
        'a.txt',
        'Hello world.\n',
        { target_lang: 'ES', source_lang: 'EN' },
        { key, base },
      );
      expect(uploaded.status).toBe(200);
      const json = { document_key: uploaded.data.document_key };
      const path = `/v2/document/${uploaded.data.document_id}`;
      expect((await t.call(path, { json, key, base: other })).status).toBe(403);
      expect((await t.call(`${path}/result`, { json, key, base: other })).status).toBe(403);
      const status = await t.call(path, { json, key, base });
      expect(status.status).toBe(200);
      // Done: the result on the other base URL is still refused, and then downloaded once on its own.
      await waitDoneOn(key, base, uploaded.data);
      expect((await t.call(`${path}/result`, { json, key, base: other })).status).toBe(403);
      expect((await t.call(`${path}/result`, { json, key, base })).status).toBe(200);
    }
  });
});

async function waitDoneOn(key: string, base: string, ids: { document_id: string; document_key: string }) {
  for (let i = 0; i < 600; i++) {
    const reply = await t.call(`/v2/document/${ids.document_id}`, {
      json: { document_key: ids.document_key },
      key,
      base,
    });
    if (reply.data.status === 'done') return;
    if (reply.data.status === 'error') throw new Error(reply.data.error_message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('document not done');
}
