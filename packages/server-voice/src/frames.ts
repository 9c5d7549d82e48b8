/**
 * The voice WebSocket's frames in a session's `message_format`. `json`: the server's messages are JSON text
 * frames (speech audio as base64); the client sends audio as binary frames, or as the public description's
 * `{"source_media_chunk":{"data":"<base64>"}}` text messages, and ends with `{"type":"end_of_source_media"}`
 * or `{"end_of_source_media":{}}`. `msgpack`: every message, both ways, is a MessagePack map in a binary
 * frame, with the same keys as in JSON and binary fields (audio) as raw bytes: the client sends
 * `{source_media_chunk: {data: <bin>}}` and `{end_of_source_media: {}}` (or `{type: "end_of_source_media"}`).
 */

import type { VoiceSpeechMessage, VoiceStreamMessage } from '@glossa/protocol';
import { decode, encode } from '@msgpack/msgpack';
import { normalizeMediaType } from './media.js';

export type MessageFormat = 'json' | 'msgpack';

/** A message of the server, with speech audio as bytes (each format writes them its own way). */
export type OutgoingMessage =
  | Exclude<VoiceStreamMessage, { type: 'speech' }>
  | (Omit<VoiceSpeechMessage, 'audio'> & { audio: Buffer });

/** What a client's frame says: audio, the end of the audio, or something this socket does not take. */
export type ClientFrame =
  | { kind: 'audio'; bytes: Buffer }
  | { kind: 'end' }
  | { kind: 'invalid'; message: string };

const INVALID: Record<MessageFormat, string> = {
  json: 'Text frames must be {"type":"end_of_source_media"}; send audio as binary frames.',
  msgpack:
    'Frames must be MessagePack maps in binary frames: {source_media_chunk: {data: <bin>}} or {end_of_source_media: {}}.',
};

export function encodeMessage(message: OutgoingMessage, format: MessageFormat): string | Buffer {
  if (format === 'msgpack') {
    const bytes = encode(message);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return JSON.stringify(
    message.type === 'speech' ? { ...message, audio: message.audio.toString('base64') } : message,
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** The meaning of a decoded message (JSON or MessagePack); `data` is base64 text in JSON, bytes in MessagePack. */
function readMessage(message: unknown, format: MessageFormat): ClientFrame {
  const invalid = { kind: 'invalid', message: INVALID[format] } as const;
  if (!isRecord(message)) return invalid;
  if (message.type === 'end_of_source_media' || isRecord(message.end_of_source_media)) return { kind: 'end' };
  const chunk = message.source_media_chunk;
  if (!isRecord(chunk)) return invalid;
  const { data } = chunk;
  if (format === 'msgpack' && data instanceof Uint8Array)
    return { kind: 'audio', bytes: Buffer.from(data.buffer, data.byteOffset, data.byteLength) };
  if (format === 'json' && typeof data === 'string')
    return { kind: 'audio', bytes: Buffer.from(data, 'base64') };
  return invalid;
}

export function readFrame(data: Buffer, isBinary: boolean, format: MessageFormat): ClientFrame {
  if (format === 'json') {
    if (isBinary) return { kind: 'audio', bytes: data };
    let message: unknown;
    try {
      message = JSON.parse(data.toString('utf8'));
    } catch {
      return { kind: 'invalid', message: INVALID.json };
    }
    return readMessage(message, 'json');
  }
  if (!isBinary) return { kind: 'invalid', message: INVALID.msgpack };
  let message: unknown;
  try {
    message = decode(data);
  } catch {
    return { kind: 'invalid', message: INVALID.msgpack };
  }
  return readMessage(message, 'msgpack');
}

/**
 * The public description's limit on a `source_media_chunk` (voice.asyncapi.yaml, SourceMediaChunk): "not more
 * than 100 kilobyte" (SI kilobytes, as the description writes MiB where it means 1,048,576: 100,000 bytes).
 * Applies to the audio of every chunk, in either format, and to the raw binary frames a JSON session may send.
 */
export const MAX_CHUNK_BYTES = 100_000;

/** Bytes per sample (the "frame size aka encoding unit", mono) of the description's PCM encodings. */
const PCM_SAMPLE_BYTES: Record<string, number> = { s16le: 2, alaw: 1, ulaw: 1 };

/** For a PCM media type (`audio/pcm;encoding=s16le;rate=16000`): its frame size and bytes per second. */
export function pcmLayout(mediaType: string): { frameBytes: number; bytesPerSecond: number } | undefined {
  const [base, ...parameters] = normalizeMediaType(mediaType).split(';');
  if (base !== 'audio/pcm') return undefined;
  const values = new Map(parameters.map((parameter) => parameter.split('=') as [string, string]));
  const frameBytes = PCM_SAMPLE_BYTES[values.get('encoding') ?? ''];
  const rate = Number(values.get('rate'));
  if (frameBytes === undefined || !Number.isInteger(rate) || rate <= 0) return undefined;
  return { frameBytes, bytesPerSecond: frameBytes * rate };
}

/**
 * Why a chunk of `bytes` bytes of audio of a session's `mediaType` breaks the description's limits, or
 * undefined: at most 100,000 bytes; for PCM also at most one second of audio and a whole number of frames.
 * (Compressed chunks' durations are not known before decoding: only their size is checked.)
 */
export function chunkLimitError(bytes: number, mediaType: string): string | undefined {
  const advice = 'send chunks of 50 to 250 ms of audio';
  if (bytes > MAX_CHUNK_BYTES)
    return `A source_media_chunk holds at most ${MAX_CHUNK_BYTES} bytes (100 kilobytes) of audio; this one had ${bytes}: ${advice}.`;
  const pcm = pcmLayout(mediaType);
  if (!pcm) return undefined;
  if (bytes > pcm.bytesPerSecond)
    return `A source_media_chunk holds at most one second of audio (${pcm.bytesPerSecond} bytes of ${mediaType}); this one had ${bytes}: ${advice}.`;
  if (bytes % pcm.frameBytes !== 0)
    return `A source_media_chunk of ${mediaType} must be a whole number of ${pcm.frameBytes}-byte frames; this one had ${bytes} bytes.`;
  return undefined;
}
