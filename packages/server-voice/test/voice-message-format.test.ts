/**
 * `message_format: msgpack` on a real server: MessagePack maps in binary frames both ways (decoded and
 * encoded here with @msgpack/msgpack), on flite speech through pocketsphinx and Apertium; the public
 * description's JSON messages (`source_media_chunk` with base64 data) in the default format; and a voice
 * session with a formality value of the description.
 */
import { decode, encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from './helpers.js';
import { fliteWav, type Message, streamAudio, wordErrorRate } from './voice-helpers.js';

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

const session = async (json: Record<string, unknown>) => {
  const reply = await t.call('/v3/voice/realtime', {
    json: {
      source_media_content_type: 'audio/auto',
      source_language: 'en',
      target_languages: ['es'],
      ...json,
    },
  });
  expect(reply.status, JSON.stringify(reply.data)).toBe(200);
  return reply.data.streaming_url as string;
};

interface Frames {
  messages: Message[];
  textFrames: number;
  closeCode: number;
}

/** Sends `frames` (each one WebSocket frame) 2 ms apart; collects every message, decoding binary frames as MessagePack. */
async function exchange(url: string, frames: (Uint8Array | string)[]): Promise<Frames> {
  const socket = new WebSocket(url);
  const result: Frames = { messages: [], textFrames: 0, closeCode: 0 };
  socket.on('message', (data, isBinary) => {
    if (isBinary) result.messages.push(decode(data as Buffer));
    else {
      result.textFrames++;
      result.messages.push(JSON.parse(data.toString()));
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  for (const frame of frames) {
    if (socket.readyState !== socket.OPEN) break;
    socket.send(frame);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  result.closeCode = await closed;
  return result;
}

const chunks = (audio: Buffer, size = 8192) =>
  Array.from({ length: Math.ceil(audio.length / size) }, (_, i) => audio.subarray(i * size, (i + 1) * size));

describe('message_format msgpack', () => {
  it('audio in source_media_chunk maps, every answer a MessagePack map in a binary frame', async () => {
    const url = await session({ message_format: 'msgpack', target_media_content_type: 'audio/flac' });
    const frames = [
      ...chunks(wav).map((data) => encode({ source_media_chunk: { data } })),
      encode({ end_of_source_media: {} }),
    ];
    const { messages, textFrames, closeCode } = await exchange(url, frames);
    expect(closeCode).toBe(1000);
    expect(textFrames).toBe(0);
    const transcript = messages
      .filter((m) => m.type === 'transcript')
      .map((m) => m.text)
      .join(' ');
    expect(wordErrorRate(REFERENCE, transcript), transcript).toBeLessThanOrEqual(0.15);
    const translations = messages.filter((m) => m.type === 'translation');
    expect(translations.length).toBeGreaterThan(0);
    expect(translations.map((m) => m.text).join(' ')).toMatch(/\b(tiempo|billete|ciudad)\b/i);
    // Speech as raw bytes (a FLAC file), not base64.
    const speech = messages.find((m) => m.type === 'speech');
    expect(speech.audio).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(speech.audio).subarray(0, 4).toString('latin1')).toBe('fLaC');
    expect(messages.at(-1)).toEqual({ type: 'end_of_stream' });
  });

  it('a text frame, or bytes that are not MessagePack, is refused: a MessagePack error, then close 1003', async () => {
    for (const frame of ['{"type":"end_of_source_media"}', new Uint8Array([0xc1, 0x00])]) {
      const url = await session({ message_format: 'msgpack' });
      const { messages, textFrames, closeCode } = await exchange(url, [frame]);
      expect(closeCode).toBe(1003);
      expect(textFrames).toBe(0);
      expect(messages).toEqual([
        {
          type: 'error',
          message:
            'Frames must be MessagePack maps in binary frames: {source_media_chunk: {data: <bin>}} or {end_of_source_media: {}}.',
        },
      ]);
    }
  });
});

describe("every error in the session's message format", () => {
  it("msgpack: a token used again, or on the other plan's base URL, is refused with a MessagePack error, then close 1008", async () => {
    const url = await session({ message_format: 'msgpack' });
    const first = await exchange(url, [
      ...chunks(wav).map((data) => encode({ source_media_chunk: { data } })),
      encode({ end_of_source_media: {} }),
    ]);
    expect(first.closeCode).toBe(1000);
    const again = await exchange(url, []);
    expect(again.closeCode).toBe(1008);
    expect(again.textFrames).toBe(0);
    expect(again.messages).toEqual([
      { type: 'error', message: 'The token was already used; request a new session or reconnect.' },
    ]);
    // The free plan's base URL (this session is the paid dev key's).
    const paid = new URL(await session({ message_format: 'msgpack' }));
    const free = new URL(t.server.freeUrl);
    paid.port = free.port;
    const other = await exchange(paid.toString(), []);
    expect(other.closeCode).toBe(1008);
    expect(other.textFrames).toBe(0);
    expect(other.messages).toEqual([
      { type: 'error', message: "The token belongs to the paid plan's base URL; connect there." },
    ]);
  });

  it("an unknown token: the refusal is in the format of the client's first frame (no session says it)", async () => {
    const url = (await session({ message_format: 'msgpack' })).replace(/token=[^&]+/, 'token=unknown');
    const refusal = [{ type: 'error', message: 'The token is not valid.' }];
    // A MessagePack client's first frame: a MessagePack map in a binary frame → a MessagePack error.
    const msgpack = await exchange(url, [encode({ source_media_chunk: { data: chunks(wav)[0]! } })]);
    expect(msgpack.closeCode).toBe(1008);
    expect(msgpack.textFrames).toBe(0);
    expect(msgpack.messages).toEqual(refusal);
    // A JSON client's first frame (text), or raw audio in a binary frame: JSON.
    for (const frame of [JSON.stringify({ end_of_source_media: {} }), chunks(wav)[0]!]) {
      const json = await exchange(url, [frame]);
      expect(json.closeCode).toBe(1008);
      expect(json.textFrames).toBe(1);
      expect(json.messages).toEqual(refusal);
    }
    // No frame: JSON, the default, once the server stops waiting for one (FORMAT_WAIT_MS).
    const silent = await exchange(url, []);
    expect(silent.closeCode).toBe(1008);
    expect(silent.textFrames).toBe(1);
    expect(silent.messages).toEqual(refusal);
  }, 30_000);
});

describe('source_media_chunk limits of the public description (100 kilobytes, one second of PCM, whole frames)', () => {
  const ended = (format: 'json' | 'msgpack') =>
    format === 'msgpack' ? encode({ end_of_source_media: {} }) : JSON.stringify({ end_of_source_media: {} });
  const chunk = (format: 'json' | 'msgpack', data: Buffer) =>
    format === 'msgpack'
      ? encode({ source_media_chunk: { data } })
      : JSON.stringify({ source_media_chunk: { data: data.toString('base64') } });

  for (const format of ['json', 'msgpack'] as const) {
    it(`${format}: 100,000 bytes in one chunk are taken; 100,001 are refused with an error in the format, then close 1009`, async () => {
      // flite's WAV, padded with silence past 100,001 bytes.
      const audio = Buffer.concat([wav, Buffer.alloc(Math.max(0, 100_001 - wav.length))]);
      const taken = await exchange(await session({ message_format: format }), [
        chunk(format, audio.subarray(0, 100_000)),
        ended(format),
      ]);
      expect(taken.closeCode, JSON.stringify(taken.messages.at(-1))).toBe(1000);
      const refused = await exchange(await session({ message_format: format }), [
        chunk(format, audio.subarray(0, 100_001)),
      ]);
      expect(refused.closeCode).toBe(1009);
      expect(refused.textFrames).toBe(format === 'json' ? 1 : 0);
      expect(refused.messages).toEqual([
        {
          type: 'error',
          message:
            'A source_media_chunk holds at most 100000 bytes (100 kilobytes) of audio; this one had 100001: send chunks of 50 to 250 ms of audio.',
        },
      ]);
    });
  }

  it('PCM (s16le, 16 kHz): one second (32,000 bytes) is taken; 32,002 bytes, or an odd number of bytes, are refused', async () => {
    const type = 'audio/pcm;encoding=s16le;rate=16000';
    const pcm = wav.subarray(44);
    const taken = await exchange(await session({ source_media_content_type: type }), [
      pcm.subarray(0, 32_000),
      ended('json'),
    ]);
    expect(taken.closeCode, JSON.stringify(taken.messages.at(-1))).toBe(1000);
    const long = await exchange(await session({ source_media_content_type: type }), [
      pcm.subarray(0, 32_002),
    ]);
    expect(long.closeCode).toBe(1009);
    expect(long.messages).toEqual([
      {
        type: 'error',
        message: `A source_media_chunk holds at most one second of audio (32000 bytes of ${type}); this one had 32002: send chunks of 50 to 250 ms of audio.`,
      },
    ]);
    const odd = await exchange(
      await session({ source_media_content_type: type, message_format: 'msgpack' }),
      [chunk('msgpack', pcm.subarray(0, 3201))],
    );
    expect(odd.closeCode).toBe(1009);
    expect(odd.textFrames).toBe(0);
    expect(odd.messages).toEqual([
      {
        type: 'error',
        message: `A source_media_chunk of ${type} must be a whole number of 2-byte frames; this one had 3201 bytes.`,
      },
    ]);
  });
});

describe('message_format json', () => {
  it("takes the description's JSON messages: base64 source_media_chunk, then end_of_source_media", async () => {
    const url = await session({ message_format: 'json' });
    const frames = [
      ...chunks(wav).map((data) => JSON.stringify({ source_media_chunk: { data: data.toString('base64') } })),
      JSON.stringify({ end_of_source_media: {} }),
    ];
    const { messages, closeCode } = await exchange(url, frames);
    expect(closeCode).toBe(1000);
    const transcript = messages
      .filter((m) => m.type === 'transcript')
      .map((m) => m.text)
      .join(' ');
    expect(wordErrorRate(REFERENCE, transcript), transcript).toBeLessThanOrEqual(0.15);
    expect(messages.at(-1)).toEqual({ type: 'end_of_stream' });
  });
});

describe('formality', () => {
  it('formal: a target without formality gets the default translation of each transcript', async () => {
    const { messages, closeCode } = await streamAudio(await session({ formality: 'formal' }), wav);
    expect(closeCode).toBe(1000);
    const transcripts = messages.filter((m) => m.type === 'transcript').map((m) => m.text as string);
    const translations = messages.filter((m) => m.type === 'translation').map((m) => m.text as string);
    expect(transcripts.length).toBeGreaterThan(0);
    const plain = await t.translate({ text: transcripts, source_lang: 'EN', target_lang: 'ES' });
    expect(translations).toEqual(plain.data.translations.map((m: { text: string }) => m.text));
  });
});
