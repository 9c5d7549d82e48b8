/**
 * Voice jobs on the job runner across SIGKILL (issue 32). A server is killed while it runs a voice job:
 * - at the crash point right before the runner completes the job (its work done, its results written, its
 *   minutes charged but not committed: the moment the old queues lost the minutes), for both interfaces
 *   (`/v3/voice/jobs`, `/v1/jobs/voice/translate`) on SQLite and on PostgreSQL;
 * - after 2 of the 4 chunks of a longer audio are checkpointed: the server started again recognizes only
 *   the other 2 (counted through the chunk hook), for both interfaces, on SQLite (the chunks are the
 *   feature's, the same on both backends; the runner's checkpoints on PostgreSQL: the server's jobs.test.ts);
 * - at random moments, several times in a row (SQLite: the next server is killed too); the last server
 *   recognizes only the chunks not checkpointed before the last kill.
 * A server started again on the same storage finishes the job once: its result is the same as that of the
 * same audio run without interruption on that server, and `/v2/usage` counts the minutes of both jobs
 * exactly once each. The two-instance fleet (a PostgreSQL instance killed mid-job, the other takes it
 * over) is in voice-fleet.test.ts. Real pocketsphinx, ffmpeg, Apertium.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { killHard, startCrashServer } from '../../server/test/crash-harness.js';
import { postgresForFile } from '../../server/test/postgres-for-file.js';
import { hasPostgres } from '../../server/test/services.js';
import { voiceFeature } from '../src/index.js';
import { crashPoints } from '../src/job-support.js';
import { fliteWav, joinWavs, type Message, uploadVoiceJob } from './voice-helpers.js';

/**
 * The crash server (the harness's one script) with voice, armed at a crash point of job-support.ts:
 * `afterChunk` kills it once `afterChunks` chunks of a job are checkpointed.
 */
const voiceServer = (
  storage: { readonly dataDir: string; readonly databaseUrl?: string | undefined },
  crash?: { point: 'beforeFinish' } | { point: 'afterChunk'; afterChunks: number },
  jobChunkSeconds?: number,
) =>
  startCrashServer({
    ...storage,
    devKey: DEV_KEY,
    feature: {
      module: join(import.meta.dirname, '../src/index.ts'),
      factory: 'voiceFeature',
      options: jobChunkSeconds !== undefined ? { jobChunkSeconds } : {},
    },
    ...(crash
      ? {
          crash: {
            module: join(import.meta.dirname, '../src/job-support.ts'),
            hooks: 'crashPoints',
            point: crash.point,
            // afterChunk(job, chunks): its second argument.
            ...(crash.point === 'afterChunk' ? { atLeast: [1, crash.afterChunks] as const } : {}),
          },
        }
      : {}),
  });
const DEV_KEY = 'voice-jobs-crash-dev-key-0123456';
const REFERENCE = 'please send me the report before the meeting tomorrow morning.';
/** Seconds of 16 kHz s16le audio in a flite WAV (44-byte header). */
const secondsOf = (wav: Buffer) => (wav.length - 44) / 32_000;

/** Four sentences, a second of silence between them: with `CHUNK_SECONDS`, four chunks (cut in the silences). */
const LONG = [
  REFERENCE,
  'the weather was cold and windy all day.',
  'open the settings menu and choose a language.',
  'we will meet again next week at noon.',
];
const CHUNK_SECONDS = 4.8;
const LONG_CHUNKS = 4;
/** A WAV of one second of silence (its header is dropped by `joinWavs`). */
const silence = Buffer.alloc(44 + 32_000);

const dir = mkdtempSync(join(tmpdir(), 'glossa-voice-crash-'));
let wav: Buffer;
let long: Buffer;
const cluster = postgresForFile('the PostgreSQL voice crash tests');
beforeAll(() => {
  wav = fliteWav(REFERENCE);
  long = joinWavs(
    ...LONG.flatMap((sentence, index) => (index ? [silence, fliteWav(sentence)] : [fliteWav(sentence)])),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Storage {
  readonly dataDir: string;
  readonly databaseUrl?: string;
}
type Kind = 'v3' | 'v1';

const authorization = { authorization: `Service-Auth-Key ${DEV_KEY}` };

/** Submits a job of `kind` with the test's audio; its id. */
async function submit(url: string, kind: Kind, audio = wav): Promise<string> {
  if (kind === 'v3') {
    const fields: [string, string][] = [
      ['source_language', 'en'],
      ['target_languages', 'es'],
    ];
    const created = await uploadVoiceJob(url, DEV_KEY, fields, audio);
    expect(created.status).toBe(202);
    return created.data.job_id as string;
  }
  const created = (await (
    await fetch(`${url}/v1/jobs/voice/translate`, {
      method: 'POST',
      headers: { ...authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        source_file: { name: 'speech.wav', content_type: 'audio/wav', content_length: audio.length },
        parameters: { source_language: 'en' },
        targets: [
          { language: 'es', type: 'text/plain' },
          { language: 'es', type: 'application/x-subrip' },
        ],
      }),
    })
  ).json()) as Message;
  const uploaded = await fetch(created.upload_url, {
    method: 'PUT',
    headers: { authorization: `Service-Signature ${created.signature}` },
    body: audio,
  });
  expect(uploaded.status).toBe(204);
  return created.job_id as string;
}

/** Waits until the job is finished on `url`; what it produced (the v3 result, or the v1 results' bytes). */
async function outcome(url: string, kind: Kind, id: string): Promise<unknown> {
  if (kind === 'v3') {
    await vi.waitFor(
      async () => {
        const status = await (await fetch(`${url}/v3/voice/jobs/${id}`, { headers: authorization })).json();
        expect(status).toEqual({ job_id: id, status: 'done' });
      },
      { timeout: 120_000, interval: 250 },
    );
    return (await fetch(`${url}/v3/voice/jobs/${id}/result`, { headers: authorization })).json();
  }
  let job: Message = {};
  await vi.waitFor(
    async () => {
      job = await (await fetch(`${url}/v1/jobs/voice/translate/${id}`, { headers: authorization })).json();
      expect(job.results.map((result: Message) => result.status)).toEqual(['complete', 'complete']);
    },
    { timeout: 120_000, interval: 250 },
  );
  const outputs: string[] = [];
  for (const result of job.results as Message[]) {
    const reply = await fetch(result.download_url, {
      headers: { authorization: `Service-Signature ${result.signature}` },
    });
    expect(reply.status).toBe(200);
    outputs.push(await reply.text());
  }
  return outputs;
}

/** The runner's row of job `id`: its status and attempts (and its checkpoint's chunks, with `chunks`). */
async function runnerRow(
  storage: Storage,
  id: string,
  chunks = false,
): Promise<{ status: string; attempt: number; chunks?: number }> {
  let row: { status: string; attempt: number; checkpoint: string | null };
  if (storage.databaseUrl) {
    const client = new pg.Client({ connectionString: storage.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT status, attempt, checkpoint FROM jobs WHERE id = $1', [id]);
      row = rows[0];
    } finally {
      await client.end();
    }
  } else {
    const db = new Database(join(storage.dataDir, 'glossa.sqlite'), { readonly: true });
    try {
      row = db.prepare('SELECT status, attempt, checkpoint FROM jobs WHERE id = ?').get(id) as typeof row;
    } finally {
      db.close();
    }
  }
  const { status, attempt } = row;
  if (!chunks) return { status, attempt };
  return { status, attempt, chunks: row.checkpoint ? JSON.parse(row.checkpoint).chunks : 0 };
}

async function minutes(server: GlossaServer): Promise<number> {
  const reply = await fetch(`${server.url}/v2/usage`, { headers: authorization });
  const usage = (await reply.json()) as { products?: { product_type: string; account_unit_count: number }[] };
  return usage.products?.find((entry) => entry.product_type === 'speech_to_text')?.account_unit_count ?? 0;
}

const restart = (storage: Storage, chunkSeconds?: number) =>
  startServer({
    ...storage,
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
    devKey: DEV_KEY,
    features: [voiceFeature(chunkSeconds === undefined ? {} : { jobChunkSeconds: chunkSeconds })],
  });

/**
 * On a server started again on `storage`: job `id` finishes, like a job of the same audio run there
 * without interruption, and the minutes of both are counted once each. How many chunks the server
 * recognized for each: `{ resumed, reference }`.
 */
async function expectFinishedOnce(
  storage: Storage,
  kind: Kind,
  id: string,
  audio = wav,
  chunkSeconds?: number,
): Promise<{ resumed: number; reference: number }> {
  const recognized = new Map<string, number>();
  crashPoints.afterChunk = (job) => recognized.set(job, (recognized.get(job) ?? 0) + 1);
  const server = await restart(storage, chunkSeconds);
  try {
    const interrupted = await outcome(server.url, kind, id);
    const referenceId = await submit(server.url, kind, audio);
    const reference = await outcome(server.url, kind, referenceId);
    expect(interrupted).toEqual(reference);
    expect(await minutes(server)).toBeCloseTo((2 * secondsOf(audio)) / 60, 4);
    return { resumed: recognized.get(id) ?? 0, reference: recognized.get(referenceId) ?? 0 };
  } finally {
    delete crashPoints.afterChunk;
    await server.close();
  }
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
  describe.skipIf(skip)(`voice jobs killed (SIGKILL) on the job runner (${name})`, () => {
    for (const kind of ['v3', 'v1'] as const) {
      it(`${kind === 'v3' ? '/v3/voice/jobs' : '/v1/jobs/voice/translate'}, killed after its work, before its completion: finished once, as without the kill, minutes once`, async () => {
        const storage = await open();
        const crashing = await voiceServer(storage, { point: 'beforeFinish' });
        const id = await submit(crashing.url, kind);
        expect(await crashing.exited, crashing.output()).toBe('SIGKILL');
        // Killed while running it: neither completed nor billed.
        expect(await runnerRow(storage, id)).toEqual({ status: 'running', attempt: 1 });
        await expectFinishedOnce(storage, kind, id);
        expect(await runnerRow(storage, id)).toEqual({ status: 'completed', attempt: 2 });
      }, 240_000);

      // The chunks' checkpoints on SQLite only: which chunks a resumed job recognizes is the feature's code
      // (chunks.ts), the same on both backends; the runner's checkpoints on PostgreSQL are tested by the
      // server's jobs.test.ts, and a job taken over by another PostgreSQL instance by voice-fleet.test.ts.
      it.skipIf(name !== 'SQLite')(
        `${kind === 'v3' ? '/v3/voice/jobs' : '/v1/jobs/voice/translate'}, killed after 2 of its ${LONG_CHUNKS} chunks: taken over, it recognizes only the other ${LONG_CHUNKS - 2}; finished once, as without the kill, minutes once`,
        async () => {
          const storage = await open();
          const crashing = await voiceServer(storage, { point: 'afterChunk', afterChunks: 2 }, CHUNK_SECONDS);
          const id = await submit(crashing.url, kind, long);
          expect(await crashing.exited, crashing.output()).toBe('SIGKILL');
          expect(await runnerRow(storage, id, true)).toEqual({ status: 'running', attempt: 1, chunks: 2 });
          const counts = await expectFinishedOnce(storage, kind, id, long, CHUNK_SECONDS);
          expect(counts).toEqual({ resumed: LONG_CHUNKS - 2, reference: LONG_CHUNKS });
          expect(await runnerRow(storage, id, true)).toEqual({
            status: 'completed',
            attempt: 2,
            chunks: LONG_CHUNKS,
          });
        },
        240_000,
      );
    }
  });
}

describe('voice jobs killed (SIGKILL) at random moments (SQLite)', () => {
  it('/v3/voice/jobs, three kills at random moments of its servers: finished once, as without the kills, minutes once, resumed at its last chunk', async () => {
    const storage = { dataDir: mkdtempSync(join(dir, 'data-')) };
    let id: string | undefined;
    const delays: number[] = [];
    for (let kill = 0; kill < 3; kill++) {
      const server = await voiceServer(storage, undefined, CHUNK_SECONDS);
      id ??= await submit(server.url, 'v3', long);
      const delay = Math.floor(Math.random() * 3000);
      delays.push(delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await killHard(server);
    }
    const killed = await runnerRow(storage, id!, true);
    console.log(`killed after ${delays.join(', ')} ms; runner row`, killed);
    const counts = await expectFinishedOnce(storage, 'v3', id!, long, CHUNK_SECONDS);
    // The chunks checkpointed before the last kill are not recognized again.
    expect(counts).toEqual({ resumed: LONG_CHUNKS - killed.chunks!, reference: LONG_CHUNKS });
    expect((await runnerRow(storage, id!)).status).toBe('completed');
  }, 300_000);
});
