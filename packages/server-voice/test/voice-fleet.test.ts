/**
 * Voice session tokens on a fleet (issue 19): two instances on one real PostgreSQL. A session created on
 * one is reconnected and streamed on the other; a token is used once fleet-wide; unknown tokens and
 * another account's get the interface's 400 on every instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPostgres, sharedPostgres, stopSharedPostgres } from '../../server/test/services.js';
import { startTestServer, type TestServer } from './helpers.js';
import { fliteWav, openAndWait, streamAudio, wordErrorRate } from './voice-helpers.js';

const REFERENCE = 'i would like to buy a ticket to the city';

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
    await stopSharedPostgres();
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
});
