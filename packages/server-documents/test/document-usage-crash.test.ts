/**
 * A document's characters are billed, and a failed one's refunded, exactly once whatever the crash point
 * (job.ts). A server whose jobs fail (real Apertium, a pipeline that exits) is killed (SIGKILL) right after
 * a failed document's error transition was written (the refund owed, not applied), or right after its
 * refund was applied (the row still marked owed); a server started again on its storage ends with the
 * document failed and the characters refunded once: `/v2/usage` counts 0, neither the upload's characters
 * (refund lost) nor their negative (refund applied twice). And a server is killed right after the job of an
 * image (read by OCR in the job) reserved the characters it read, before the row recorded them: the job
 * run again after the restart bills them once. On SQLite (the data directory) and on PostgreSQL (a real
 * cluster).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApertiumEngine, type GlossaServer, startServer } from '@glossa/server';
import Database from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { startCrashServer } from '../../server/test/crash-server.js';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { documentsFeature } from '../src/index.js';
import { upload } from './document-helpers.js';
import type { TestServer } from './helpers.js';
import { createDatabase } from './storage-probe.js';

const SCRIPT = join(import.meta.dirname, 'crash-serve.ts');
const DEV_KEY = 'documents-usage-crash-dev-key-01';
const TEXT = 'The red car is fast. The house is big.\n'.repeat(20);

const dir = mkdtempSync(join(tmpdir(), 'glossa-document-crash-'));
// Real Apertium machinery on a fake mode: the pipeline exits at once, the engine reports an EngineError.
const modesDir = join(dir, 'modes');
mkdirSync(modesDir);
writeFileSync(join(modesDir, 'eng-spa.mode'), `sed -u -z 'Q5'\n`);

const cluster = postgresForFile('the PostgreSQL document crash tests');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Storage {
  readonly dataDir: string;
  readonly databaseUrl?: string;
}

/** Starts crash-serve.ts, uploads a document, and waits for the process to kill itself at `crashPoint`. */
async function uploadAndCrash(
  storage: Storage,
  crashPoint: 'afterReserve' | 'afterFail' | 'afterRefund',
  document: { name: string; bytes: string | Buffer; modesDir?: string } = {
    name: 'failing.txt',
    bytes: TEXT,
    modesDir,
  },
) {
  const { url, exited, output } = await startCrashServer(SCRIPT, {
    ...storage,
    devKey: DEV_KEY,
    modesDir: document.modesDir,
    crashPoint,
  });
  const server = { server: { url, devKey: DEV_KEY } } as unknown as TestServer;
  const uploaded = await upload(server, document.name, document.bytes, {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(uploaded.status).toBe(200);
  expect(await exited, output()).toBe('SIGKILL');
  return uploaded.data as { document_id: string; document_key: string };
}

/** Whether the document's row still marks its refund owed. */
async function refundPending(storage: Storage, id: string): Promise<boolean> {
  if (storage.databaseUrl) {
    const client = new pg.Client({ connectionString: storage.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT refund_pending FROM documents WHERE id = $1', [id]);
      return rows[0].refund_pending as boolean;
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(storage.dataDir, 'documents.sqlite'), { readonly: true });
  try {
    return (
      (
        db.prepare('SELECT refund_pending FROM documents WHERE id = ?').get(id) as {
          refund_pending: number;
        }
      ).refund_pending === 1
    );
  } finally {
    db.close();
  }
}

async function call(server: GlossaServer, path: string, body?: unknown) {
  const response = await fetch(server.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Service-Auth-Key ${DEV_KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json() as Promise<Record<string, unknown>>;
}

/** Black text on white, one sentence: what OCR reads in the job. */
async function poster(): Promise<Buffer> {
  const text = await sharp({
    text: { text: 'The house is big and the garden is green.', font: 'DejaVu Sans 30', dpi: 96, rgba: true },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width: 900, height: 200, channels: 3, background: '#ffffff' } })
    .composite([{ input: text, left: 40, top: 80 }])
    .png()
    .toBuffer();
}

const BACKENDS: [string, () => Promise<Storage>, boolean][] = [
  ['SQLite', async () => ({ dataDir: mkdtempSync(join(dir, 'data-')) }), false],
  [
    'PostgreSQL',
    async () => ({ dataDir: mkdtempSync(join(dir, 'data-')), databaseUrl: await createDatabase(cluster()) }),
    !hasPostgres,
  ],
];

for (const [name, open, skip] of BACKENDS) {
  describe.skipIf(skip)(`a document's characters across a crash (${name})`, () => {
    for (const crashPoint of ['afterFail', 'afterRefund'] as const) {
      it(`killed ${crashPoint === 'afterFail' ? 'after the error transition, before the refund' : 'after the refund, before its mark is cleared'}: refunded once after a restart`, async () => {
        const storage = await open();
        const ids = await uploadAndCrash(storage, crashPoint);
        // The crash came after the transition: the row says the refund is owed.
        expect(await refundPending(storage, ids.document_id)).toBe(true);
        const server = await startServer({
          ...storage,
          port: 0,
          freePort: 0,
          host: '127.0.0.1',
          logger: false,
          devKey: DEV_KEY,
          engines: [createApertiumEngine({ modesDir })],
          features: [documentsFeature()],
        });
        try {
          // The restarted queue applies what is owed, then clears the mark (given 30 s: it
          // starts with the server, and a loaded machine may be slow).
          const deadline = Date.now() + 30_000;
          while ((await refundPending(storage, ids.document_id)) && Date.now() < deadline)
            await new Promise((resolve) => setTimeout(resolve, 50));
          const status = await call(server, `/v2/document/${ids.document_id}`, {
            document_key: ids.document_key,
          });
          expect(status.status).toBe('error');
          expect(status.error_message).toMatch(/^Translation engine 'apertium' failed/);
          // Reserved at upload ([...TEXT].length characters), refunded once.
          expect((await call(server, '/v2/usage')).character_count).toBe(0);
          expect(await refundPending(storage, ids.document_id)).toBe(false);
        } finally {
          await server.close();
        }
      }, 60_000);
    }

    it('an image (OCR in the job) killed after its job reserved the characters it read, before the row records them: billed once after a restart', async () => {
      const storage = await open();
      // The real Apertium this time: the job run again after the restart finishes.
      const ids = await uploadAndCrash(storage, 'afterReserve', {
        name: 'poster.png',
        bytes: await poster(),
      });
      const server = await startServer({
        ...storage,
        port: 0,
        freePort: 0,
        host: '127.0.0.1',
        logger: false,
        devKey: DEV_KEY,
        features: [documentsFeature()],
      });
      try {
        let status: Record<string, unknown> = {};
        const deadline = Date.now() + 60_000;
        while (status.status !== 'done' && status.status !== 'error' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          status = await call(server, `/v2/document/${ids.document_id}`, { document_key: ids.document_key });
        }
        expect(status.status).toBe('done');
        const billed = status.billed_characters as number;
        expect(billed).toBeGreaterThan(30);
        // The run after the restart found the reservation the killed one made: billed once, not twice.
        expect((await call(server, '/v2/usage')).character_count).toBe(billed);
      } finally {
        await server.close();
      }
    }, 90_000);
  });
}
