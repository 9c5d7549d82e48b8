/**
 * Documents on PostgreSQL (a real cluster started by the test): the job side's fencing by the runner's
 * attempt (a taken-over attempt can neither finish, fail nor bill), and two servers on one database, where the one that stops
 * (SIGTERM's graceful close) leaves its running document to the other, billed once, which translates only
 * the chunks the first had not kept.
 */

import { createPostgresStorage } from '@glossa/server';
import { JobSuperseded } from '@glossa/server/feature';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { chunkFiles, DOCUMENT_JOB_KIND, RESULT_FILE, UPLOAD_FILE } from '../src/document-job.js';
import { countingApertium } from './counting-engine.js';
import { download, upload, waitDone } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';
import { createDatabase } from './storage-probe.js';

const DEV_KEY = 'documents-postgres-dev-key-0123';

const cluster = postgresForFile('the PostgreSQL document tests');

describe.skipIf(!hasPostgres)('documents on PostgreSQL', () => {
  it("the job side is fenced by the runner's attempt: a superseded attempt can neither keep a chunk, finish nor fail", async () => {
    const storage = await createPostgresStorage(await createDatabase(cluster()));
    const backend = storage.openJobBackend();
    try {
      const id = 'a'.repeat(32);
      await backend.insert({
        id,
        kind: DOCUMENT_JOB_KIND,
        accountId: 'account-1',
        input: '{}',
        maxQueued: 9,
        files: { [UPLOAD_FILE]: Buffer.from('Hello.') },
      });
      const state = { result: null, error: null, failures: 0 };
      /** The attempt the runner's claim gives, as document-job.ts sees it (its files and its checkpoint). */
      const claim = async () => {
        const row = (await backend.claim([DOCUMENT_JOB_KIND], 2))!;
        const fence = { id, attempt: row.attempt };
        return {
          fence,
          file: (name: string) => backend.files.read(id, name),
          writeFile: (name: string, data: Uint8Array) => backend.writeFile(fence, name, data),
          save: (checkpoint: unknown) =>
            backend.change(
              fence,
              { ...state, status: 'running', checkpoint: JSON.stringify(checkpoint) },
              [],
            ),
        };
      };
      const first = await claim();
      expect(first.fence.attempt).toBe(1);
      expect(Buffer.from((await first.file(UPLOAD_FILE))!).toString()).toBe('Hello.');
      // With what it kept in the source language (translate.ts), for an attempt that resumes the job.
      const kept = { count: 1, segments: [{ index: 0, source: 'Hello.', attempts: [] }] };
      await chunkFiles(first).save('d1', ['Hola.'], kept);
      // Taken over: attempt 2 claims it; attempt 1 (a zombie) writes nothing from now on.
      await backend.change(
        first.fence,
        { ...state, status: 'queued', checkpoint: null, runAfter: new Date().toISOString() },
        [],
      );
      const second = await claim();
      expect(second.fence.attempt).toBe(2);
      await expect(chunkFiles(first).save('d2', ['zombie'], kept)).rejects.toBeInstanceOf(JobSuperseded);
      await expect(first.writeFile(RESULT_FILE, Buffer.from('old'))).rejects.toBeInstanceOf(JobSuperseded);
      await expect(first.save({ failed: 'old failure' })).rejects.toBeInstanceOf(JobSuperseded);
      expect((await backend.get(id))?.status).toBe('running');
      expect(await backend.files.read(id, 'chunk-1')).toBeUndefined();
      // The chunk of attempt 1, kept before it lost the job, is attempt 2's to use.
      const chunks = chunkFiles(second);
      expect([...(await chunks.load()).entries()]).toEqual([['d1', ['Hola.']]]);
      expect([...(await chunks.loadKept()).entries()]).toEqual([['d1', kept]]);
      await second.writeFile(RESULT_FILE, Buffer.from('Hola.'));
      await backend.change(
        second.fence,
        {
          ...state,
          status: 'completed',
          checkpoint: null,
          result: 'null',
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        },
        [],
      );
      expect((await backend.get(id))?.status).toBe('completed');
      expect(Buffer.from((await backend.files.take(id, RESULT_FILE))!).toString()).toBe('Hola.');
    } finally {
      await backend.close();
      await storage.close();
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
        const { rows } = await database.query('SELECT status, checkpoint FROM jobs WHERE id = $1', [
          uploaded.data.document_id,
        ]);
        if (rows[0].status === 'running' && JSON.parse(rows[0].checkpoint ?? '{"done":0}').done > 0) break;
        expect(['queued', 'running']).toContain(rows[0].status);
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
      const { rows } = await database.query('SELECT status FROM jobs WHERE id = $1', [
        uploaded.data.document_id,
      ]);
      expect(['queued', 'running']).toContain(rows[0].status);
      // The chunks the first server translated are kept (200 sentences each: the job's chunk files).
      const kept = await database.query(
        `SELECT jsonb_array_length(convert_from(data, 'UTF8')::jsonb -> 'outputs') AS n
         FROM (SELECT f.job_id, f.name, (SELECT string_agg(c.data, ''::bytea ORDER BY c.seq) FROM job_file_chunks c WHERE c.file_id = f.file_id) AS data FROM job_files f) AS job_files
         WHERE job_id = $1 AND name LIKE 'chunk-%' AND length(data) > 0`,
        [uploaded.data.document_id],
      );
      expect(kept.rows.length).toBeGreaterThan(0);
      const keptUnits = kept.rows.reduce((sum, row) => sum + Number(row.n), 0);
      expect((await waitDone(second, uploaded.data, 120_000)).status).toBe('done');
      const attempts = await database.query('SELECT attempt FROM jobs WHERE id = $1', [
        uploaded.data.document_id,
      ]);
      expect(attempts.rows[0].attempt).toBe(2);
      // The second server's engine got only the sentences not kept (8,000 in all: two a line); the
      // chunks are gone with the job.
      expect(counting.texts()).toBe(8000 - keptUnits);
      const left = await database.query(
        `SELECT COUNT(*) AS n FROM (SELECT f.job_id, f.name, (SELECT string_agg(c.data, ''::bytea ORDER BY c.seq) FROM job_file_chunks c WHERE c.file_id = f.file_id) AS data FROM job_files f) AS job_files
         WHERE name LIKE 'chunk-%' AND length(data) > 0`,
      );
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
