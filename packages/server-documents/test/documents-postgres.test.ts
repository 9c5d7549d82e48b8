/**
 * Documents on PostgreSQL (a real cluster started by the test): the job side's fencing by the runner's
 * attempt (a taken-over attempt can neither finish, fail nor bill), and two servers on one database, where the one that stops
 * (SIGTERM's graceful close) leaves its running document to the other, billed once, which translates only
 * the chunks the first had not kept.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { createPostgresDocuments } from '../src/postgres.js';
import { migrateDocuments } from '../src/postgres-schema.js';
import { countingApertium } from './counting-engine.js';
import { download, upload, waitDone } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';
import { createDatabase } from './storage-probe.js';

const DEV_KEY = 'documents-postgres-dev-key-0123';

const cluster = postgresForFile('the PostgreSQL document tests');

describe.skipIf(!hasPostgres)('documents on PostgreSQL', () => {
  it("the job side is fenced by the runner's attempt: a superseded attempt can neither finish, fail nor record characters", async () => {
    const url = await createDatabase(cluster());
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    try {
      await migrateDocuments(pool);
      // Migrating again (another instance starting) changes nothing.
      await migrateDocuments(pool);
      const documents = createPostgresDocuments(pool);
      const id = 'a'.repeat(32);
      await documents.store.insert(
        {
          id,
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
        { submit: async () => {} },
      );
      expect(await documents.jobs.unfinished()).toEqual([
        { id, accountId: 'account-1', keyId: 'key-1', billed: 40, day: '2026-11-25' },
      ]);
      expect(await documents.jobs.start(id, 1)).toBe(true);
      expect(Buffer.from((await documents.jobs.upload(id))!).toString()).toBe('Hello.');
      // With what it kept in the source language (translate.ts), for an attempt that resumes the job.
      const kept = { count: 1, segments: [{ index: 0, source: 'Hello.', attempts: [] }] };
      await documents.jobs.chunks(id, 1).save('d1', ['Hola.'], kept);
      // Taken over: attempt 2 starts; attempt 1 (a zombie) writes nothing from now on.
      expect(await documents.jobs.start(id, 2)).toBe(true);
      expect(await documents.jobs.start(id, 1)).toBe(false);
      await documents.jobs.finish(id, 1, Buffer.from('old'));
      await documents.jobs.fail(id, 1, 'old failure');
      await documents.jobs.setBilled(id, 1, 99, '2026-11-25');
      await documents.jobs.chunks(id, 1).save('d2', ['zombie'], kept);
      expect((await documents.jobs.get(id))?.status).toBe('translating');
      expect((await documents.jobs.get(id))?.billedCharacters).toBe(40);
      // The chunk of attempt 1, kept before it lost the job, is attempt 2's to use.
      expect([...(await documents.jobs.chunks(id, 2).load()).entries()]).toEqual([['d1', ['Hola.']]]);
      expect([...(await documents.jobs.chunks(id, 2).loadKept()).entries()]).toEqual([['d1', kept]]);
      await documents.jobs.setBilled(id, 2, 45, '2026-11-26');
      await documents.jobs.finish(id, 2, Buffer.from('Hola.'));
      const done = await documents.jobs.get(id);
      expect(done?.status).toBe('done');
      expect(done?.billedCharacters).toBe(45);
      expect((await documents.jobs.chunks(id, 2).load()).size).toBe(0);
      expect(await documents.jobs.unfinished()).toEqual([]);
      expect(await documents.store.find('account-1', id, 'x')).toBeUndefined(); // wrong key
    } finally {
      await pool.end();
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
        // The job's checkpoint says chunks are done (the runner's `jobs` table, same database).
        const { rows } = await database.query(
          'SELECT d.status, j.checkpoint FROM documents d LEFT JOIN jobs j ON j.id = d.id WHERE d.id = $1',
          [uploaded.data.document_id],
        );
        if (rows[0].status === 'translating' && JSON.parse(rows[0].checkpoint ?? '{"done":0}').done > 0)
          break;
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
