/**
 * Spoken terms and glossaries on asynchronous voice jobs: checked and applied as on a real-time session.
 * Real pocketsphinx on flite kal16 audio, real Apertium, a real server over loopback HTTP.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onPostgres } from '../../server/test/services.js';
import { startTestServer, storageFor, type TestServer } from './helpers.js';
import { fliteWav, joinWavs, type Message, uploadVoiceJob } from './voice-helpers.js';

let t: TestServer;
beforeAll(async () => {
  // One job at a time (the job runner's workers): a long job keeps the next one queued.
  t = await startTestServer({ jobs: { concurrency: 1 } });
});
afterAll(async () => {
  await t?.close();
});

const EN_ES: [string, string][] = [
  ['source_language', 'en'],
  ['target_languages', 'es'],
];
const upload = (fields: [string, string][], audio: Buffer, key = t.server.devKey) =>
  uploadVoiceJob(t.server.url, key, fields, audio);

/** Waits until the job leaves queued/processing; its last status. */
async function settled(server: TestServer, id: string, key = server.server.devKey): Promise<Message> {
  let job: Message;
  await vi.waitFor(
    async () => {
      job = (await server.call(`/v3/voice/jobs/${id}`, { key })).data;
      expect(['done', 'error']).toContain(job.status);
    },
    // One job at a time, some of them long: minutes on a loaded machine.
    { timeout: 150_000, interval: 200 },
  );
  return job;
}

/** Uploads a job and returns its result once done. */
async function runJob(fields: [string, string][], audio: Buffer): Promise<Message> {
  const created = await upload(fields, audio);
  expect(created.status, JSON.stringify(created.data)).toBe(202);
  expect(await settled(t, created.data.job_id)).toEqual({ job_id: created.data.job_id, status: 'done' });
  return (await t.call(`/v3/voice/jobs/${created.data.job_id}/result`)).data;
}

const spokenTerms = async (terms: string[], key?: string) => {
  const reply = await t.call('/v3/voice/spoken_terms', {
    json: { name: 'terms', language: 'en', terms },
    ...(key === undefined ? {} : { key }),
  });
  expect(reply.status).toBe(201);
  return reply.data.spoken_terms_id as string;
};

const glossary = (source: string, target: string, entries: string, key?: string) =>
  t.glossary(source, target, entries, key === undefined ? {} : { key });

describe('voice jobs with a spoken-term collection', { timeout: 120_000 }, () => {
  it('a word missing from the dictionary is recognised and the term kept as written', async () => {
    const wav = fliteWav('We translate the site with Glossa every day.');
    const plain = await runJob(EN_ES, wav);
    expect(plain.transcript).not.toMatch(/glossa/i);

    const id = await spokenTerms(['Glossa']);
    const result = await runJob([...EN_ES, ['spoken_terms_id', id]], wav);
    expect(result.transcript).toBe('We translate the site with Glossa every day.');
  });

  it('a recognized term in any letter case comes out as the collection spells it', async () => {
    const wav = fliteWav('I flew to New York with my friend from Google.');
    const plain = await runJob(EN_ES, wav);
    expect(plain.transcript).toMatch(/new york/i);
    expect(plain.transcript).not.toContain('New York');

    const id = await spokenTerms(['New York', 'Google']);
    const result = await runJob([...EN_ES, ['spoken_terms_id', id]], wav);
    expect(result.transcript).toContain('New York');
    expect(result.transcript).toContain('Google');
  });
});

describe('voice jobs with a glossary (real Apertium)', { timeout: 120_000 }, () => {
  it('the translations follow the glossary', async () => {
    const wav = fliteWav('The file is too large.');
    const plain = await runJob(EN_ES, wav);
    expect(plain.translations[0].text).toMatch(/lima/i);

    const id = await glossary('en', 'es', 'file\tarchivo');
    const result = await runJob([...EN_ES, ['glossary_id', id]], wav);
    expect(result.transcript).toBe('The file is too large.');
    expect(result.translations).toHaveLength(1);
    expect(result.translations[0].target_language).toBe('es');
    expect(result.translations[0].text).toMatch(/\barchivo\b/);
    expect(result.translations[0].text).not.toMatch(/lima/i);
  });

  it('a glossary deleted before the job runs ends it in error with the reason', async () => {
    const long = fliteWav('Please send me the report before the meeting tomorrow morning.');
    // One job runs at a time (this server's runner): this one keeps the glossary's job queued while the
    // glossary is deleted.
    const first = await upload(EN_ES, joinWavs(long, long, long, long, long));
    expect(first.status).toBe(202);
    const id = await glossary('en', 'es', 'file\tarchivo');
    const created = await upload([...EN_ES, ['glossary_id', id]], fliteWav('The file is too large.'));
    expect(created.status).toBe(202);
    expect((await t.call(`/v3/voice/jobs/${created.data.job_id}`)).data.status).toBe('queued');
    expect((await t.call(`/v3/glossaries/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await settled(t, created.data.job_id)).toEqual({
      job_id: created.data.job_id,
      status: 'error',
      error_message: `Glossary '${id}' not found.`,
    });
    const result = await t.call(`/v3/voice/jobs/${created.data.job_id}/result`);
    expect(result.status).toBe(400);
    expect(result.data.message).toBe(`The voice job failed: Glossary '${id}' not found.`);
    expect((await settled(t, first.data.job_id)).status).toBe('done');
  }, 300_000);
});

describe('voice job resources are checked before the job is queued', () => {
  it('unknown ids, another account’s ids, a glossary without the pair: 404; malformed ids: 400; no job queued', async () => {
    const wav = fliteWav('Hello.');
    const jobCount = async () => {
      // The runner's jobs: on PostgreSQL (GLOSSA_TEST_POSTGRES) in the server's database, else glossa.sqlite.
      const { databaseUrl } = await storageFor(t.dataDir);
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          return (await client.query(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'voice/transcribe'`))
            .rows[0].n as number;
        } finally {
          await client.end();
        }
      }
      const db = new Database(join(t.dataDir, 'glossa.sqlite'), { readonly: true });
      try {
        return (
          db.prepare(`SELECT count(*) AS n FROM jobs WHERE kind = 'voice/transcribe'`).get() as { n: number }
        ).n;
      } finally {
        db.close();
      }
    };
    const before = await jobCount();
    const refused = async (fields: [string, string][], status: number, message: string | RegExp) => {
      const reply = await upload([...EN_ES, ...fields], wav);
      expect(reply.status, JSON.stringify(reply.data)).toBe(status);
      expect(reply.data.message).toMatch(message);
    };
    const unknown = '00000000-0000-4000-8000-000000000000';
    await refused([['spoken_terms_id', unknown]], 404, `Spoken-term collection ${unknown} not found.`);
    await refused([['glossary_id', unknown]], 404, `Glossary '${unknown}' not found.`);

    const other = await t.server.createAccount({ plan: 'paid', voiceJobsAlpha: true });
    const theirTerms = await spokenTerms(['Glossa'], other.key);
    const theirGlossary = await glossary('en', 'es', 'file\tarchivo', other.key);
    await refused([['spoken_terms_id', theirTerms]], 404, `Spoken-term collection ${theirTerms} not found.`);
    await refused([['glossary_id', theirGlossary]], 404, `Glossary '${theirGlossary}' not found.`);
    // Their own ids are fine for them.
    const theirs = await upload(
      [...EN_ES, ['spoken_terms_id', theirTerms], ['glossary_id', theirGlossary]],
      wav,
      other.key,
    );
    expect(theirs.status).toBe(202);

    const french = await glossary('en', 'fr', 'file\tfichier');
    await refused(
      [['glossary_id', french]],
      400,
      /^No dictionary found for language pair EN → ES in glossary/,
    );
    const spanish = await glossary('en', 'es', 'file\tarchivo');
    await refused(
      [
        ['target_languages', 'ca'],
        ['glossary_id', spanish],
      ],
      400,
      /^No dictionary found for language pair EN → CA in glossary/,
    );

    await refused([['spoken_terms_id', 'terms-1']], 400, "Parameter 'spoken_terms_id' must be a UUID.");
    await refused([['glossary_id', '']], 400, "Parameter 'glossary_id' must be a UUID.");
    // Only the other account's job was queued.
    expect(await jobCount()).toBe(before + 1);
    await settled(t, theirs.data.job_id, other.key);
  }, 200_000);
});

/**
 * A job table of the versions before the job runner (`voice_jobs`, as their migrations left it), with the
 * audio column the fleet's had.
 */
const OLD_VOICE_JOBS = `CREATE TABLE voice_jobs (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, key_id TEXT NOT NULL,
  custom_tag TEXT NOT NULL, status TEXT NOT NULL, source TEXT NOT NULL, targets TEXT NOT NULL,
  input_type TEXT NOT NULL, error_message TEXT, result TEXT, created_at TEXT NOT NULL, upload BYTEA)`;
const OLD_JOB = `INSERT INTO voice_jobs (id, account_id, key_id, custom_tag, status, source, targets, input_type,
  created_at) VALUES ('old-job', 'account-1', 'k', '', 'queued', 'en', '["es"]', 'wav', '2026-01-01T00:00:00Z')`;
const refusal = (found: string) =>
  `The data holds job stores of an earlier Glossa version (${found}): upgrade through Glossa commit e39d40c first (it moves these into the job runner), then start this version.`;

describe('voice jobs of a version before the job runner', () => {
  // voice.sqlite: on PostgreSQL (GLOSSA_TEST_POSTGRES) the jobs were not in voice.sqlite.
  it.skipIf(onPostgres)(
    'a data directory whose voice.sqlite still holds a queued job and its audio is refused at start, and left as it was',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'glossa-voice-jobs-old-'));
      // A fresh data directory starts.
      await (await startTestServer({ dataDir })).server.close();
      // The voice database as the two first migrations left it, with a queued job and its audio.
      for (const file of readdirSync(dataDir).filter((name) => name.startsWith('voice.sqlite')))
        rmSync(join(dataDir, file));
      const db = new Database(join(dataDir, 'voice.sqlite'));
      db.exec(OLD_VOICE_JOBS);
      db.exec(OLD_JOB);
      db.pragma('user_version = 2');
      db.close();
      const audio = fliteWav('The file is too large.');
      mkdirSync(join(dataDir, 'voice-jobs'), { recursive: true });
      writeFileSync(join(dataDir, 'voice-jobs', 'old-job'), audio);
      await expect(startTestServer({ dataDir })).rejects.toThrow(
        refusal(
          `files in ${join(dataDir, 'voice-jobs')}; rows in the table voice_jobs of ${join(dataDir, 'voice.sqlite')}`,
        ),
      );
      const after = new Database(join(dataDir, 'voice.sqlite'), { readonly: true });
      try {
        expect(after.pragma('user_version', { simple: true })).toBe(2);
        expect(after.prepare('SELECT id, status FROM voice_jobs').all()).toEqual([
          { id: 'old-job', status: 'queued' },
        ]);
      } finally {
        after.close();
      }
      expect(readFileSync(join(dataDir, 'voice-jobs', 'old-job')).equals(audio)).toBe(true);
    },
  );
});

describe('voice jobs of a version before the job runner on PostgreSQL', () => {
  // The fleet's voice tables: only with GLOSSA_TEST_POSTGRES (the server's own PostgreSQL database).
  it.skipIf(!onPostgres)(
    'a database whose voice_jobs still holds a queued job is refused at start, and left as it was',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'glossa-voice-jobs-pg-old-'));
      // A fresh database starts.
      await (await startTestServer({ dataDir })).server.close();
      const { databaseUrl } = await storageFor(dataDir);
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        // The job table as the earlier version's migrations left it, with a job queued and its audio.
        await client.query(OLD_VOICE_JOBS);
        await client.query(OLD_JOB);
        await client.query(`UPDATE voice_jobs SET upload = $1`, [fliteWav('The file is too large.')]);
        const schema = async () => (await client.query('SELECT version FROM glossa_voice_schema')).rows;
        const before = await schema();
        await expect(startTestServer({ dataDir })).rejects.toThrow(
          refusal('rows in the table voice_jobs (PostgreSQL)'),
        );
        expect(
          (await client.query('SELECT id, status, length(upload) > 0 AS audio FROM voice_jobs')).rows,
        ).toEqual([{ id: 'old-job', status: 'queued', audio: true }]);
        expect(await schema()).toEqual(before);
      } finally {
        await client.end();
      }
    },
  );
});
