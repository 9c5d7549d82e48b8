/**
 * Voice on a fleet (issue 19), on one real PostgreSQL.
 * - Two instances in this process: a session created on one is reconnected and streamed on the other; a
 *   token is used once fleet-wide; unknown tokens and another account's get the interface's 400 on every
 *   instance. A voice job of either interface (`/v3/voice/jobs`, `/v1/jobs/voice/translate`) created (and
 *   uploaded) through one is polled and downloaded through the other, billed once; another account gets
 *   404 on both.
 * - Two `glossa-server` processes (test/serve.ts) behind a real haproxy: an instance killed (SIGKILL) while
 *   it runs a voice job of either interface leaves it to the other (the job runner's takeover), which
 *   finishes it once, billed once.
 * Real pocketsphinx, ffmpeg, Apertium (en→es), flite kal16 speech.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Fleet, hasHaproxy, startFleet } from '../../server/test/fleet.js';
import { hasPostgres, sharedPostgres, stopSharedPostgres } from '../../server/test/services.js';
import { startTestServer, type TestServer } from './helpers.js';
import {
  fliteWav,
  joinWavs,
  type Message,
  openAndWait,
  streamAudio,
  uploadVoiceJob,
  wordErrorRate,
} from './voice-helpers.js';

const REFERENCE = 'i would like to buy a ticket to the city';
const JOB_REFERENCE = 'please send me the report before the meeting tomorrow morning.';
/** Seconds of 16 kHz s16le audio in a flite WAV (44-byte header). */
const secondsOf = (wav: Buffer) => (wav.length - 44) / 32_000;

afterAll(() => stopSharedPostgres());

/** The speech-to-text (or speech-to-speech) minutes of an account, as an instance reports them. */
async function minutes(server: TestServer | string, key: string, product = 'speech_to_text') {
  const url = typeof server === 'string' ? server : server.server.url;
  const reply = await fetch(`${url}/v2/usage`, { headers: { authorization: `Service-Auth-Key ${key}` } });
  const usage = (await reply.json()) as { products?: { product_type: string; account_unit_count: number }[] };
  return usage.products?.find((entry) => entry.product_type === product)?.account_unit_count ?? 0;
}

describe.skipIf(!hasPostgres)('voice session tokens on a fleet of two instances (real PostgreSQL)', () => {
  let a: TestServer;
  let b: TestServer;
  let key: string;
  beforeAll(async () => {
    const databaseUrl = await (await sharedPostgres()).createDatabase();
    a = await startTestServer({ databaseUrl });
    b = await startTestServer({ databaseUrl });
    key = (await a.server.createAccount({ plan: 'paid' })).key;
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a session created on one instance is reconnected and streamed on the other, its tokens used once fleet-wide', async () => {
    const created = await a.call('/v3/voice/realtime', {
      key,
      json: { source_media_content_type: 'audio/auto', target_languages: ['es'] },
    });
    expect(created.status).toBe(200);
    // The reconnect reaches the other instance: a fresh token for the same session.
    const renewed = await b.call(`/v3/voice/realtime?token=${encodeURIComponent(created.data.token)}`, {
      key,
    });
    expect(renewed.status).toBe(200);
    expect(renewed.data.session_id).toBe(created.data.session_id);
    expect(renewed.data.streaming_url).toContain(new URL(b.server.url).host);
    // The first token was replaced: refused on either instance.
    const stale = await openAndWait(created.data.streaming_url);
    expect(stale.closeCode).toBe(1008);
    expect(stale.messages[0].message).toMatch(/already used/);
    // The new token streams on the instance it reached; the session's settings came from the other.
    const { messages, closeCode } = await streamAudio(renewed.data.streaming_url, fliteWav(`${REFERENCE}.`));
    expect(closeCode).toBe(1000);
    const transcript = messages
      .filter((m) => m.type === 'transcript')
      .map((m) => m.text)
      .join(' ');
    expect(wordErrorRate(REFERENCE, transcript)).toBeLessThanOrEqual(0.15);
    expect(messages.some((m) => m.type === 'translation' && m.target_language === 'es')).toBe(true);
    // Used on B: refused on A too.
    const again = await openAndWait(
      renewed.data.streaming_url.replace(new URL(b.server.url).host, new URL(a.server.url).host),
    );
    expect(again.closeCode).toBe(1008);
    expect(again.messages[0].message).toMatch(/already used/);
    // After the stream, a reconnect on the first instance works too.
    const back = await a.call(`/v3/voice/realtime?token=${encodeURIComponent(renewed.data.token)}`, { key });
    expect(back.status).toBe(200);
    expect(back.data.session_id).toBe(created.data.session_id);
  }, 120_000);

  it('an unknown token, or another account’s, is a 400 on every instance, never a 404 or a crash', async () => {
    const created = await a.call('/v3/voice/realtime', {
      key,
      json: { source_media_content_type: 'audio/auto' },
    });
    const other = await a.server.createAccount({ plan: 'paid' });
    for (const server of [a, b]) {
      expect((await server.call('/v3/voice/realtime?token=unknown', { key })).status).toBe(400);
      const stolen = await server.call(`/v3/voice/realtime?token=${encodeURIComponent(created.data.token)}`, {
        key: other.key,
      });
      expect(stolen.status).toBe(400);
    }
    const forged = await openAndWait(created.data.streaming_url.replace(/token=.*/, 'token=forged'));
    expect(forged.closeCode).toBe(1008);
  });

  it('a spoken-term collection made on one instance is read, used, replaced and deleted on the other; another account gets 404', async () => {
    const owner = await a.server.createAccount({ plan: 'paid', voiceJobsAlpha: true });
    const stranger = await a.server.createAccount({ plan: 'paid', voiceJobsAlpha: true });
    const created = await a.call('/v3/voice/spoken_terms', {
      key: owner.key,
      json: { name: 'places', language: 'en', terms: ['New York', 'Google'] },
    });
    expect(created.status).toBe(201);
    const id = created.data.spoken_terms_id as string;
    expect((await b.call(`/v3/voice/spoken_terms/${id}`, { key: owner.key })).data).toEqual(created.data);
    expect((await b.call('/v3/voice/spoken_terms', { key: owner.key })).data.spoken_terms).toEqual([
      created.data,
    ]);
    // Used by a session and a job on the other instance.
    const session = await b.call('/v3/voice/realtime', {
      key: owner.key,
      json: { source_media_content_type: 'audio/auto', spoken_terms_id: id },
    });
    expect(session.status).toBe(200);
    const job = await uploadVoiceJob(
      b.server.url,
      owner.key,
      [
        ['source_language', 'en'],
        ['target_languages', 'es'],
        ['spoken_terms_id', id],
      ],
      fliteWav('I flew to New York.'),
    );
    expect(job.status).toBe(202);
    const replaced = await b.call(`/v3/voice/spoken_terms/${id}`, {
      method: 'PUT',
      key: owner.key,
      json: { name: 'cities', language: 'en', terms: ['Paris'] },
    });
    expect(replaced.status).toBe(200);
    expect((await a.call(`/v3/voice/spoken_terms/${id}`, { key: owner.key })).data.terms).toEqual(['Paris']);
    for (const t of [a, b]) {
      expect((await t.call(`/v3/voice/spoken_terms/${id}`, { key: stranger.key })).status).toBe(404);
      expect((await t.call('/v3/voice/spoken_terms', { key: stranger.key })).data.spoken_terms).toEqual([]);
      const refused = await t.call('/v3/voice/realtime', {
        key: stranger.key,
        json: { source_media_content_type: 'audio/auto', spoken_terms_id: id },
      });
      expect(refused.status).toBe(404);
    }
    expect((await b.call(`/v3/voice/spoken_terms/${id}`, { method: 'DELETE', key: owner.key })).status).toBe(
      204,
    );
    expect((await a.call(`/v3/voice/spoken_terms/${id}`, { key: owner.key })).status).toBe(404);
    // The job queued with the collection's terms runs to its end.
    await vi.waitFor(
      async () =>
        expect((await a.call(`/v3/voice/jobs/${job.data.job_id}`, { key: owner.key })).data.status).toBe(
          'done',
        ),
      { timeout: 60_000, interval: 250 },
    );
  }, 90_000);

  it('a voice job (/v3/voice/jobs) uploaded on one instance is polled and read on the other, billed once; another account gets 404', async () => {
    const owner = await a.server.createAccount({ plan: 'paid', voiceJobsAlpha: true });
    const wav = fliteWav(JOB_REFERENCE);
    const fields: [string, string][] = [
      ['source_language', 'en'],
      ['target_languages', 'es'],
    ];
    const created = await uploadVoiceJob(a.server.url, owner.key, fields, wav);
    expect(created.status).toBe(202);
    const id = created.data.job_id as string;
    await vi.waitFor(
      async () =>
        expect((await b.call(`/v3/voice/jobs/${id}`, { key: owner.key })).data).toEqual({
          job_id: id,
          status: 'done',
        }),
      { timeout: 60_000, interval: 250 },
    );
    const results = await Promise.all(
      [a, b].map((t) => t.call(`/v3/voice/jobs/${id}/result`, { key: owner.key })),
    );
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(wordErrorRate(JOB_REFERENCE, result.data.transcript)).toBeLessThanOrEqual(0.15);
      expect(result.data.translations).toEqual([
        { target_language: 'es', text: expect.stringMatching(/\b(informe|reunión|mañana)\b/i) },
      ]);
    }
    expect(results[1]!.data).toEqual(results[0]!.data);
    // The audio lived in PostgreSQL: no instance kept a file of it (ffmpeg's temporary copy is removed).
    for (const t of [a, b]) {
      const folder = join(t.dataDir, 'voice-jobs');
      expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
    }
    const stranger = await a.server.createAccount({ plan: 'paid', voiceJobsAlpha: true });
    for (const t of [a, b]) {
      expect((await t.call(`/v3/voice/jobs/${id}`, { key: stranger.key })).status).toBe(404);
      expect((await t.call(`/v3/voice/jobs/${id}/result`, { key: stranger.key })).status).toBe(404);
    }
    // Billed once, the same on every instance.
    for (const t of [a, b]) expect(await minutes(t, owner.key)).toBeCloseTo(secondsOf(wav) / 60, 4);
    expect(await minutes(a, stranger.key)).toBe(0);
  }, 90_000);

  it('a voice translation job created on one instance is uploaded, polled and downloaded on the other; signatures are fleet-wide', async () => {
    const owner = await a.server.createAccount({ plan: 'paid', voiceJobsAlpha: true });
    const wav = fliteWav(JOB_REFERENCE);
    const created = await a.call('/v1/jobs/voice/translate?include=signed_url', {
      key: owner.key,
      json: {
        source_file: { name: 'speech.wav', content_type: 'audio/wav', content_length: wav.length },
        parameters: { source_language: 'en' },
        targets: [
          { language: 'es', type: 'text/plain' },
          { language: 'es', type: 'application/x-subrip' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const { job_id: id, upload_url, signature } = created.data;
    expect(upload_url).toBe(`${a.server.url}/v1/jobs/voice/translate/${id}/source`);
    const onB = (url: string) => url.replace(a.server.url, b.server.url);
    const put = (url: string, auth?: string) =>
      fetch(url, {
        method: 'PUT',
        headers: {
          'content-type': 'application/octet-stream',
          ...(auth === undefined ? {} : { authorization: `Service-Signature ${auth}` }),
        },
        body: wav,
      });
    // Pending, seen from the other instance; a forged signature is refused there too.
    expect((await b.call(`/v1/jobs/voice/translate/${id}`, { key: owner.key })).data.results).toEqual([
      { status: 'pending' },
      { status: 'pending' },
    ]);
    expect((await put(onB(upload_url), `${signature.split('.')[0]}.forged`)).status).toBe(403);
    // Signed by A, uploaded to B (the signed URL, no header); a second upload, on either, is a 409.
    expect((await put(onB(created.data.signed_upload_url))).status).toBe(204);
    expect((await put(upload_url, signature)).status).toBe(409);
    expect((await put(onB(upload_url), signature)).status).toBe(409);
    let job: Message;
    await vi.waitFor(
      async () => {
        job = (await a.call(`/v1/jobs/voice/translate/${id}`, { key: owner.key })).data;
        expect(job.results.map((result: Message) => result.status)).toEqual(['complete', 'complete']);
      },
      { timeout: 60_000, interval: 250 },
    );
    // Download URLs and signatures A gave, used on B.
    const text = await fetch(onB(job.results[0].download_url), {
      headers: { authorization: `Service-Signature ${job.results[0].signature}` },
    });
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toMatch(/\b(informe|reunión|mañana)\b/i);
    const subtitles = await fetch(
      onB(`${job.results[1].download_url}?signature=${encodeURIComponent(job.results[1].signature)}`),
    );
    expect(subtitles.status).toBe(200);
    expect(await subtitles.text()).toMatch(/^1\n00:00:00,\d{3} --> 00:00:0\d,\d{3}\n\S/);
    // The download is seen by A; a signature of one result does not open the other.
    const after = (await a.call(`/v1/jobs/voice/translate/${id}`, { key: owner.key })).data;
    expect(after.results.map((result: Message) => result.status)).toEqual(['downloaded', 'downloaded']);
    const crossed = await fetch(onB(job.results[1].download_url), {
      headers: { authorization: `Service-Signature ${job.results[0].signature}` },
    });
    expect(crossed.status).toBe(403);
    const stranger = await a.server.createAccount({ plan: 'paid', voiceJobsAlpha: true });
    for (const t of [a, b])
      expect((await t.call(`/v1/jobs/voice/translate/${id}`, { key: stranger.key })).status).toBe(404);
    for (const t of [a, b]) expect(await minutes(t, owner.key)).toBeCloseTo(secondsOf(wav) / 60, 4);
  }, 90_000);
});

const fleetReady = hasPostgres && hasHaproxy;

describe.skipIf(!fleetReady)('voice jobs on two glossa-server processes: an instance killed mid-job', () => {
  let fleet: Fleet;
  let database: pg.Pool;
  // About 25 s of speech: a job of several seconds on either instance.
  const SENTENCES = [
    'please send me the report before the meeting tomorrow morning.',
    'i would like to buy a ticket to the city.',
    'the weather is nice today and the garden is green.',
    'we will meet at the station at nine in the morning.',
  ];
  let long: Buffer;
  const DEV_KEY = 'fleet-voice-dev-key-0123456789';
  beforeAll(async () => {
    const databaseUrl = await (await sharedPostgres()).createDatabase();
    database = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    long = joinWavs(
      ...Array.from({ length: 2 }, () => SENTENCES.map((sentence) => fliteWav(sentence))).flat(),
    );
    fleet = await startFleet({
      size: 2,
      databaseUrl,
      devKey: DEV_KEY,
      script: new URL('./serve.ts', import.meta.url).pathname,
      flags: ['--engines', 'apertium,pseudo', '--rate-limit', 'off'],
    });
  }, 180_000);
  afterAll(async () => {
    await database?.end();
    await fleet?.stop();
  });

  const base = (index: number) => `http://127.0.0.1:${fleet.instances[index]!.port}`;

  async function newKey(): Promise<string> {
    const created = await fleet.run(['keys', 'create', '--plan', 'paid', '--voice-jobs-alpha']);
    const key = /^key: (\S+)$/m.exec(created.stdout)?.[1];
    if (!key) throw new Error(`keys create failed: ${created.stderr}`);
    return key;
  }

  /** Kills (SIGKILL) the instance that runs job `id` (the job runner's row); the index of the other. */
  async function killRunner(id: string): Promise<number> {
    let row: { owner: string; attempt: number } | undefined;
    const deadline = Date.now() + 60_000;
    while (!row && Date.now() < deadline) {
      const { rows } = await database.query('SELECT owner, attempt, status FROM jobs WHERE id = $1', [id]);
      if (rows[0]?.status === 'running') row = rows[0];
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(row, 'the job did not start within 60 s').toBeDefined();
    expect(row!.attempt).toBe(1);
    const victim = fleet.indexOfOwner(row!.owner);
    fleet.instances[victim]!.child.kill('SIGKILL');
    expect(await fleet.instances[victim]!.exited).toBe('SIGKILL');
    // Still running the job when it died.
    const { rows } = await database.query('SELECT status FROM jobs WHERE id = $1', [id]);
    expect(rows[0].status).toBe('running');
    return victim;
  }

  const acceptance = '/work/shared/acceptance/voice.mjs';
  it.skipIf(!existsSync(acceptance))(
    'passes the shared voice acceptance checks through the balancer (session on one instance, stream on either)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'glossa-voice-acceptance-'));
      const wav = join(dir, 'speech.wav');
      writeFileSync(wav, fliteWav(`${REFERENCE}.`));
      // The script loads `ws` from this package's node_modules.
      const tools = new URL('..', import.meta.url).pathname;
      const child = spawn(process.execPath, [acceptance, fleet.url, DEV_KEY, tools, wav, REFERENCE], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const code = await new Promise((resolve) => child.on('close', resolve));
      rmSync(dir, { recursive: true, force: true });
      expect(output).toMatch(/voice contract: (\d+)\/\1 checks pass/);
      expect(code, output).toBe(0);
    },
    120_000,
  );

  it('/v3/voice/jobs: the job of a killed instance finishes on the other, once, billed once', async () => {
    const key = await newKey();
    const created = await uploadVoiceJob(
      base(0),
      key,
      [
        ['source_language', 'en'],
        ['target_languages', 'es'],
      ],
      long,
    );
    expect(created.status).toBe(202);
    const id = created.data.job_id as string;
    const started = Date.now();
    const victim = await killRunner(id);
    const survivor = base(1 - victim);
    const headers = { authorization: `Service-Auth-Key ${key}` };
    await vi.waitFor(
      async () => {
        const status = await (await fetch(`${survivor}/v3/voice/jobs/${id}`, { headers })).json();
        expect(status).toEqual({ job_id: id, status: 'done' });
      },
      { timeout: 180_000, interval: 500 },
    );
    console.log(`v3 job taken over and done ${Date.now() - started} ms after it started`);
    // Taken over once: the second attempt completed it.
    const { rows } = await database.query('SELECT attempt, status FROM jobs WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ attempt: 2, status: 'completed' });
    const result = (await (
      await fetch(`${survivor}/v3/voice/jobs/${id}/result`, { headers })
    ).json()) as Message;
    expect(wordErrorRate(SENTENCES.join(' ').repeat(2), result.transcript)).toBeLessThanOrEqual(0.2);
    expect(result.translations[0].text).toMatch(/\b(informe|reunión|mañana)\b/i);
    // Billed once: the minutes of the audio, not twice, not none.
    expect(await minutes(survivor, key)).toBeCloseTo(secondsOf(long) / 60, 4);
    await fleet.start(victim);
  }, 300_000);

  it('/v1/jobs/voice/translate: the job of a killed instance finishes on the other, once, billed once', async () => {
    const key = await newKey();
    const headers = { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' };
    const created = (await (
      await fetch(`${base(0)}/v1/jobs/voice/translate`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          source_file: { name: 'long.wav', content_type: 'audio/wav', content_length: long.length },
          parameters: { source_language: 'en' },
          targets: [{ language: 'es', type: 'text/plain' }],
        }),
      })
    ).json()) as Message;
    const uploaded = await fetch(created.upload_url.replace(base(0), base(1)), {
      method: 'PUT',
      headers: { authorization: `Service-Signature ${created.signature}` },
      body: long,
    });
    expect(uploaded.status).toBe(204);
    const victim = await killRunner(created.job_id);
    const survivor = base(1 - victim);
    let job: Message;
    await vi.waitFor(
      async () => {
        job = await (
          await fetch(`${survivor}/v1/jobs/voice/translate/${created.job_id}`, { headers })
        ).json();
        expect(job.results[0].status).toBe('complete');
      },
      { timeout: 180_000, interval: 500 },
    );
    const { rows } = await database.query('SELECT attempt, status FROM jobs WHERE id = $1', [created.job_id]);
    expect(rows[0]).toEqual({ attempt: 2, status: 'completed' });
    const text = await fetch(job.results[0].download_url.replace(/^http:\/\/[^/]+/, survivor), {
      headers: { authorization: `Service-Signature ${job.results[0].signature}` },
    });
    expect(text.status).toBe(200);
    expect(await text.text()).toMatch(/\b(informe|reunión|mañana)\b/i);
    expect(await minutes(survivor, key)).toBeCloseTo(secondsOf(long) / 60, 4);
    await fleet.start(victim);
  }, 300_000);
});
