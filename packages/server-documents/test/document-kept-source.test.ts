/**
 * A document's segments that every engine failed come back in the source language inside the document, and
 * its status says so (`glossa_kept_source`, Glossa's own): real Apertium (eng-spa) behind a real server over
 * HTTP. "Budgeted" (Apertium returns it unchanged: not in its dictionary) is kept and reported with its
 * position and each engine's problem; "GitHub" (unchanged on purpose) and "Open the color picker." (translated,
 * "picker" left English inside: reported elsewhere) are not. A job killed (SIGKILL) after its chunk was saved
 * and resumed by a server whose engine can translate nothing still reports what that chunk kept (the chunk's
 * checkpoint keeps it), on SQLite (documents-postgres.test.ts checks the chunk's kept segments on PostgreSQL's
 * store).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApertiumEngine, startServer } from '@glossa/server';
import { afterAll, describe, expect, it } from 'vitest';
import { documentsFeature } from '../src/index.js';
import { download, translateFile, upload } from './document-helpers.js';
import { documentsCrashServer } from './documents-crash-server.js';
import { startTestServer, type TestServer } from './helpers.js';

const DEV_KEY = 'documents-kept-source-dev-key-01';
const FIELDS = { target_lang: 'ES', source_lang: 'EN' };
/** Five lines, one segment each: the second is what every engine fails. */
const TEXT = 'The house is big.\nBudgeted\nOpen the color picker.\nGitHub\nThe red car is fast.\n';
const UNCHANGED = `came back unchanged: "Budgeted" is not in the engine's dictionary (a name or a term kept on purpose goes in doNotTranslate)`;

const dir = mkdtempSync(join(tmpdir(), 'glossa-document-kept-'));
// Real Apertium machinery on a mode whose pipeline exits at once: the engine fails every call.
const brokenModes = join(dir, 'modes');
mkdirSync(brokenModes);
writeFileSync(join(brokenModes, 'eng-spa.mode'), `sed -u -z 'Q5'\n`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('segments every engine failed in a document', () => {
  let t: TestServer;
  afterAll(() => t?.close());

  it('status names "Budgeted" (position, each engine tried), not a name nor a sentence with a word left', async () => {
    // Two engines for EN → ES, in order: one that fails every call, then the real Apertium.
    const broken = { ...createApertiumEngine({ modesDir: brokenModes }), name: 'apertium-broken' };
    t = await startTestServer({ devKey: DEV_KEY, engines: [broken, createApertiumEngine()] });
    const done = await translateFile(t, 'notes.txt', TEXT, FIELDS);
    expect(done.text).toBe(
      'La casa es grande.\nBudgeted\nAbierto el color picker.\nGitHub\nEl coche rojo es rápidamente.\n',
    );
    const kept = done.final.glossa_kept_source;
    expect(kept).toEqual({
      count: 1,
      segments: [
        {
          text_index: 0,
          segment_index: 1,
          source: 'Budgeted',
          attempts: [
            { engine: 'apertium-broken', problems: [expect.stringMatching(/./)] },
            { engine: 'apertium', problems: [UNCHANGED] },
          ],
        },
      ],
    });
  });

  it('a document with nothing kept has no report (words unknown to Apertium inside a translated sentence do not count)', async () => {
    const done = await translateFile(t, 'fine.txt', 'Open the color picker.\nGitHub\n', FIELDS);
    expect(done.text).toBe('Abierto el color picker.\nGitHub\n');
    expect(done.final).toEqual({
      document_id: expect.any(String),
      status: 'done',
      billed_characters: expect.any(Number),
    });
  });
});

/** Polls the document's status on `url` until it is done or failed (at most 30 s); its last status. */
async function settled(url: string, ids: { document_id: string; document_key: string }) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`${url}/v2/document/${ids.document_id}`, {
      method: 'POST',
      headers: { authorization: `Service-Auth-Key ${DEV_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ document_key: ids.document_key }),
    });
    expect(response.status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON it checks
    const body = (await response.json()) as any;
    if (body.status === 'done' || body.status === 'error' || Date.now() > deadline) return body;
    await sleep(100);
  }
}

/** Enough of a `TestServer` for the upload and download helpers: a server on `url` with the dev key. */
const asTest = (url: string) => ({ server: { url, devKey: DEV_KEY } }) as unknown as TestServer;

describe('a job resumed after a crash (SQLite)', () => {
  it('still reports what its chunk kept, though the engine of the server that resumes it translates nothing', async () => {
    const storage = { dataDir: mkdtempSync(join(dir, 'data-')) };
    // Real Apertium; killed right after the document's one chunk (and its checkpoint) was saved.
    const crashing = await documentsCrashServer(DEV_KEY, storage, 'afterChunk');
    const uploaded = await upload(asTest(crashing.url), 'notes.txt', TEXT, FIELDS);
    expect(uploaded.status).toBe(200);
    expect(await crashing.exited, crashing.output()).toBe('SIGKILL');
    // Started again with an engine that fails every call: had the chunk been translated again, the
    // document would fail; it is done from the kept chunk, and reports what that chunk kept.
    const server = await startServer({
      ...storage,
      port: 0,
      freePort: 0,
      host: '127.0.0.1',
      logger: false,
      devKey: DEV_KEY,
      engines: [createApertiumEngine({ modesDir: brokenModes })],
      features: [documentsFeature()],
      jobs: { sweepMs: 200, pollMs: 100 },
    });
    try {
      const status = await settled(server.url, uploaded.data);
      expect(status.status, status.error_message).toBe('done');
      expect(status.glossa_kept_source).toEqual({
        count: 1,
        segments: [
          {
            text_index: 0,
            segment_index: 1,
            source: 'Budgeted',
            attempts: [{ engine: 'apertium', problems: [UNCHANGED] }],
          },
        ],
      });
      const result = await download(asTest(server.url), uploaded.data);
      expect(result.bytes.toString('utf8')).toBe(
        'La casa es grande.\nBudgeted\nAbierto el color picker.\nGitHub\nEl coche rojo es rápidamente.\n',
      );
    } finally {
      await server.close();
    }
  }, 60_000);
});
