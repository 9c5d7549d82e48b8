import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@glossa/server';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashKey } from '../../server/src/keys.js';
import { MIGRATIONS } from '../../server/src/storage/migrations.js';
import { onPostgres } from '../../server/test/services.js';
import { startTestServer, storageFor, type TestServer } from './helpers.js';
import { fliteWav, joinWavs, uploadVoiceJob, wordErrorRate } from './voice-helpers.js';

const REFERENCE = 'please send me the report before the meeting tomorrow morning.';
let t: TestServer;
let wav: Buffer;
beforeAll(async () => {
  t = await startTestServer();
  wav = fliteWav(REFERENCE);
});
afterAll(async () => {
  await t?.close();
});

const upload = (
  fields: [string, string][],
  file: Buffer | undefined,
  name = 'speech.wav',
  key = t.server.devKey,
) => uploadVoiceJob(t.server.url, key, fields, file, name);

describe('asynchronous voice jobs (alpha)', () => {
  it('upload, poll until done, download transcript and Spanish translation', async () => {
    const created = await upload(
      [
        ['source_language', 'en'],
        ['target_languages', 'es'],
      ],
      wav,
    );
    expect(created.status).toBe(202);
    const id = created.data.job_id;
    await vi.waitFor(
      async () => expect((await t.call(`/v3/voice/jobs/${id}`)).data).toEqual({ job_id: id, status: 'done' }),
      // A few seconds of speech: well under a minute even on a loaded machine.
      { timeout: 60_000, interval: 200 },
    );
    const result = await t.call(`/v3/voice/jobs/${id}/result`);
    expect(result.status).toBe(200);
    expect(wordErrorRate(REFERENCE, result.data.transcript)).toBeLessThanOrEqual(0.15);
    expect(result.data.translations).toHaveLength(1);
    expect(result.data.translations[0].target_language).toBe('es');
    expect(result.data.translations[0].text).toMatch(/\b(informe|reunión|mañana)\b/i);
  }, 90_000);

  it('a file that is not audio ends in status error; its result is 400', async () => {
    const created = await upload(
      [
        ['source_language', 'en'],
        ['target_languages', 'es'],
      ],
      Buffer.from('nope'),
    );
    const id = created.data.job_id;
    await vi.waitFor(async () => expect((await t.call(`/v3/voice/jobs/${id}`)).data.status).toBe('error'), {
      timeout: 20_000,
      interval: 200,
    });
    expect((await t.call(`/v3/voice/jobs/${id}`)).data.error_message).toMatch(/could not be decoded/);
    expect((await t.call(`/v3/voice/jobs/${id}/result`)).status).toBe(400);
  });

  it('refuses missing files, bad fields and languages (400), accounts outside the alpha (403), others’ jobs (404)', async () => {
    const fields: [string, string][] = [
      ['source_language', 'en'],
      ['target_languages', 'es'],
    ];
    expect((await upload(fields, undefined)).status).toBe(400);
    expect((await upload([['source_language', 'en']], wav)).status).toBe(400);
    expect(
      (
        await upload(
          [
            ['source_language', 'de'],
            ['target_languages', 'es'],
          ],
          wav,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await upload(
          [
            ['source_language', 'en'],
            ['target_languages', 'xx'],
          ],
          wav,
        )
      ).status,
    ).toBe(400);
    expect((await upload(fields, wav, 'speech.txt')).status).toBe(400);
    const outsider = await t.server.createAccount({ plan: 'paid' });
    expect((await upload(fields, wav, 'speech.wav', outsider.key)).status).toBe(403);
    // The quality-evaluation alpha is another alpha: it does not open voice jobs.
    const quality = await t.server.createAccount({ plan: 'paid', qualityAlpha: true });
    const refused = await upload(fields, wav, 'speech.wav', quality.key);
    expect(refused).toEqual({
      status: 403,
      data: {
        message: 'Access denied: asynchronous voice jobs are an alpha this account is not part of.',
        code: 'feature_not_enabled',
      },
    });
    const member = await t.server.createAccount({ plan: 'paid', voiceJobsAlpha: true });
    const created = await upload(fields, wav);
    expect((await t.call(`/v3/voice/jobs/${created.data.job_id}`, { key: member.key })).status).toBe(404);
    expect((await t.call('/v3/voice/jobs/unknown')).status).toBe(404);
  });

  it('a result asked before the job is done is 503', async () => {
    const created = await upload(
      [
        ['source_language', 'en'],
        ['target_languages', 'es,ca'],
      ],
      joinWavs(wav, wav, wav),
    );
    const result = await t.call(`/v3/voice/jobs/${created.data.job_id}/result`);
    expect(result.status).toBe(503);
    await vi.waitFor(
      async () => expect((await t.call(`/v3/voice/jobs/${created.data.job_id}`)).data.status).toBe('done'),
      { timeout: 90_000, interval: 200 },
    );
    const done = await t.call(`/v3/voice/jobs/${created.data.job_id}/result`);
    expect(done.data.translations.map((x: { target_language: string }) => x.target_language)).toEqual([
      'es',
      'ca',
    ]);
  }, 120_000);

  it('glossa-server keys create --voice-jobs-alpha makes a key that may start jobs', async () => {
    let created = '';
    const code = await runCli(
      // On PostgreSQL (GLOSSA_TEST_POSTGRES), the server's database, not a SQLite file in its data directory.
      [
        'keys',
        'create',
        '--plan',
        'paid',
        '--voice-jobs-alpha',
        '--data-dir',
        t.dataDir,
        ...Object.values(await storageFor(t.dataDir)).flatMap((url) => ['--database-url', url]),
      ],
      { out: (line) => (created += `${line}\n`), err: () => {} },
    );
    expect(code).toBe(0);
    const key = /^key: (\S+)$/m.exec(created)?.[1] ?? '';
    const reply = await upload(
      [
        ['source_language', 'en'],
        ['target_languages', 'es'],
      ],
      wav,
      'speech.wav',
      key,
    );
    expect(reply.status, JSON.stringify(reply.data)).toBe(202);
  });

  // The spine's SQLite migration: on PostgreSQL (GLOSSA_TEST_POSTGRES) the server does not read glossa.sqlite.
  it.skipIf(onPostgres)(
    'accounts of an older database that had the quality alpha keep voice jobs after the migration',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'glossa-voice-migrate-'));
      const db = new Database(join(dataDir, 'glossa.sqlite'));
      db.exec(MIGRATIONS[0]!);
      db.pragma('user_version = 1');
      const key = 'a'.repeat(43);
      const insert = db.prepare(
        `INSERT INTO accounts (id, plan, quality_alpha, character_limit, created_at) VALUES (?, 'paid', ?, 1000, '')`,
      );
      insert.run('alpha', 1);
      insert.run('plain', 0);
      db.prepare(
        `INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES ('k1', 'alpha', ?, '')`,
      ).run(hashKey(key));
      db.prepare(
        `INSERT INTO api_keys (id, account_id, key_hash, created_at) VALUES ('k2', 'plain', ?, '')`,
      ).run(hashKey('b'.repeat(43)));
      db.close();
      const upgraded = await startTestServer({ dataDir });
      try {
        const jobs = (k: string) => upgraded.call('/v3/voice/jobs/unknown', { key: k });
        expect((await jobs(key)).status).toBe(404);
        expect((await jobs('b'.repeat(43))).status).toBe(403);
        expect((await jobs(upgraded.server.devKey)).status).toBe(404);
      } finally {
        await upgraded.close();
      }
    },
  );

  it('a job interrupted by a server stop runs again when the server starts on the same data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-voice-restart-'));
    const first = await startTestServer({ dataDir });
    const reply = await uploadVoiceJob(
      first.server.url,
      first.server.devKey,
      [
        ['source_language', 'en'],
        ['target_languages', 'es'],
      ],
      wav,
    );
    const { job_id } = reply.data as { job_id: string };
    await first.server.close();
    const second = await startTestServer({ dataDir });
    try {
      await vi.waitFor(
        async () => expect((await second.call(`/v3/voice/jobs/${job_id}`)).data.status).toBe('done'),
        // Its recognition starts over (on PostgreSQL, pg-boss hands the job to the new instance first): a
        // job of several seconds on a loaded machine.
        { timeout: 60_000, interval: 200 },
      );
      const result = await second.call(`/v3/voice/jobs/${job_id}/result`);
      expect(wordErrorRate(REFERENCE, result.data.transcript)).toBeLessThanOrEqual(0.15);
    } finally {
      await second.close();
    }
  }, 90_000);
  it('a job the runner refuses (429) leaves no job behind, neither its row nor its audio (SQLite, or PostgreSQL with GLOSSA_TEST_POSTGRES)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-voice-refused-'));
    // No workers (the first job stays queued) and one job per account: the second submit is refused.
    const first = await startTestServer({ dataDir, jobs: { concurrency: 0, maxQueuedPerAccount: 1 } });
    const fields: [string, string][] = [
      ['source_language', 'en'],
      ['target_languages', 'es'],
    ];
    try {
      expect((await uploadVoiceJob(first.server.url, first.server.devKey, fields, wav)).status).toBe(202);
      const refused = await uploadVoiceJob(first.server.url, first.server.devKey, fields, wav);
      expect(refused.status).toBe(429);
      expect(refused.data.message).toBe('Too many jobs: an account may have 1 jobs waiting or running.');
    } finally {
      await first.server.close();
    }
    // One job (the runner's row, with its audio as its one job file): the refused job left nothing.
    const { databaseUrl } = await storageFor(dataDir);
    const jobs = `SELECT COUNT(*) AS n FROM jobs WHERE kind = 'voice/transcribe'`;
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        expect((await client.query(`${jobs.replace('COUNT(*)', 'COUNT(*)::int')}`)).rows[0].n).toBe(1);
        expect((await client.query('SELECT COUNT(*)::int AS n FROM job_files')).rows[0].n).toBe(1);
      } finally {
        await client.end();
      }
    } else {
      const db = new Database(join(dataDir, 'glossa.sqlite'), { readonly: true });
      expect((db.prepare(jobs).get() as { n: number }).n).toBe(1);
      db.close();
      expect(readdirSync(join(dataDir, 'jobs')).filter((name) => !name.startsWith('.'))).toHaveLength(1);
    }
  }, 60_000);
});
