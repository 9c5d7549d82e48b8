/**
 * The documents' usage operation ids (in the spine's `usage_operations`: the reservation of a job that reads
 * its document, `jobs/<id>/reservation`, and the runner's refund, `jobs/<id>/refund`) are forgotten by the
 * runner's sweep once nothing can apply them again: a day before the oldest job still stored. A server's
 * sweep removes old ids of documents that are gone and leaves the refund applied once. An old id is kept while an older document is still stored. On
 * SQLite (the data directory) and on PostgreSQL (a real cluster); real Apertium on a mode whose pipeline
 * exits, so the jobs fail for real.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApertiumEngine, type GlossaServer, startServer } from '@glossa/server';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { documentsFeature } from '../src/index.js';
import { upload } from './document-helpers.js';
import type { TestServer } from './helpers.js';
import { createDatabase } from './storage-probe.js';

const DEV_KEY = 'documents-usage-prune-dev-key-01';
const TEXT = 'The red car is fast. The house is big.\n'.repeat(20);
const DAY = 24 * 60 * 60 * 1000;
/** Ids of documents long gone, recorded three days ago. */
const GONE = 2000;

const dir = mkdtempSync(join(tmpdir(), 'glossa-document-prune-'));
// Real Apertium machinery on a fake mode: the pipeline exits at once, the engine reports an EngineError.
const modesDir = join(dir, 'modes');
mkdirSync(modesDir);
writeFileSync(join(modesDir, 'eng-spa.mode'), `sed -u -z 'Q5'\n`);

const cluster = postgresForFile('the PostgreSQL document prune tests');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SQL on the storage behind a server (closed or not), whichever backend. */
interface Probe {
  /** Rows of a query; `?` placeholders, `$n` on PostgreSQL. The spine's tables (the runner's jobs too). */
  query(sql: { sqlite: string; postgres: string }, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * Adds `count` ids `<prefix><n>/reservation` (and one id of another feature's prefix) recorded `ago` ms
   * ago.
   */
  seedGone(count: number, ago: number, prefix: string): Promise<void>;
  readonly options: { dataDir: string; databaseUrl?: string };
}

function sqliteProbe(): Probe {
  const dataDir = mkdtempSync(join(dir, 'data-'));
  const run = (sql: string, params: unknown[]) => {
    const db = new Database(join(dataDir, 'glossa.sqlite'));
    db.pragma('busy_timeout = 5000');
    try {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
      statement.run(...params);
      return [];
    } finally {
      db.close();
    }
  };
  return {
    options: { dataDir },
    async query(sql, params = []) {
      return run(sql.sqlite, params);
    },
    async seedGone(count, ago, prefix) {
      const db = new Database(join(dataDir, 'glossa.sqlite'));
      try {
        const at = new Date(Date.now() - ago).toISOString();
        const insert = db.prepare('INSERT OR IGNORE INTO usage_operations (id, applied_at) VALUES (?, ?)');
        db.transaction(() => {
          for (let n = 0; n < count; n++) insert.run(`${prefix}${n}/reservation`, at);
          insert.run('voice/voice_jobs/other/minutes', at);
        })();
      } finally {
        db.close();
      }
    },
  };
}

async function postgresProbe(): Promise<Probe> {
  const dataDir = mkdtempSync(join(dir, 'data-'));
  const databaseUrl = await createDatabase(cluster());
  const withClient = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    options: { dataDir, databaseUrl },
    query: (sql, params = []) =>
      withClient(async (client) => (await client.query(sql.postgres, params)).rows),
    seedGone: (count, ago, prefix) =>
      withClient(async (client) => {
        await client.query(
          `INSERT INTO usage_operations (id, applied_at)
           SELECT $3 || n || '/reservation', now() - $2 * interval '1 millisecond'
           FROM generate_series(0, $1 - 1) AS n
           UNION ALL SELECT 'voice/voice_jobs/other/minutes', now() - $2 * interval '1 millisecond'
           ON CONFLICT DO NOTHING`,
          [count, ago, prefix],
        );
      }),
  };
}

const count = async (probe: Probe, prefix: string) =>
  Number(
    (
      await probe.query(
        {
          sqlite: 'SELECT COUNT(*) AS n FROM usage_operations WHERE substr(id, 1, ?) = ?',
          postgres: 'SELECT COUNT(*) AS n FROM usage_operations WHERE left(id, $1) = $2',
        },
        [prefix.length, prefix],
      )
    )[0]!.n,
  );

const hasId = async (probe: Probe, id: string) =>
  (
    await probe.query(
      {
        sqlite: 'SELECT 1 FROM usage_operations WHERE id = ?',
        postgres: 'SELECT 1 FROM usage_operations WHERE id = $1',
      },
      [id],
    )
  ).length === 1;

/** As a document (its job) uploaded `ago` ms ago and still stored is. */
const storedSince = (probe: Probe, id: string, ago: number) =>
  probe.query(
    {
      sqlite: `UPDATE jobs SET created_at = ? WHERE id = ?`,
      postgres: `UPDATE jobs SET created_at = $1 WHERE id = $2`,
    },
    [new Date(Date.now() - ago).toISOString(), id],
  );

/** As a document (its job) the runner deleted is: gone. */
const deleted = (probe: Probe, id: string) =>
  probe.query({ sqlite: 'DELETE FROM jobs WHERE id = ?', postgres: 'DELETE FROM jobs WHERE id = $1' }, [id]);

const start = (probe: Probe) =>
  startServer({
    ...probe.options,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    devKey: DEV_KEY,
    engines: [createApertiumEngine({ modesDir })],
    features: [documentsFeature()],
    jobs: { sweepMs: 200 },
  });

async function call(server: GlossaServer, path: string, body?: unknown) {
  const response = await fetch(server.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Service-Auth-Key ${DEV_KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json() as Promise<Record<string, unknown>>;
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Uploads a document whose job fails, and waits for its refund (the runner's operation) to be applied. */
async function failedDocument(server: GlossaServer, probe: Probe): Promise<string> {
  const t = { server: { url: server.url, devKey: DEV_KEY } } as unknown as TestServer;
  const uploaded = await upload(t, 'failing.txt', TEXT, { target_lang: 'ES', source_lang: 'EN' });
  expect(uploaded.status).toBe(200);
  const { document_id: id, document_key: key } = uploaded.data as {
    document_id: string;
    document_key: string;
  };
  await waitFor(
    async () => (await call(server, `/v2/document/${id}`, { document_key: key })).status === 'error',
    'the failure',
  );
  await waitFor(() => hasId(probe, `jobs/${id}/refund`), 'the refund');
  expect((await call(server, '/v2/usage')).character_count).toBe(0);
  return id;
}

const BACKENDS: [string, () => Promise<Probe>, boolean][] = [
  ['SQLite', async () => sqliteProbe(), false],
  ['PostgreSQL', () => postgresProbe(), !hasPostgres],
];

for (const [name, makeProbe, skip] of BACKENDS) {
  describe.skipIf(skip)(`the documents' usage operation ids (${name})`, () => {
    it("a server's sweep forgets old ids of documents that are gone; a failed document's refund stays applied once", async () => {
      const probe = await makeProbe();
      let server = await start(probe);
      let id: string;
      try {
        id = await failedDocument(server, probe);
      } finally {
        await server.close();
      }
      await probe.seedGone(GONE, 3 * DAY, 'jobs/gone-');
      const before = await count(probe, 'jobs/gone-');
      expect(before).toBe(GONE);

      server = await start(probe);
      try {
        // The sweep at start: the gone documents' ids go; the refund's (the runner's) stays, applied once.
        await waitFor(async () => (await count(probe, 'jobs/gone-')) === 0, 'the sweep');
        expect(await hasId(probe, `jobs/${id}/refund`)).toBe(true);
        expect((await call(server, '/v2/usage')).character_count).toBe(0);
        // Another feature's prefix is not the documents' to forget.
        expect(await count(probe, 'voice/')).toBe(1);
        console.info(
          `${name}: usage_operations 'jobs/gone-' rows before the sweep ${before}, after ${await count(probe, 'jobs/gone-')}`,
        );
      } finally {
        await server.close();
      }
    }, 90_000);

    it("keeps a document's job ids recorded after a day before the oldest document still stored, however old", async () => {
      const probe = await makeProbe();
      let server = await start(probe);
      let id: string;
      try {
        id = await failedDocument(server, probe);
      } finally {
        await server.close();
      }
      // The failed document's job was uploaded three days ago (and is still stored); ids of jobs gone were
      // recorded 3.5 days ago (after the bound, a day before that upload) and 5 days ago (before it).
      await storedSince(probe, id, 3 * DAY);
      await probe.seedGone(GONE, 3.5 * DAY, 'jobs/gone-');
      await probe.seedGone(GONE, 5 * DAY, 'jobs/older-');
      server = await start(probe);
      try {
        // The runner's sweep: the ids before the bound go, those after it stay.
        await waitFor(async () => (await count(probe, 'jobs/older-')) === 0, 'the sweep');
        expect(await count(probe, 'jobs/gone-')).toBe(GONE);
        expect(await hasId(probe, `jobs/${id}/refund`)).toBe(true);
      } finally {
        await server.close();
      }
      // The document's job deleted, nothing can apply the ids any more, and the bound is a day ago.
      await deleted(probe, id);
      server = await start(probe);
      try {
        const started = performance.now();
        await waitFor(async () => (await count(probe, 'jobs/gone-')) === 0, 'the sweep');
        const ms = performance.now() - started;
        expect(await count(probe, 'voice/')).toBe(1);
        expect((await call(server, '/v2/usage')).character_count).toBe(0);
        console.info(
          `${name}: the runner's sweep forgot ${GONE} 'jobs/' operation ids within ${ms.toFixed(0)} ms`,
        );
      } finally {
        await server.close();
      }
    }, 90_000);
  });
}
