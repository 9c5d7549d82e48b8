/**
 * Voice credentials work only on their plan's base URL and for their purpose: a session token on the other
 * plan's WebSocket is refused (1008) without being used up; a voice translation job's upload and result
 * signatures on the other plan's base URL, or for another purpose, are 403. Real servers, flite speech.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { fliteWav, type Message, openAndWait, streamAudio } from './voice-helpers.js';

let t: TestServer;
let wav: Buffer;
let free: string;
beforeAll(async () => {
  t = await startTestServer();
  wav = fliteWav('the weather is nice today.');
  free = (await t.server.createAccount({ plan: 'free', voiceJobsAlpha: true })).key;
});
afterAll(async () => {
  await t?.close();
});

const plans = () =>
  [
    { plan: 'paid', key: t.server.devKey, base: t.server.url, other: t.server.freeUrl },
    { plan: 'free', key: free, base: t.server.freeUrl, other: t.server.url },
  ] as const;

/** The same path and query on another base URL (http or ws). */
const moved = (url: string, base: string) => {
  const parsed = new URL(url);
  const origin = parsed.protocol.startsWith('ws') ? base.replace(/^http/, 'ws') : base;
  return `${origin}${parsed.pathname}${parsed.search}`;
};

describe('voice session tokens across plans', () => {
  it("a token on the other plan's WebSocket: error and close 1008; it still works on its own", async () => {
    for (const { plan, key, base, other } of plans()) {
      const reply = await t.call('/v3/voice/realtime', {
        json: { source_media_content_type: 'audio/auto', target_languages: ['es'] },
        key,
        base,
      });
      expect(reply.status).toBe(200);
      const url: string = reply.data.streaming_url;
      expect(url.startsWith(base.replace(/^http/, 'ws'))).toBe(true);
      const refused = await openAndWait(moved(url, other));
      expect(refused.closeCode).toBe(1008);
      expect(refused.messages).toEqual([
        { type: 'error', message: `The token belongs to the ${plan} plan's base URL; connect there.` },
      ]);
      const streamed = await streamAudio(url, wav);
      expect(streamed.closeCode).toBe(1000);
      expect(streamed.messages.some((m) => m.type === 'translation')).toBe(true);
    }
  });
});

describe('voice translation job signatures across plans and purposes', () => {
  it("upload and result URLs: 403 on the other plan's base URL and for another purpose", async () => {
    for (const { key, base, other } of plans()) {
      const created = await t.call('/v1/jobs/voice/translate', {
        json: {
          source_file: { name: 's.wav', content_type: 'audio/wav', content_length: wav.length },
          parameters: { source_language: 'en' },
          targets: [{ language: 'es', type: 'text/plain' }],
        },
        key,
        base,
      });
      expect(created.status).toBe(201);
      const { job_id, upload_url, signature } = created.data;
      expect(upload_url.startsWith(base)).toBe(true);
      const put = (url: string) =>
        fetch(url, {
          method: 'PUT',
          headers: {
            'content-type': 'application/octet-stream',
            authorization: `Service-Signature ${signature}`,
          },
          body: wav,
        });
      expect((await put(moved(upload_url, other))).status).toBe(403);
      expect((await put(upload_url)).status).toBe(204);

      let job: Message;
      await vi.waitFor(
        async () => {
          job = (await t.call(`/v1/jobs/voice/translate/${job_id}`, { key, base })).data;
          expect(job.results[0].status).toBe('complete');
        },
        { timeout: 60_000, interval: 250 },
      );
      const result = job.results[0];
      const get = (url: string, with_: string) =>
        fetch(url, { headers: { authorization: `Service-Signature ${with_}` } });
      expect((await get(moved(result.download_url, other), result.signature)).status).toBe(403);
      // The upload's signature does not download.
      expect((await get(result.download_url, signature)).status).toBe(403);
      const download = await get(result.download_url, result.signature);
      expect(download.status).toBe(200);
      expect(await download.text()).toMatch(/tiempo|hoy/i);
    }
  });
});
