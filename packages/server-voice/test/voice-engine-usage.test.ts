/**
 * Voice translation reports what the engine was sent to the account's per-engine usage, as /v2/translate
 * does: a real server over HTTP, real pocketsphinx on flite audio, real Apertium (en → es), the analytics
 * response's `engine_usage` read after a streamed session and after a translation job.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { fliteWav, type Message, streamAudio } from './voice-helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
/** Today is inside the range whenever the test runs (also across midnight UTC). */
const RANGE = `start_date=${day(-1)}&end_date=${day(1)}`;
const codePoints = (text: string) => Array.from(text).length;

let t: TestServer;
let wav: Buffer;
let jobWav: Buffer;
beforeAll(async () => {
  t = await startTestServer();
  wav = fliteWav('the weather is nice today. i would like to buy a ticket to the city.');
  // Other words than the session's: none of the job's transcripts is in the output cache before it.
  jobWav = fliteWav('the train leaves at noon. please close the door.');
});
afterAll(async () => {
  await t?.close();
});

async function engines(): Promise<Record<string, number>> {
  const reply = await t.call(`/v2/admin/analytics/custom-tags?${RANGE}`);
  expect(reply.status, reply.text).toBe(200);
  const rows = reply.data.custom_tag_usage_report.engine_usage as { engine: string; characters: number }[];
  return Object.fromEntries(rows.map((row) => [row.engine, row.characters]));
}

describe('voice translation in the per-engine usage', () => {
  it('a streamed session: each final transcript, as sent to the engine, counted once', async () => {
    expect(await engines()).toEqual({});
    const reply = await t.call('/v3/voice/realtime', {
      json: { source_media_content_type: 'audio/auto', source_language: 'en', target_languages: ['es'] },
    });
    const { messages, closeCode } = await streamAudio(reply.data.streaming_url, wav);
    expect(closeCode).toBe(1000);
    const transcripts = messages.filter((m) => m.type === 'transcript').map((m) => m.text as string);
    expect(transcripts.length).toBeGreaterThan(0);
    const sent = transcripts.reduce((sum, text) => sum + codePoints(text), 0);
    expect(await engines()).toEqual({ apertium: sent });
  }, 60_000);

  /** Creates a translation job of `audio`, uploads it, waits for every result; the engine count it added. */
  async function translateJob(audio: Buffer, targets: { language: string; type: string }[]) {
    const before = (await engines()).apertium ?? 0;
    const created = await t.call('/v1/jobs/voice/translate', {
      json: {
        source_file: { name: 'speech.wav', content_type: 'audio/wav', content_length: audio.length },
        parameters: { source_language: 'en' },
        targets,
      },
    });
    expect(created.status, created.text).toBe(201);
    const { job_id, upload_url, signature } = created.data;
    const put = await fetch(upload_url, {
      method: 'PUT',
      headers: {
        'content-type': 'application/octet-stream',
        authorization: `Service-Signature ${signature}`,
      },
      body: audio,
    });
    expect(put.status).toBe(204);
    let job: Message;
    await vi.waitFor(
      async () => {
        job = (await t.call(`/v1/jobs/voice/translate/${job_id}`)).data;
        expect(job.results.every((r: Message) => r.status === 'complete')).toBe(true);
      },
      { timeout: 60_000, interval: 250 },
    );
    return ((await engines()).apertium ?? 0) - before;
  }

  it('a translation job with three es targets sends each transcript once (output cache)', async () => {
    const targets = ['text/plain', 'application/x-subrip', 'audio/flac'].map((type) => ({
      language: 'es',
      type,
    }));
    const added = await translateJob(jobWav, targets);
    // "The train leaves at noon. Please close the door." is about 48 code points: sent once, not three
    // times (each target translating on its own sent ~144).
    expect(added).toBeGreaterThan(30);
    expect(added).toBeLessThan(70);
    // The same audio again: every transcript is an output-cache hit, nothing is sent or counted.
    expect(await translateJob(jobWav, targets.slice(0, 1))).toBe(0);
  }, 150_000);
});
