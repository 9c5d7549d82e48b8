/**
 * Every media type of the public description, for real: each of the 19 `source_media_content_type` values
 * is made at test time with ffmpeg from flite speech, streamed to a session and transcribed; each of the 16
 * `target_media_content_type` values is encoded from espeak-ng speech and decoded back (container, codec,
 * sample rate, length). Types the description does not declare are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  encodeSpeech,
  JOB_TARGET_TYPES,
  SOURCE_MEDIA_CONTENT_TYPES,
  TARGET_MEDIA_CONTENT_TYPES,
} from '../src/media.js';
import { synthesize } from '../src/speech.js';
import { startTestServer, type TestServer } from './helpers.js';
import { ffmpegConvert, fliteWav, probeAudio, streamAudio, wordErrorRate } from './voice-helpers.js';

const REFERENCE = 'i would like to buy a ticket to the city';

/** How each source type is made from the flite WAV (ffmpeg output options), and the WER allowed. */
const SOURCES: Record<string, { make: string[]; maxWer: number | undefined }> = {
  'audio/auto': { make: ['-f', 'webm', '-c:a', 'libopus', '-b:a', '32k'], maxWer: 0.15 },
  'audio/flac': { make: ['-f', 'flac', '-c:a', 'flac'], maxWer: 0.15 },
  'audio/mpeg': { make: ['-f', 'mp3', '-c:a', 'libmp3lame', '-b:a', '128k'], maxWer: 0.15 },
  'audio/ogg': { make: ['-f', 'ogg', '-c:a', 'flac'], maxWer: 0.15 },
  'audio/webm': { make: ['-f', 'webm', '-c:a', 'libopus', '-b:a', '32k'], maxWer: 0.15 },
  'audio/x-matroska': { make: ['-f', 'matroska', '-c:a', 'aac', '-b:a', '96k'], maxWer: 0.15 },
  'audio/ogg;codecs=flac': { make: ['-f', 'ogg', '-c:a', 'flac'], maxWer: 0.15 },
  'audio/ogg;codecs=opus': { make: ['-f', 'ogg', '-c:a', 'libopus', '-b:a', '32k'], maxWer: 0.15 },
  // Telephone band (8 kHz): decoded right (its length is checked), but the 16 kHz en-us model hears almost
  // nothing of it (WER 0.9-1.0 measured); no bound on the words.
  'audio/pcm;encoding=alaw;rate=8000': { make: ['-f', 'alaw', '-ar', '8000'], maxWer: undefined },
  'audio/pcm;encoding=ulaw;rate=8000': { make: ['-f', 'mulaw', '-ar', '8000'], maxWer: undefined },
  'audio/pcm;encoding=s16le;rate=8000': { make: ['-f', 's16le', '-ar', '8000'], maxWer: undefined },
  'audio/pcm;encoding=s16le;rate=16000': { make: ['-f', 's16le', '-ar', '16000'], maxWer: 0.15 },
  'audio/pcm;encoding=s16le;rate=44100': { make: ['-f', 's16le', '-ar', '44100'], maxWer: 0.15 },
  'audio/pcm;encoding=s16le;rate=48000': { make: ['-f', 's16le', '-ar', '48000'], maxWer: 0.15 },
  'audio/webm;codecs=opus': { make: ['-f', 'webm', '-c:a', 'libopus', '-b:a', '32k'], maxWer: 0.15 },
  'audio/x-matroska;codecs=aac': { make: ['-f', 'matroska', '-c:a', 'aac', '-b:a', '96k'], maxWer: 0.15 },
  'audio/x-matroska;codecs=flac': { make: ['-f', 'matroska', '-c:a', 'flac'], maxWer: 0.15 },
  'audio/x-matroska;codecs=mp3': {
    make: ['-f', 'matroska', '-c:a', 'libmp3lame', '-b:a', '128k'],
    maxWer: 0.15,
  },
  'audio/x-matroska;codecs=opus': {
    make: ['-f', 'matroska', '-c:a', 'libopus', '-b:a', '32k'],
    maxWer: 0.15,
  },
};

/** What each speech type decodes back to: ffprobe's format and codec, the sample rate, headerless input options. */
const TARGETS: Record<string, { format: string; codec: string; rate: number; input?: string[] }> = {
  'audio/flac': { format: 'flac', codec: 'flac', rate: 24000 },
  'video/mp2t;codecs=aac': { format: 'mpegts', codec: 'aac', rate: 24000 },
  'video/mp2t;codecs=opus': { format: 'mpegts', codec: 'opus', rate: 48000 },
  'audio/ogg': { format: 'ogg', codec: 'opus', rate: 48000 },
  'audio/ogg;codecs=flac': { format: 'ogg', codec: 'flac', rate: 24000 },
  'audio/ogg;codecs=opus': { format: 'ogg', codec: 'opus', rate: 48000 },
  'audio/opus': { format: 'ogg', codec: 'opus', rate: 48000 },
  'audio/pcm;encoding=alaw;rate=8000': { format: 'alaw', codec: 'pcm_alaw', rate: 8000, input: ['-f', 'alaw', '-ar', '8000', '-ac', '1'] },
  'audio/pcm;encoding=ulaw;rate=8000': { format: 'mulaw', codec: 'pcm_mulaw', rate: 8000, input: ['-f', 'mulaw', '-ar', '8000', '-ac', '1'] },
  'audio/pcm;encoding=s16le;rate=16000': { format: 's16le', codec: 'pcm_s16le', rate: 16000, input: ['-f', 's16le', '-ar', '16000', '-ac', '1'] },
  'audio/pcm;encoding=s16le;rate=24000': { format: 's16le', codec: 'pcm_s16le', rate: 24000, input: ['-f', 's16le', '-ar', '24000', '-ac', '1'] },
  'audio/webm': { format: 'matroska,webm', codec: 'opus', rate: 48000 },
  'audio/webm;codecs=opus': { format: 'matroska,webm', codec: 'opus', rate: 48000 },
  'audio/x-matroska;codecs=aac': { format: 'matroska,webm', codec: 'aac', rate: 24000 },
  'audio/x-matroska;codecs=flac': { format: 'matroska,webm', codec: 'flac', rate: 24000 },
  'audio/x-matroska;codecs=opus': { format: 'matroska,webm', codec: 'opus', rate: 48000 },
}; // biome-ignore format: a table

let t: TestServer;
let wav: Buffer;
let seconds: number;
beforeAll(async () => {
  t = await startTestServer();
  wav = fliteWav(`${REFERENCE}.`);
  seconds = (wav.length - 44) / 32_000;
});
afterAll(async () => {
  await t?.close();
});

const session = (json: unknown) => t.call('/v3/voice/realtime', { json });

describe('source_media_content_type: the 19 declared values, decoded for real', () => {
  it('the tables hold exactly the values the description declares', () => {
    expect(Object.keys(SOURCE_MEDIA_CONTENT_TYPES).sort()).toEqual(Object.keys(SOURCES).sort());
    expect(Object.keys(SOURCES)).toHaveLength(19);
    expect(Object.keys(TARGET_MEDIA_CONTENT_TYPES).sort()).toEqual(Object.keys(TARGETS).sort());
    expect(Object.keys(TARGETS)).toHaveLength(16);
  });

  it.each(Object.entries(SOURCES))(
    '%s: streamed, decoded and transcribed',
    async (type, { make, maxWer }) => {
      const audio = ffmpegConvert(wav, ['-ac', '1', ...make]);
      const account = await t.server.createAccount({ plan: 'paid' });
      const reply = await t.call('/v3/voice/realtime', {
        key: account.key,
        json: { source_media_content_type: type },
      });
      expect(reply.status).toBe(200);
      // 4,000-byte chunks: at most one second of every PCM type (8 kHz A-law: 8,000 bytes a second).
      const { messages, closeCode } = await streamAudio(reply.data.streaming_url, audio, 4000);
      expect(closeCode, JSON.stringify(messages.at(-1))).toBe(1000);
      const transcript = messages
        .filter((m) => m.type === 'transcript')
        .map((m) => m.text)
        .join(' ');
      if (maxWer !== undefined)
        expect(wordErrorRate(REFERENCE, transcript), transcript).toBeLessThanOrEqual(maxWer);
      // The minutes billed are those of the decoded audio: its length (so its rate) survived decoding.
      const usage = await t.call('/v2/usage', { key: account.key });
      const minutes = usage.data.products.find(
        (p: { product_type: string }) => p.product_type === 'speech_to_text',
      ).account_unit_count;
      expect(Math.abs(minutes * 60 - seconds), `${minutes * 60} s`).toBeLessThan(0.2);
    },
    60_000,
  );

  it.each(['audio/wav', 'audio/x-wav'])(
    "%s (not declared; what the interface's wire checks send) is streamed and transcribed too",
    async (type) => {
      const reply = await session({ source_media_content_type: type, target_languages: ['es'] });
      expect(reply.status, JSON.stringify(reply.data)).toBe(200);
      const { messages, closeCode } = await streamAudio(reply.data.streaming_url, wav);
      expect(closeCode).toBe(1000);
      const transcript = messages
        .filter((m) => m.type === 'transcript')
        .map((m) => m.text)
        .join(' ');
      expect(wordErrorRate(REFERENCE, transcript), transcript).toBeLessThanOrEqual(0.15);
    },
    60_000,
  );

  it('types the description does not declare are refused with 400, naming the declared ones', async () => {
    for (const type of [
      'audio/pcm;rate=16000',
      'audio/pcm;encoding=s16le;rate=22050',
      'audio/mp4',
      'video/mp4',
      'audio/ogg;codecs=vorbis',
    ]) {
      const reply = await session({ source_media_content_type: type });
      expect(reply.status, type).toBe(400);
      expect(reply.data.message).toContain('source_media_content_type: Value is not valid');
      expect(reply.data.message).toContain('audio/x-matroska;codecs=opus');
    }
    // Case, spaces and parameter order aside, a declared value is accepted.
    const spelled = await session({ source_media_content_type: 'Audio/PCM; rate=16000; encoding=s16le' });
    expect(spelled.status).toBe(200);
  });
});

describe('target_media_content_type: the 16 declared values, encoded for real', () => {
  it.each(Object.entries(TARGETS))(
    '%s: espeak-ng speech encoded and decoded back',
    async (type, expected) => {
      const speech = await synthesize('Me gustaría comprar un billete para la ciudad.', 'es');
      // espeak-ng: 22.05 kHz mono 16-bit, 44-byte header.
      const spoken = (speech.length - 44) / 44_100;
      const encoded = await encodeSpeech(speech, TARGET_MEDIA_CONTENT_TYPES[type]!);
      const probed = probeAudio(encoded, expected.input);
      expect(probed).toMatchObject({
        format: expected.format,
        codec: expected.codec,
        sampleRate: expected.rate,
        channels: 1,
      });
      // Codec delay and padding aside, the length is kept.
      expect(Math.abs(probed.seconds - spoken), `${probed.seconds} s vs ${spoken} s`).toBeLessThan(0.15);
    },
    30_000,
  );
});

describe('result types of voice translation jobs that sessions do not have', () => {
  it.each([
    ['audio/x-matroska;codecs=pcm_s16le;rate=16000', 16000],
    ['audio/x-matroska;codecs=pcm_s16le;rate=24000', 24000],
  ] as const)('%s: encoded and decoded back', async (type, rate) => {
    const speech = await synthesize('El archivo es demasiado grande.', 'es');
    const spoken = (speech.length - 44) / 44_100;
    const args = JOB_TARGET_TYPES[type];
    expect(Array.isArray(args)).toBe(true);
    const probed = probeAudio(await encodeSpeech(speech, args as readonly string[]));
    expect(probed).toMatchObject({
      format: 'matroska,webm',
      codec: 'pcm_s16le',
      sampleRate: rate,
      channels: 1,
    });
    expect(Math.abs(probed.seconds - spoken)).toBeLessThan(0.15);
  });

  it('every audio result type of a job is one of the speech types or one of these two', () => {
    const audio = Object.entries(JOB_TARGET_TYPES).filter(([, kind]) => Array.isArray(kind));
    expect(audio).toHaveLength(16);
    for (const [type] of audio)
      if (!type.includes('pcm_s16le')) expect(Object.keys(TARGET_MEDIA_CONTENT_TYPES)).toContain(type);
  });
});
