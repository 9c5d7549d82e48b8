/**
 * The voice session helper: requests a session, streams audio (a file, bytes, or any Node stream / async
 * iterable of bytes) over its WebSocket, ends with {"type":"end_of_source_media"}, and yields the server's
 * JSON messages as they arrive. A close other than 1000 ends the iteration with a `VoiceStreamError`.
 */
import { readFile } from 'node:fs/promises';
import type { VoiceStreamMessage } from '@glossa/protocol';
import { GlossaError } from './errors.js';
import type { Voice, VoiceSessionOptions } from './resources/voice.js';

export type VoiceAudio = string | URL | Uint8Array | AsyncIterable<Uint8Array>;

export interface StreamVoiceOptions extends VoiceSessionOptions {
  /** Bytes per binary frame when the audio is a file or bytes. Default 32000 (1 s of 16 kHz PCM). */
  chunkBytes?: number | undefined;
}

/** The socket closed with a code other than 1000 (see the server's voice docs for the codes). */
export class VoiceStreamError extends GlossaError {
  override name = 'VoiceStreamError';
  constructor(
    message: string,
    readonly closeCode: number,
  ) {
    super(message);
  }
}

async function* chunksOf(audio: VoiceAudio, size: number): AsyncIterable<Uint8Array> {
  if (typeof audio === 'string' || audio instanceof URL || audio instanceof Uint8Array) {
    const bytes = audio instanceof Uint8Array ? audio : await readFile(audio);
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    return;
  }
  yield* audio;
}

/** Streams `audio` through a new session and yields every message until the server's end of stream. */
export async function* streamVoice(
  voice: Voice,
  audio: VoiceAudio,
  options: StreamVoiceOptions,
): AsyncGenerator<VoiceStreamMessage> {
  const { chunkBytes = 32_000, ...sessionOptions } = options;
  const session = await voice.createSession(sessionOptions);
  const socket = voice.connect(session);
  const pending: VoiceStreamMessage[] = [];
  let wake: (() => void) | undefined;
  let closed: { code: number; reason: string } | undefined;
  let failure: Error | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    try {
      pending.push(JSON.parse(data.toString()) as VoiceStreamMessage);
    } catch {
      failure = new VoiceStreamError('The server sent a message that is not JSON.', 1002);
    }
    notify();
  });
  socket.on('close', (code, reason) => {
    closed = { code, reason: reason.toString() };
    notify();
  });
  socket.on('error', (error) => {
    failure ??= error;
    notify();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });

  const sending = (async () => {
    for await (const chunk of chunksOf(audio, chunkBytes)) {
      if (socket.readyState !== socket.OPEN) return;
      // Wait for the socket buffer to drain so a large file does not pile up in memory.
      await new Promise<void>((resolve, reject) =>
        socket.send(chunk, (error) => (error ? reject(error) : resolve())),
      );
    }
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'end_of_source_media' }));
  })().catch((error: unknown) => {
    failure ??= error instanceof Error ? error : new Error(String(error));
    socket.terminate();
    notify();
  });

  try {
    for (;;) {
      while (pending.length > 0) yield pending.shift() as VoiceStreamMessage;
      if (failure) throw failure;
      if (closed) {
        if (closed.code !== 1000) {
          throw new VoiceStreamError(
            closed.reason || `The voice stream closed with code ${closed.code}.`,
            closed.code,
          );
        }
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    // A consumer that stops early drops the connection (the server frees the session).
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.terminate();
    await sending;
  }
}
