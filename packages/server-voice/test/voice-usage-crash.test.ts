/**
 * A voice job's minutes are recorded exactly once whatever the crash point (usage.ts): a server is killed
 * (SIGKILL) right after a job's finish was written with its minutes owed (not applied yet), or right after
 * they were applied (the row still saying they are owed); a server started again on its storage ends with
 * the job done and its minutes counted once by `/v2/usage`: neither none (lost) nor twice. Both job
 * interfaces (`/v3/voice/jobs`, `/v1/jobs/voice/translate`), on SQLite (the data directory) and on
 * PostgreSQL (a real cluster). Real pocketsphinx, ffmpeg, Apertium and flite speech.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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
import { fliteWav, type Message, uploadVoiceJob } from './voice-helpers.js';

const SCRIPT = join(import.meta.dirname, 'crash-serve.ts');
const DEV_KEY = 'voice-usage-crash-dev-key-012345';
const REFERENCE = 'please send me the report before the meeting tomorrow morning.';
/** Seconds of 16 kHz s16le audio in a flite WAV (44-byte header). */
const secondsOf = (wav: Buffer) => (wav.length - 44) / 32_000;

const dir = mkdtempSync(join(tmpdir(), 'glossa-voice-crash-'));
let wav: Buffer;
const cluster = postgresForFile('the PostgreSQL voice crash tests');
beforeAll(() => {
  wav = fliteWav(REFERENCE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Storage {
  readonly dataDir: string;
  readonly databaseUrl?: string;
}
type Kind = 'voice_jobs' | 'voice_translate_jobs';

const authorization = { authorization: `Service-Auth-Key ${DEV_KEY}` };

/** Submits a job of `kind` with the test's audio; its id. */
async function submit(url: string, kind: Kind): Promise<string> {
  if (kind === 'voice_jobs') {
    const fields: [string, string][] = [
      ['source_language', 'en'],
      ['target_languages', 'es'],
    ];
    const created = await uploadVoiceJob(url, DEV_KEY, fields, wav);
    expect(created.status).toBe(202);
    return created.data.job_id as string;
  }
  const created = (await (
    await fetch(`${url}/v1/jobs/voice/translate`, {
      method: 'POST',
      headers: { ...authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        source_file: { name: 'speech.wav', content_type: 'audio/wav', content_length: wav.length },
        parameters: { source_language: 'en' },
        targets: [{ language: 'es', type: 'text/plain' }],
      }),
    })
  ).json()) as Message;
  const uploaded = await fetch(created.upload_url, {
    method: 'PUT',
    headers: { authorization: `Service-Signature ${created.signature}` },
    body: wav,
  });
  expect(uploaded.status).toBe(204);
  return created.job_id as string;
}

/** Starts crash-serve.ts, submits a job, and waits for the process to kill itself at `crashPoint`. */
async function submitAndCrash(storage: Storage, kind: Kind, crashPoint: 'afterFinish' | 'afterUsage') {
  const { url, exited, output } = await startCrashServer(SCRIPT, { ...storage, devKey: DEV_KEY, crashPoint });
  const id = await submit(url, kind);
  expect(await exited, output()).toBe('SIGKILL');
  return id;
}

/** The job's status and whether its row still says its usage is owed. */
async function row(storage: Storage, kind: Kind, id: string): Promise<{ status: string; owed: boolean }> {
  const query = `SELECT status, usage_pending IS NOT NULL AS owed FROM ${kind} WHERE id = `;
  if (storage.databaseUrl) {
    const client = new pg.Client({ connectionString: storage.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(`${query}$1`, [id]);
      return rows[0];
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(storage.dataDir, 'voice.sqlite'), { readonly: true });
  try {
    const found = db.prepare(`${query}?`).get(id) as { status: string; owed: number };
    return { status: found.status, owed: found.owed === 1 };
  } finally {
    db.close();
  }
}

async function minutes(server: GlossaServer): Promise<number> {
  const reply = await fetch(`${server.url}/v2/usage`, { headers: authorization });
  const usage = (await reply.json()) as { products?: { product_type: string; account_unit_count: number }[] };
  return usage.products?.find((entry) => entry.product_type === 'speech_to_text')?.account_unit_count ?? 0;
}

const BACKENDS: [string, () => Promise<Storage>, boolean][] = [
  ['SQLite', async () => ({ dataDir: mkdtempSync(join(dir, 'data-')) }), false],
  [
    'PostgreSQL',
    async () => ({ dataDir: mkdtempSync(join(dir, 'data-')), databaseUrl: await cluster().createDatabase() }),
    !hasPostgres,
  ],
];

for (const [name, open, skip] of BACKENDS) {
  describe.skipIf(skip)(`a voice job's minutes across a crash (${name})`, () => {
    for (const kind of ['voice_jobs', 'voice_translate_jobs'] as const) {
      for (const crashPoint of ['afterFinish', 'afterUsage'] as const) {
        it(`${kind === 'voice_jobs' ? '/v3/voice/jobs' : '/v1/jobs/voice/translate'}, killed ${crashPoint === 'afterFinish' ? 'after the finish, before the minutes' : 'after the minutes, before their mark is cleared'}: counted once after a restart`, async () => {
          const storage = await open();
          const id = await submitAndCrash(storage, kind, crashPoint);
          // The crash came after the finish: the row is done and says its minutes are owed.
          expect(await row(storage, kind, id)).toEqual({ status: 'done', owed: true });
          const server = await startServer({
            ...storage,
            port: 0,
            freePort: 0,
            host: '127.0.0.1',
            logger: false,
            devKey: DEV_KEY,
            features: [voiceFeature()],
          });
          try {
            // The restarted server applies what is owed, then clears the mark (given 30 s: it
            // starts with the server, and a loaded machine may be slow).
            const deadline = Date.now() + 30_000;
            while ((await row(storage, kind, id)).owed && Date.now() < deadline)
              await new Promise((resolve) => setTimeout(resolve, 50));
            expect(await minutes(server)).toBeCloseTo(secondsOf(wav) / 60, 4);
            expect(await row(storage, kind, id)).toEqual({ status: 'done', owed: false });
          } finally {
            await server.close();
          }
        }, 90_000);
      }
    }
  });
}
