import { afterAll, describe, expect, it } from 'vitest';
import type { DocumentOptions } from '../src/options.js';
import { download, status, translateFile, upload, waitDone } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';
import { documentStatuses } from './storage-probe.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((t) => t.close())));
async function start(documents: DocumentOptions): Promise<TestServer> {
  // One account uploads the three: the runner's per-account limit (default 2) raised past them.
  const t = await startTestServer({ documents, jobs: { maxRunningPerAccount: 3 } });
  servers.push(t);
  return t;
}

/** Uploads three long texts at once, then reads their rows until done: the most that were translating at once. */
async function mostTranslatingAtOnce(t: TestServer): Promise<number> {
  // A sentence of its own in every line of every document: the engine cache (one per server) never answers.
  const text = (doc: number) =>
    Array.from({ length: 400 }, (_, i) => `The red car ${doc}-${i} is fast. The house is big.\n`).join('');
  const ids = await Promise.all(
    [0, 1, 2].map(
      async (i) => (await upload(t, `doc${i}.txt`, text(i), { target_lang: 'ES', source_lang: 'EN' })).data,
    ),
  );
  let most = 0;
  for (;;) {
    // One read of all the rows (a snapshot): three status calls in parallel could straddle one document
    // finishing and the next one starting, and count both.
    const statuses = await documentStatuses(t);
    expect(statuses).toHaveLength(3);
    most = Math.max(most, statuses.filter((value) => value === 'translating').length);
    if (statuses.every((value) => value === 'done')) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (const id of ids) expect((await download(t, id)).status).toBe(200);
  return most;
}

describe('document server options', () => {
  it('documents.concurrency: 1 translates one document at a time, 3 all three at once', async () => {
    expect(await mostTranslatingAtOnce(await start({ concurrency: 1 }))).toBe(1);
    expect(await mostTranslatingAtOnce(await start({ concurrency: 3 }))).toBe(3);
  }, 120_000);

  it('documents.expirySeconds: a finished document not downloaded in time is gone (404)', async () => {
    const t = await start({ expirySeconds: 1 });
    const uploaded = await upload(t, 'note.txt', 'The house is big.');
    expect((await waitDone(t, uploaded.data)).status).toBe('done');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await status(t, uploaded.data)).status).toBe(404);
    expect((await download(t, uploaded.data)).status).toBe(404);
  });

  it('documents.xmlAttributes and ditaAttributes name the attributes translated', async () => {
    const t = await start({ xmlAttributes: ['label'], ditaAttributes: ['title'] });
    const xml = '<doc><item label="The house is big." title="The cat is black.">Good morning.</item></doc>';
    const fields = { target_lang: 'ES', source_lang: 'EN' };
    expect((await translateFile(t, 'a.xml', xml, fields)).text).toBe(
      '<doc><item label="La casa es grande." title="The cat is black.">Buenos días.</item></doc>',
    );
    const dita =
      '<topic id="t"><title>The house</title><image href="a.png" alt="The cat is black." title="The dog."/></topic>';
    expect((await translateFile(t, 'a.dita', dita, fields)).text).toBe(
      '<topic id="t"><title>La casa</title><image href="a.png" alt="The cat is black." title="El perro."/></topic>',
    );
  });

  it('bad documents options are refused when the server starts', async () => {
    await expect(startTestServer({ documents: { concurrency: 0 } })).rejects.toThrow(
      new RangeError('documents.concurrency: expected an integer from 1 to 64, got 0'),
    );
    await expect(startTestServer({ documents: { expirySeconds: 1.5 } })).rejects.toThrow(
      new RangeError('documents.expirySeconds: expected a positive integer, got 1.5'),
    );
    await expect(startTestServer({ documents: { xmlAttributes: ['a b'] } })).rejects.toThrow(
      new TypeError('documents.xmlAttributes: expected an array of XML attribute names, got ["a b"]'),
    );
  });
});
