/**
 * Job files a killed server left in `<dataDir>/voice-jobs/` are removed, those of live jobs are not
 * (leftovers.ts). Embedded (SQLite): a server killed right after a job's finish was written leaves the
 * job's audio; started again, it removes it (and an old file whose job has no row), while a queued job's
 * audio stays and that job runs to its transcript, a file just written (its row not yet inserted) stays,
 * and so do a fleet's attempt file and a name of no job's pattern. On a fleet (PostgreSQL): an instance
 * killed mid-decode (after writing its attempt's audio for ffmpeg) leaves `<id>.attempt-1`; an instance
 * started on the same directory takes the job over, finishes it, and removes the dead attempt's file and
 * one of an attempt whose job has no row. Real pocketsphinx, ffmpeg, Apertium and flite speech.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrashServer } from '../../server/test/crash-server.js';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { voiceFeature } from '../src/index.js';
import { ORPHAN_AGE_MS } from '../src/leftovers.js';
import { fliteWav, type Message, uploadVoiceJob } from './voice-helpers.js';

const SCRIPT = join(import.meta.dirname, 'crash-serve.ts');
const DEV_KEY = 'voice-leftovers-dev-key-0123456789';
const REFERENCE = 'please send me the report before the meeting tomorrow morning.';

const dir = mkdtempSync(join(tmpdir(), 'glossa-voice-leftovers-'));
let wav: Buffer;
const cluster = postgresForFile('the PostgreSQL voice leftovers test');
beforeAll(() => {
  wav = fliteWav(REFERENCE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Storages {
  readonly dataDir: string;
  readonly databaseUrl?: string;
}

/** Starts crash-serve.ts, submits a `/v3/voice/jobs` job, waits for the kill at `crashPoint`; the job id. */
async function submitAndCrash(storage: Storages, crashPoint: 'afterFinish' | 'afterAudio'): Promise<string> {
  const { url, exited, output } = await startCrashServer(SCRIPT, { ...storage, devKey: DEV_KEY, crashPoint });
  const created = await uploadVoiceJob(
    url,
    DEV_KEY,
    [
      ['source_language', 'en'],
      ['target_languages', 'es'],
    ],
    wav,
  );
  expect(created.status).toBe(202);
  expect(await exited, output()).toBe('SIGKILL');
  return created.data.job_id as string;
}

const start = (storage: Storages) =>
  startServer({
    ...storage,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    devKey: DEV_KEY,
    features: [voiceFeature()],
  });

async function job(server: GlossaServer, id: string): Promise<Message> {
  const reply = await fetch(`${server.url}/v3/voice/jobs/${id}`, {
    headers: { authorization: `Service-Auth-Key ${DEV_KEY}` },
  });
  return reply.json();
}

/** The transcript of a finished job (its result). */
async function transcript(server: GlossaServer, id: string): Promise<string> {
  const reply = await fetch(`${server.url}/v3/voice/jobs/${id}/result`, {
    headers: { authorization: `Service-Auth-Key ${DEV_KEY}` },
  });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { transcript: string }).transcript;
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A file in the jobs' directory, its modification time `age` ms ago. */
function plant(jobs: string, name: string, age = 0): string {
  const path = join(jobs, name);
  writeFileSync(path, 'x');
  const at = (Date.now() - age) / 1000;
  utimesSync(path, at, at);
  return name;
}

describe('voice job files a killed server left', () => {
  it("embedded: a finished job's audio and an old file without a row go; a queued job's audio, a fresh file, a fleet's file and other names stay", async () => {
    const storage = { dataDir: mkdtempSync(join(dir, 'data-')) };
    const jobs = join(storage.dataDir, 'voice-jobs');
    const finished = await submitAndCrash(storage, 'afterFinish');
    expect(readdirSync(jobs)).toEqual([finished]);
    // A queued job (as the crash left it: a copy of the finished one's row, queued) and its audio.
    const queued = randomUUID();
    const db = new Database(join(storage.dataDir, 'voice.sqlite'));
    try {
      db.prepare(
        `INSERT INTO voice_jobs (id, account_id, key_id, custom_tag, status, source, targets, input_type,
           spoken_terms, glossary_id, created_at)
         SELECT ?, account_id, key_id, custom_tag, 'queued', source, targets, input_type, spoken_terms,
           glossary_id, ? FROM voice_jobs WHERE id = ?`,
      ).run(queued, new Date().toISOString(), finished);
    } finally {
      db.close();
    }
    writeFileSync(join(jobs, queued), wav);
    const oldOrphan = plant(jobs, randomUUID(), ORPHAN_AGE_MS + 60_000);
    const freshOrphan = plant(jobs, randomUUID());
    const attempt = plant(jobs, `${randomUUID()}.attempt-1`, ORPHAN_AGE_MS + 60_000);
    const other = plant(jobs, 'notes.txt', ORPHAN_AGE_MS + 60_000);
    const before = readdirSync(jobs).length;

    const server = await start(storage);
    try {
      await waitFor(
        async () => ['done', 'error'].includes((await job(server, queued)).status),
        'the queued job',
      );
      expect(await job(server, queued)).toEqual({ job_id: queued, status: 'done' });
      // Its audio was there when it ran: transcribed, not failed.
      expect((await transcript(server, queued)).length).toBeGreaterThan(20);
      expect((await job(server, finished)).status).toBe('done');
      const after = readdirSync(jobs).sort();
      expect(after).toEqual([attempt, freshOrphan, other].sort());
      expect(existsSync(join(jobs, oldOrphan))).toBe(false);
      console.info(`embedded: voice-jobs files before the restart ${before}, after ${after.length}`);
    } finally {
      await server.close();
    }
  }, 120_000);

  it.skipIf(!hasPostgres)(
    "a fleet: an attempt's audio left by a kill mid-decode goes once the job is taken over; the job finishes",
    async () => {
      const storage = {
        dataDir: mkdtempSync(join(dir, 'data-')),
        databaseUrl: await cluster().createDatabase(),
      };
      const jobs = join(storage.dataDir, 'voice-jobs');
      const id = await submitAndCrash(storage, 'afterAudio');
      expect(readdirSync(jobs)).toEqual([`${id}.attempt-1`]);
      const stray = plant(jobs, `${randomUUID()}.attempt-2`);
      const embedded = plant(jobs, randomUUID(), ORPHAN_AGE_MS + 60_000);
      const server = await start(storage);
      try {
        // The lease check (every 5 s) takes the dead attempt's job over; the new attempt finishes it.
        await waitFor(
          async () => ['done', 'error'].includes((await job(server, id)).status),
          'the job taken over',
        );
        expect(await job(server, id)).toEqual({ job_id: id, status: 'done' });
        await waitFor(() => !existsSync(join(jobs, `${id}.attempt-1`)), "the dead attempt's file", 30_000);
        expect((await transcript(server, id)).length).toBeGreaterThan(20);
        const client = new pg.Client({ connectionString: storage.databaseUrl });
        await client.connect();
        try {
          const { rows } = await client.query('SELECT attempt FROM voice_jobs WHERE id = $1', [id]);
          expect(rows[0].attempt).toBe(2);
        } finally {
          await client.end();
        }
        // The attempt whose job has no row goes too; a file of the embedded pattern is not a fleet's.
        expect(readdirSync(jobs).sort()).toEqual([embedded]);
        expect(stray).toMatch(/\.attempt-2$/);
      } finally {
        await server.close();
      }
    },
    120_000,
  );
});
