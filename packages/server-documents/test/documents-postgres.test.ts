/**
 * Documents on PostgreSQL (a real cluster started by the test): the job side's fencing (a taken-over attempt
 * can neither finish, fail, refund nor bill), and two servers on one database, where the one that stops
 * (SIGTERM's graceful close) leaves its running document to the other, billed once, which translates only
 * the chunks the first had not kept.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { DOCUMENT_JOB_QUEUE, startBoss } from '../src/pg-queue.js';
import { createPostgresDocuments, migrateDocuments } from '../src/postgres.js';
import { countingApertium } from './counting-engine.js';
import { download, upload, waitDone } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';
import { createDatabase } from './storage-probe.js';

const DEV_KEY = 'documents-postgres-dev-key-0123';

const cluster = postgresForFile('the PostgreSQL document tests');

describe.skipIf(!hasPostgres)('documents on PostgreSQL', () => {
  it('an attempt taken over can neither finish, fail (refund), nor record characters; the new one can', async () => {
    const url = await createDatabase(cluster());
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    const { boss, enqueue } = await startBoss(url, {});
    try {
      await migrateDocuments(pool);
      // Migrating again (another instance starting) changes nothing.
      await migrateDocuments(pool);
      const documents = createPostgresDocuments(pool, enqueue);
      await documents.store.insert(
        {
          id: 'a'.repeat(32),
          accountId: 'account-1',
          keyId: 'key-1',
          keyHash: 'b'.repeat(64),
          extension: 'txt',
          outputExtension: 'txt',
          parameters: { file_name: 'a.txt', target_lang: 'es', source_lang: 'en' },
          billedCharacters: 40,
          usageDay: '2026-11-25',
          estimateMs: 10,
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        },
        Buffer.from('Hello.'),
      );
      const jobs = async () =>
        Number(
          (await pool.query(`SELECT COUNT(*) AS n FROM pgboss.job WHERE name = 'glossa-documents'`)).rows[0]
            .n,
        );
      expect(await jobs()).toBe(1);
      // Scoped by account: another account cannot claim it.
      expect(await documents.claim('account-2', 'a'.repeat(32), 'dead/1/x')).toBeUndefined();
      const first = await documents.claim('account-1', 'a'.repeat(32), 'dead/1/x');
      expect(first?.document.attempt).toBe(1);
      expect(first?.bytes.toString()).toBe('Hello.');
      // Claimed once: a duplicate job finds nothing to do.
      expect(await documents.claim('account-1', 'a'.repeat(32), 'other/2/y')).toBeUndefined();
      expect(await documents.owners('other/2/y')).toEqual(['dead/1/x']);
      // Its owner holds no lock (dead): the document is queued again, with a new job.
      const free = async (client: pg.PoolClient) =>
        (await client.query('SELECT pg_try_advisory_xact_lock(1, 2) AS free')).rows[0].free as boolean;
      expect(await documents.takeOver('dead/1/x', free)).toBe(1);
      expect(await jobs()).toBe(2);
      const second = await documents.claim('account-1', 'a'.repeat(32), 'live/3/z');
      expect(second?.document.attempt).toBe(2);
      // The old attempt is fenced out.
      expect(await documents.finish(first!.document, Buffer.from('old'))).toBe(false);
      expect(await documents.fail(first!.document, 'old failure')).toBeUndefined();
      expect(await documents.setBilled(first!.document, 99, '2026-11-25')).toBe(false);
      // The new one fails once: its refund is the document's characters, once.
      expect(await documents.setBilled(second!.document, 45, '2026-11-26')).toBe(true);
      expect(await documents.fail(second!.document, 'engine failed')).toEqual({
        id: 'a'.repeat(32),
        accountId: 'account-1',
        keyId: 'key-1',
        billed: 45,
        day: '2026-11-26',
      });
      // Owed until applied (job.ts).
      expect((await documents.owedRefunds()).map((refund) => refund.id)).toEqual(['a'.repeat(32)]);
      await documents.refunded('a'.repeat(32));
      expect(await documents.owedRefunds()).toEqual([]);
      expect(await documents.fail(second!.document, 'engine failed')).toBeUndefined();
      const found = await documents.store.find('account-1', 'a'.repeat(32), 'x');
      expect(found).toBeUndefined(); // wrong key
      expect(await documents.store.counts()).toEqual({ queued: 0, translating: 0 });
    } finally {
      await boss.stop({ graceful: false });
      await pool.end();
    }
  }, 60_000);

  it('a queued document whose pg-boss job was fetched by a worker that died before its claim gets a new job', async () => {
    const url = await createDatabase(cluster());
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    const { boss, enqueue } = await startBoss(url, {});
    try {
      await migrateDocuments(pool);
      const documents = createPostgresDocuments(pool, enqueue);
      await documents.store.insert(
        {
          id: 'c'.repeat(32),
          accountId: 'account-1',
          keyId: 'key-1',
          keyHash: 'd'.repeat(64),
          extension: 'txt',
          outputExtension: 'txt',
          parameters: { file_name: 'a.txt', target_lang: 'es', source_lang: 'en' },
          billedCharacters: 6,
          usageDay: '2026-11-26',
          estimateMs: 10,
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        },
        Buffer.from('Hello.'),
      );
      // Its job is waiting: not lost.
      expect(await documents.lost(DOCUMENT_JOB_QUEUE, 0)).toBe(0);
      // A worker fetches it and dies (never claims the row, never completes the job).
      const fetched = await boss.fetch<{ documentId: string }>(DOCUMENT_JOB_QUEUE);
      expect(fetched?.[0]?.data.documentId).toBe('c'.repeat(32));
      // Within orphanAfterMs the active job is trusted; past it, the document gets a new job, once.
      expect(await documents.lost(DOCUMENT_JOB_QUEUE, 60_000)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await documents.lost(DOCUMENT_JOB_QUEUE, 20)).toBe(1);
      expect(await documents.lost(DOCUMENT_JOB_QUEUE, 20)).toBe(0);
      const again = await boss.fetch<{ documentId: string }>(DOCUMENT_JOB_QUEUE);
      expect(again?.[0]?.data.documentId).toBe('c'.repeat(32));
      expect((await documents.claim('account-1', 'c'.repeat(32), 'live/1/x'))?.document.attempt).toBe(1);
    } finally {
      await boss.stop({ graceful: false });
      await pool.end();
    }
  }, 60_000);

  it('a lease connection the database ends is taken again, with the same owner lock', async () => {
    const databaseUrl = await createDatabase(cluster());
    const t = await startTestServer({ databaseUrl, devKey: DEV_KEY, documents: { leaseCheckSeconds: 0.2 } });
    const database = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    const leases = async () =>
      (
        await database.query<{ pid: number; objid: string }>(
          `SELECT a.pid, l.objid FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
           WHERE a.application_name = 'glossa-documents-lease' AND a.datname = current_database()
           AND l.locktype = 'advisory' AND l.classid = 7117020 AND l.granted`,
        )
      ).rows;
    const until = async <T>(read: () => Promise<T | undefined>): Promise<T> => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const value = await read();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error('timed out');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      // The service starts its storage in the background: the first upload waits for it.
      const first = await upload(t, 'a.txt', 'The red car is fast.', {
        target_lang: 'ES',
        source_lang: 'EN',
      });
      expect((await waitDone(t, first.data)).status).toBe('done');
      const [before] = await until(async () => ((await leases()).length === 1 ? leases() : undefined));
      await database.query('SELECT pg_terminate_backend($1)', [before!.pid]);
      const after = await until(async () => {
        const rows = await leases();
        return rows.length === 1 && rows[0]!.pid !== before!.pid ? rows[0] : undefined;
      });
      expect(after.objid).toBe(before!.objid);
      const second = await upload(t, 'b.txt', 'The house is big.', { target_lang: 'ES', source_lang: 'EN' });
      expect((await waitDone(t, second.data)).status).toBe('done');
      expect((await download(t, second.data)).bytes.toString()).toMatch(/^La casa es grande\.?$/);
    } finally {
      await database.end();
      await t.close();
    }
  }, 60_000);

  it('a server that stops mid-job leaves the document to another on the same database: done once, billed once, its kept chunks not translated again', async () => {
    const databaseUrl = await createDatabase(cluster());
    const text = Array.from(
      { length: 4000 },
      (_, index) => `The red car ${index} is fast. The house is big and the garden ${index} is green.\n`,
    ).join('');
    let first: TestServer | undefined = await startTestServer({
      databaseUrl,
      devKey: DEV_KEY,
      documents: { concurrency: 1 },
    });
    let second: TestServer | undefined;
    const counting = countingApertium();
    const database = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      const uploaded = await upload(first, 'long.txt', text, { target_lang: 'ES', source_lang: 'EN' });
      expect(uploaded.status).toBe(200);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await database.query('SELECT status, progress FROM documents WHERE id = $1', [
          uploaded.data.document_id,
        ]);
        if (rows[0].status === 'translating' && rows[0].progress > 0) break;
        expect(['queued', 'translating']).toContain(rows[0].status);
        if (Date.now() > deadline) throw new Error('the job did not start in 60 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      second = await startTestServer({
        databaseUrl,
        devKey: DEV_KEY,
        documents: { concurrency: 1 },
        engines: [counting.engine],
      });
      await first.server.close();
      first = undefined;
      const { rows } = await database.query('SELECT status FROM documents WHERE id = $1', [
        uploaded.data.document_id,
      ]);
      expect(['queued', 'translating']).toContain(rows[0].status);
      // The chunks the first server translated are kept (200 sentences each).
      const kept = await database.query(
        'SELECT jsonb_array_length(outputs) AS n FROM document_chunks WHERE document_id = $1',
        [uploaded.data.document_id],
      );
      expect(kept.rows.length).toBeGreaterThan(0);
      const keptUnits = kept.rows.reduce((sum, row) => sum + Number(row.n), 0);
      expect((await waitDone(second, uploaded.data, 120_000)).status).toBe('done');
      const attempts = await database.query('SELECT attempt FROM documents WHERE id = $1', [
        uploaded.data.document_id,
      ]);
      expect(attempts.rows[0].attempt).toBe(2);
      // The second server's engine got only the sentences not kept (8,000 in all: two a line); the
      // chunks are gone with the job.
      expect(counting.texts()).toBe(8000 - keptUnits);
      const left = await database.query('SELECT COUNT(*) AS n FROM document_chunks');
      expect(Number(left.rows[0].n)).toBe(0);
      const result = await download(second, uploaded.data);
      expect(result.status).toBe(200);
      const lines = result.bytes.toString().split('\n');
      expect(lines).toHaveLength(4001);
      expect(lines[3999]).toMatch(/^El coche rojo 3999 es /);
      expect((await second.call('/v2/usage')).data.character_count).toBe([...text].length);
    } finally {
      await database.end();
      await first?.server.close();
      await second?.server.close();
    }
  }, 240_000);
});
