import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { fliteWav, openAndWait, recognizers, streamAudio, wordErrorRate } from './voice-helpers.js';

/** flite kal16 through pocketsphinx measured ~5% WER; 15% leaves room for a word or two per sentence. */
const MAX_WER = 0.15;
const REFERENCE = 'the weather is nice today. i would like to buy a ticket to the city.';

let t: TestServer;
let wav: Buffer;
beforeAll(async () => {
  t = await startTestServer();
  wav = fliteWav(REFERENCE);
});
afterAll(async () => {
  await t?.close();
});

const session = (json: unknown, key?: string) =>
  t.call('/v3/voice/realtime', { json, ...(key === undefined ? {} : { key }) });

describe('voice session request', () => {
  it('returns a ws streaming_url with a token and a session id', async () => {
    const reply = await session({
      source_media_content_type: 'audio/auto',
      source_language: 'en',
      target_languages: ['es'],
    });
    expect(reply.status).toBe(200);
    expect(reply.data.streaming_url).toMatch(
      /^ws:\/\/127\.0\.0\.1:\d+\/v3\/voice\/realtime\/connect\?token=/,
    );
    expect(reply.data.streaming_url).toContain(encodeURIComponent(reply.data.token));
    expect(reply.data.session_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects a missing or unsupported media type, an untranscribed source, an unknown target: 400', async () => {
    for (const body of [
      { source_language: 'en' },
      { source_media_content_type: 'video/mp4' },
      { source_media_content_type: 'audio/pcm;rate=8000' },
      { source_media_content_type: 'audio/auto', source_language: 'de' },
      { source_media_content_type: 'audio/auto', target_languages: ['xx'] },
      { source_media_content_type: 'audio/auto', extra: 1, formality: 'very' },
      { source_media_content_type: 'audio/auto', message_format: 'xml' },
      { source_media_content_type: 'audio/auto', target_languages: ['es'], target_media_languages: ['fr'] },
      { source_media_content_type: 'audio/auto', target_media_voice: 'robot' },
    ]) {
      const reply = await session(body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(typeof reply.data.message).toBe('string');
    }
  });

  it('accepts the parameters the public description declares, and ignores unknown ones', async () => {
    for (const body of [
      { source_media_content_type: 'audio/auto', extra: 1 },
      {
        source_media_content_type: 'audio/auto',
        message_format: 'json',
        source_language: 'en',
        source_language_mode: 'fixed',
        target_languages: ['es'],
        target_media_languages: ['es'],
        target_media_voice: 'female',
        formality: 'prefer_more',
      },
    ]) {
      const reply = await session(body);
      expect(reply.status, JSON.stringify(body)).toBe(200);
    }
    // Every formality value of the description is taken, also for targets without formality (Spanish here).
    for (const formality of ['formal', 'more', 'informal', 'less', 'default']) {
      const reply = await session({
        source_media_content_type: 'audio/auto',
        target_languages: ['es'],
        formality,
      });
      expect(reply.status, formality).toBe(200);
    }
  });

  it('needs a key (403) and an existing spoken-term collection of the account (404)', async () => {
    expect((await session({ source_media_content_type: 'audio/auto' }, 'nope')).status).toBe(403);
    const reply = await session({
      source_media_content_type: 'audio/auto',
      spoken_terms_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(reply.status).toBe(404);
  });
});

describe('voice stream (real pocketsphinx on flite audio, real Apertium)', () => {
  it('a streamed English WAV yields transcripts within the WER bound and their Spanish translations', async () => {
    const reply = await session({
      source_media_content_type: 'audio/auto',
      source_language: 'en',
      target_languages: ['es'],
    });
    const { messages, closeCode } = await streamAudio(reply.data.streaming_url, wav);
    expect(closeCode).toBe(1000);
    const transcripts = messages.filter((m) => m.type === 'transcript');
    const translations = messages.filter((m) => m.type === 'translation');
    const transcript = transcripts.map((m) => m.text).join(' ');
    expect(wordErrorRate(REFERENCE, transcript)).toBeLessThanOrEqual(MAX_WER);
    expect(transcripts.map((m) => m.segment_id)).toEqual(transcripts.map((_, i) => i));
    expect(translations.map((m) => m.segment_id)).toEqual(transcripts.map((m) => m.segment_id));
    expect(translations.every((m) => m.target_language === 'es')).toBe(true);
    const spanish = translations.map((m) => m.text).join(' ');
    expect(spanish).toMatch(/\b(el|la|tiempo|billete|ciudad)\b/i);
    expect(messages.at(-1)).toEqual({ type: 'end_of_stream' });
  });

  it('partial transcripts come while an utterance is open, each before the transcript of its segment', async () => {
    const reply = await session({ source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000' });
    // 100 ms of audio every 20 ms: several reads per utterance, so the hypothesis grows in steps.
    const { messages, closeCode } = await streamAudio(reply.data.streaming_url, wav.subarray(44), 3200, 20);
    expect(closeCode).toBe(1000);
    const partials = messages.filter((m) => m.type === 'partial');
    const transcripts = messages.filter((m) => m.type === 'transcript');
    expect(partials.length).toBeGreaterThanOrEqual(3);
    for (const partial of partials) {
      expect(partial).toEqual({ type: 'partial', segment_id: expect.any(Number), text: expect.any(String) });
      expect(partial.text).not.toBe('');
      const final = messages.findIndex((m) => m.type === 'transcript' && m.segment_id === partial.segment_id);
      expect(final).toBeGreaterThan(messages.indexOf(partial));
    }
    // Consecutive partials of a segment differ (sent only when the hypothesis changes).
    for (let i = 1; i < partials.length; i++)
      if (partials[i].segment_id === partials[i - 1].segment_id)
        expect(partials[i].text).not.toBe(partials[i - 1].text);
    expect(transcripts.length).toBeGreaterThan(0);
    // The last partial of the first segment already holds most of its words.
    const lastOfFirst = partials.filter((m) => m.segment_id === 0).at(-1);
    expect(wordErrorRate(transcripts[0].text, lastOfFirst.text)).toBeLessThan(0.5);
  });

  it('raw 16 kHz PCM streams straight to the recognizer', async () => {
    const reply = await session({ source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000' });
    const { messages, closeCode } = await streamAudio(reply.data.streaming_url, wav.subarray(44));
    expect(closeCode).toBe(1000);
    const transcript = messages
      .filter((m) => m.type === 'transcript')
      .map((m) => m.text)
      .join(' ');
    expect(wordErrorRate(REFERENCE, transcript)).toBeLessThanOrEqual(MAX_WER);
    expect(messages.some((m) => m.type === 'translation')).toBe(false);
  });

  it('a stream ended before any audio: end_of_stream, close 1000', async () => {
    const reply = await session({ source_media_content_type: 'audio/auto', target_languages: ['es'] });
    const { messages, closeCode } = await streamAudio(reply.data.streaming_url, Buffer.alloc(0));
    expect(closeCode).toBe(1000);
    expect(messages).toEqual([{ type: 'end_of_stream' }]);
  });

  it('audio that is not WAV: an error message, then close 1011', async () => {
    const reply = await session({ source_media_content_type: 'audio/auto' });
    const { messages, closeCode } = await streamAudio(
      reply.data.streaming_url,
      Buffer.from('not a wav file at all'),
    );
    expect(closeCode).toBe(1011);
    expect(messages.at(-1)).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/could not be decoded/),
    });
  });

  it('a text frame other than end_of_source_media: error message, close 1003', async () => {
    const reply = await session({ source_media_content_type: 'audio/auto' });
    const { WebSocket } = await import('ws');
    const socket = new WebSocket(reply.data.streaming_url);
    const messages: unknown[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send('{"type":"hello"}');
    const code = await new Promise((resolve) => socket.on('close', resolve));
    expect(code).toBe(1003);
    expect(messages).toEqual([{ type: 'error', message: expect.stringContaining('end_of_source_media') }]);
  });
});

describe('voice tokens', () => {
  it('a token works once: the second connection gets an error message and close 1008', async () => {
    const reply = await session({ source_media_content_type: 'audio/auto' });
    expect((await streamAudio(reply.data.streaming_url, wav.subarray(0, 32_044))).closeCode).toBe(1000);
    const again = await openAndWait(reply.data.streaming_url);
    expect(again.closeCode).toBe(1008);
    expect(again.messages).toEqual([{ type: 'error', message: expect.stringMatching(/already used/) }]);
    const unknown = await openAndWait(reply.data.streaming_url.replace(/token=.*/, 'token=forged'));
    expect(unknown.closeCode).toBe(1008);
  });

  it('an expired token is refused (1008); a reconnect trades it for a fresh one on the same session', async () => {
    const reply = await session({ source_media_content_type: 'audio/auto' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const expired = await openAndWait(reply.data.streaming_url);
      expect(expired.closeCode).toBe(1008);
      expect(expired.messages[0].message).toMatch(/expired/);
    } finally {
      vi.useRealTimers();
    }
    const renewed = await t.call(`/v3/voice/realtime?token=${encodeURIComponent(reply.data.token)}`);
    expect(renewed.status).toBe(200);
    expect(renewed.data.session_id).toBe(reply.data.session_id);
    expect(renewed.data.token).not.toBe(reply.data.token);
    const other = await t.server.createAccount({ plan: 'paid' });
    const stolen = await t.call(`/v3/voice/realtime?token=${encodeURIComponent(renewed.data.token)}`, {
      key: other.key,
    });
    expect(stolen.status).toBe(400);
    expect((await t.call('/v3/voice/realtime?token=unknown')).status).toBe(400);
    expect((await streamAudio(renewed.data.streaming_url, wav.subarray(0, 32_044))).closeCode).toBe(1000);
  });

  it('a connection dropped mid-stream kills the recognizer and frees the session for a reconnect', async () => {
    const reply = await session({ source_media_content_type: 'audio/auto', target_languages: ['es'] });
    const { WebSocket } = await import('ws');
    const socket = new WebSocket(reply.data.streaming_url);
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(wav.subarray(0, 64_000));
    await vi.waitFor(() => expect(recognizers().length).toBeGreaterThan(0), { timeout: 5000 });
    socket.terminate();
    await vi.waitFor(() => expect(recognizers()).toEqual([]), { timeout: 5000 });
    const renewed = await t.call(`/v3/voice/realtime?token=${encodeURIComponent(reply.data.token)}`);
    expect(renewed.status).toBe(200);
  });
});
