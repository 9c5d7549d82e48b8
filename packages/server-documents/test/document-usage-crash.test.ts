/**
 * A document's characters are billed, and a failed one's refunded, exactly once whatever the crash point
 * (document-job.ts). A server whose jobs fail (real Apertium, a pipeline that exits) is killed (SIGKILL)
 * right after a failed document's job saved its failure (its checkpoint), before the job runner failed the job
 * (and applied its refund, in the same transaction); a server started again on its storage runs the job
 * again, finds the failure saved and fails the job: `/v2/usage` counts 0, neither the upload's characters (refund lost) nor
 * their negative (refund applied twice). And a server is killed right after the job of an image (read by
 * OCR in the job) reserved the characters it read, before its checkpoint recorded them: the job run again
 * after the restart bills them once; or, started again with no engine for the pair, fails before reserving
 * again and refunds them once (the job saved what it was about to reserve first). A failed document whose
 * refund a version before the runner held documents left owed (`refund_pending`, in that version's store) is
 * refunded once at the next start, which deletes that store. On SQLite (the data directory) and on
 * PostgreSQL (a real cluster).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApertiumEngine, type GlossaServer, startServer } from '@glossa/server';
import Database from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { documentsFeature } from '../src/index.js';
import { upload } from './document-helpers.js';
import { documentsCrashServer } from './documents-crash-server.js';
import type { TestServer } from './helpers.js';
import { createDatabase } from './storage-probe.js';

const DEV_KEY = 'documents-usage-crash-dev-key-01';
/** The documents' own database of a version before the runner held documents. */
const OLD_DOCUMENTS_FILE = 'documents.sqlite';
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

/** Starts a crash server, uploads a document, and waits for the process to kill itself at `crashPoint`. */
async function uploadAndCrash(
  storage: Storage,
  crashPoint: 'afterReserve' | 'afterFail',
  document: { name: string; bytes: string | Buffer; modesDir?: string } = {
    name: 'failing.txt',
    bytes: TEXT,
    modesDir,
  },
) {
  const { url, exited, output } = await documentsCrashServer(DEV_KEY, storage, crashPoint, document.modesDir);
  const server = { server: { url, devKey: DEV_KEY } } as unknown as TestServer;
  const uploaded = await upload(server, document.name, document.bytes, {
    target_lang: 'ES',
    source_lang: 'EN',
  });
  expect(uploaded.status).toBe(200);
  expect(await exited, output()).toBe('SIGKILL');
  return uploaded.data as { document_id: string; document_key: string };
}

/** The job runner's row of the document's job: its status. */
async function jobStatus(storage: Storage, id: string): Promise<string | undefined> {
  if (storage.databaseUrl) {
    const client = new pg.Client({ connectionString: storage.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT status FROM jobs WHERE id = $1', [id]);
      return rows[0]?.status as string | undefined;
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(storage.dataDir, 'glossa.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT status FROM jobs WHERE id = ?').get(id) as { status: string } | undefined)
      ?.status;
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
    it('killed after the failure was saved, before the runner failed the job and refunded it: refunded once after a restart', async () => {
      const storage = await open();
      const ids = await uploadAndCrash(storage, 'afterFail');
      // The crash came before the runner's change: the job is still running, nothing refunded.
      expect(await jobStatus(storage, ids.document_id)).toBe('running');
      const server = await startServer({
        ...storage,
        port: 0,
        freePort: 0,
        host: '127.0.0.1',
        logger: false,
        devKey: DEV_KEY,
        engines: [createApertiumEngine({ modesDir })],
        features: [documentsFeature()],
        jobs: { sweepMs: 200, pollMs: 100 },
      });
      try {
        // The restarted runner (or, on PostgreSQL, its takeover once the dead lease is free) runs the job
        // again (given 30 s: a loaded machine may be slow).
        const deadline = Date.now() + 30_000;
        while ((await jobStatus(storage, ids.document_id)) !== 'failed' && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await jobStatus(storage, ids.document_id)).toBe('failed');
        const status = await call(server, `/v2/document/${ids.document_id}`, {
          document_key: ids.document_key,
        });
        expect(status.status).toBe('error');
        expect(status.error_message).toMatch(/^Translation engine 'apertium' failed/);
        // Reserved at upload ([...TEXT].length characters), refunded once: still once after more sweeps.
        expect((await call(server, '/v2/usage')).character_count).toBe(0);
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect((await call(server, '/v2/usage')).character_count).toBe(0);
      } finally {
        await server.close();
      }
    }, 60_000);

    it('an image (OCR in the job) killed after its job reserved the characters it read, before its checkpoint records them: billed once after a restart', async () => {
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
        jobs: { sweepMs: 200, pollMs: 100 },
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

    it('an image killed after its job reserved the characters it read, whose next attempt fails for good before it reserves again: refunded once', async () => {
      const storage = await open();
      const ids = await uploadAndCrash(storage, 'afterReserve', {
        name: 'poster.png',
        bytes: await poster(),
      });
      // Started again with no engine for EN → ES: the next attempt fails before it reads the image again.
      const noModes = mkdtempSync(join(dir, 'no-modes-'));
      const server = await startServer({
        ...storage,
        port: 0,
        freePort: 0,
        host: '127.0.0.1',
        logger: false,
        devKey: DEV_KEY,
        engines: [createApertiumEngine({ modesDir: noModes })],
        features: [documentsFeature()],
        jobs: { sweepMs: 200, pollMs: 100 },
      });
      try {
        const deadline = Date.now() + 60_000;
        while ((await jobStatus(storage, ids.document_id)) !== 'failed' && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await jobStatus(storage, ids.document_id)).toBe('failed');
        const status = await call(server, `/v2/document/${ids.document_id}`, {
          document_key: ids.document_key,
        });
        expect(status.status).toBe('error');
        expect(status.error_message).toBe('This document can no longer be translated.');
        // Reserved by the killed attempt, refunded once with the failure: still once after more sweeps.
        expect((await call(server, '/v2/usage')).character_count).toBe(0);
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect((await call(server, '/v2/usage')).character_count).toBe(0);
      } finally {
        await server.close();
      }
    }, 90_000);

    it('refuses to start on the store of documents a version before the job runner left, and leaves it as it was', async () => {
      const storage = await open();
      const serve = () =>
        startServer({
          ...storage,
          port: 0,
          freePort: 0,
          host: '127.0.0.1',
          logger: false,
          devKey: DEV_KEY,
          features: [documentsFeature()],
        });
      // A fresh data directory (or database) starts.
      await (await serve()).close();
      // A failed document of the old store, its refund owed: this version neither refunds nor deletes it.
      await owe(storage, 'old-document');
      const where = storage.databaseUrl
        ? 'rows in the table documents (PostgreSQL)'
        : `rows in the table documents of ${join(storage.dataDir, OLD_DOCUMENTS_FILE)}`;
      await expect(serve()).rejects.toThrow(
        `The data holds job stores of an earlier Glossa version (${where}): upgrade through Glossa commit e39d40c first (it moves these into the job runner), then start this version.`,
      );
      expect(await documentsSql(storage, 'SELECT * FROM documents')).toEqual([
        {
          id: 'old-document',
          account_id: 'account-1',
          key_id: 'key-1',
          status: 'error',
          error_message: 'Translation failed.',
          billed_characters: storage.databaseUrl ? '800' : 800,
          usage_day: '2026-11-01',
          refund_pending: storage.databaseUrl ? true : 1,
        },
      ]);
      // Nor was its refund applied.
      expect(
        await jobsSql(
          storage,
          'SELECT id FROM usage_operations WHERE id = ?',
          'documents/old-document/refund',
        ),
      ).toEqual([]);
    }, 120_000);
  });
}

/**
 * Leaves document `id` as a version before the runner held documents left it: a row of its own store
 * (`documents.sqlite`, or a `documents` table), failed with its refund owed (`refund_pending`).
 */
async function owe(storage: Storage, id: string): Promise<void> {
  const flag = storage.databaseUrl ? 'BOOLEAN NOT NULL DEFAULT FALSE' : 'INTEGER NOT NULL DEFAULT 0';
  await documentsSql(
    storage,
    `CREATE TABLE IF NOT EXISTS documents (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, key_id TEXT NOT NULL,
     status TEXT NOT NULL, error_message TEXT, billed_characters BIGINT NOT NULL, usage_day TEXT NOT NULL,
     refund_pending ${flag})`,
  );
  await documentsSql(
    storage,
    `INSERT INTO documents (id, account_id, key_id, status, error_message, billed_characters, usage_day,
     refund_pending) VALUES (?, 'account-1', 'key-1', 'error', 'Translation failed.', 800, '2026-11-01', ${storage.databaseUrl ? 'TRUE' : '1'})`,
    [id],
  );
}

/** Runs `sql` (with `?` placeholders) on the runner's database of `storage` (the spine's). */
async function jobsSql(storage: Storage, sql: string, id: string): Promise<Record<string, unknown>[]> {
  if (storage.databaseUrl) return documentsSql(storage, sql, [id]);
  const db = new Database(join(storage.dataDir, 'glossa.sqlite'), { readonly: true });
  try {
    return db.prepare(sql).all(id) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** Runs `sql` (with `?` placeholders) on the old documents' database of `storage`. */
async function documentsSql(
  storage: Storage,
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  if (storage.databaseUrl) {
    const client = new pg.Client({ connectionString: storage.databaseUrl });
    await client.connect();
    try {
      let n = 0;
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows;
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(storage.dataDir, OLD_DOCUMENTS_FILE));
  try {
    const statement = db.prepare(sql);
    if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
    statement.run(...params);
    return [];
  } finally {
    db.close();
  }
}
