/**
 * A server that closes ends each open stream cleanly: the audio already received is transcribed,
 * `end_of_stream` follows, and the socket closes with 1001 (going away); no recognizer process is left.
 * What a restart on the same data finds depends on the backend: embedded (SQLite), sessions lived in that
 * process's memory and their tokens are unknown; on PostgreSQL (`GLOSSA_TEST_POSTGRES`), sessions are kept
 * in the database for the whole fleet (sessions.ts), so they outlive the instance: the tokens the streams
 * used stay used, and a reconnect trades one for a fresh token of the same session. Real server, real
 * pocketsphinx on flite kal16 audio.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { onPostgres } from '../../server/test/services.js';
import { startTestServer } from './helpers.js';
import { fliteWav, type Message, recognizers } from './voice-helpers.js';

async function openStream(url: string) {
  const socket = new WebSocket(url);
  const messages: Message[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise((resolve) => socket.once('open', resolve));
  return { socket, messages, closed };
}

describe('a closing server ends every voice session cleanly', () => {
  it(`transcribes the audio received, sends end_of_stream, closes 1001; an idle stream too; ${onPostgres ? 'sessions outlive it in the database (PostgreSQL)' : 'tokens die with it (SQLite)'}`, async () => {
    const t = await startTestServer();
    const session = async () =>
      (
        await t.call('/v3/voice/realtime', {
          json: { source_media_content_type: 'audio/auto', target_languages: ['es'] },
        })
      ).data as { streaming_url: string; session_id: string };
    const talkingSession = await session();
    const talkingUrl = talkingSession.streaming_url;
    const talking = await openStream(talkingUrl);
    const silent = await openStream((await session()).streaming_url);
    // One whole sentence and the start of the next, then no end_of_source_media: the server closes first.
    const wav = fliteWav('The weather is nice today. I would like to buy a ticket to the city.');
    talking.socket.send(wav.subarray(0, 44 + 32_000 * 2.5));
    await vi.waitFor(() => expect(talking.messages.some((m) => m.type === 'partial')).toBe(true), {
      timeout: 10_000,
    });
    expect(recognizers()).toHaveLength(2);

    // The server alone (the data directory stays, for the restart below).
    await t.server.close();
    const talked = await talking.closed;
    expect(talked).toEqual({ code: 1001, reason: 'The server is shutting down.' });
    const finals = talking.messages.filter((m) => m.type !== 'partial');
    const transcripts = finals.filter((m) => m.type === 'transcript');
    expect(transcripts.length).toBeGreaterThan(0);
    // Transcripts go out as soon as they are final, each translation after its transcript; end_of_stream last.
    const translations = finals.filter((m) => m.type === 'translation');
    expect(transcripts.map((m) => m.segment_id)).toEqual(transcripts.map((_, index) => index));
    expect(translations.map((m) => [m.segment_id, m.target_language])).toEqual(
      transcripts.map((m) => [m.segment_id, 'es']),
    );
    for (const translation of translations)
      expect(finals.indexOf(translation)).toBeGreaterThan(
        finals.findIndex((m) => m.type === 'transcript' && m.segment_id === translation.segment_id),
      );
    expect(finals).toHaveLength(2 * transcripts.length + 1);
    expect(finals.at(-1)).toEqual({ type: 'end_of_stream' });
    expect(transcripts.map((m) => m.text).join(' ')).toMatch(/^The weather is nice today\b/);

    expect(await silent.closed).toEqual({ code: 1001, reason: 'The server is shutting down.' });
    expect(silent.messages).toEqual([{ type: 'end_of_stream' }]);
    await vi.waitFor(() => expect(recognizers()).toEqual([]), { timeout: 5000 });

    // A restart on the same data (the same database, on PostgreSQL).
    const restarted = await startTestServer({ dataDir: t.dataDir });
    try {
      const token = new URL(talkingUrl).searchParams.get('token') ?? '';
      const reconnect = await restarted.call(`/v3/voice/realtime?token=${encodeURIComponent(token)}`);
      const port = new URL(restarted.server.url).port;
      const stale = await openStream(talkingUrl.replace(/:\d+\//, `:${port}/`));
      expect((await stale.closed).code).toBe(1008);
      if (onPostgres) {
        // Kept for the fleet: the token was used by the stream, and it trades for a fresh one of the session.
        expect(stale.messages).toEqual([
          { type: 'error', message: 'The token was already used; request a new session or reconnect.' },
        ]);
        expect(reconnect.status).toBe(200);
        expect(reconnect.data.session_id).toBe(talkingSession.session_id);
        expect(reconnect.data.streaming_url).toContain(`:${port}/`);
      } else {
        // Lived in the closed process's memory: unknown.
        expect(reconnect.status).toBe(400);
        expect(stale.messages).toEqual([{ type: 'error', message: 'The token is not valid.' }]);
      }
    } finally {
      await restarted.close();
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
