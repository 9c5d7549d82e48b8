/**
 * The voice WebSocket (`/v3/voice/realtime/connect?token=`): binary frames carry audio, the client ends with
 * the text message {"type":"end_of_source_media"}; the server sends `VoiceStreamMessage` JSON texts (a
 * session with `message_format: msgpack` speaks MessagePack both ways instead, see `frames.ts`):
 * `partial` while an utterance is open, one `transcript` per utterance as soon as the recognizer closes it,
 * a `translation` per target after it (in order), then `end_of_stream` and a 1000 close. Failures: an
 * `error` message, then a close whose code says why. A closing server finishes every open stream (the
 * audio already received is transcribed and translated), sends `end_of_stream` and closes with 1001.
 */

import websocket from '@fastify/websocket';
import type { ServiceContext } from '@glossa/server/feature';
import { utcDay } from '@glossa/server/feature';
import type { FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  chunkLimitError,
  encodeMessage,
  type MessageFormat,
  type OutgoingMessage,
  readFrame,
} from './frames.js';
import { encodeSpeech, TARGET_MEDIA_CONTENT_TYPES } from './media.js';
import { punctuate } from './punctuate.js';
import { startRecognizer } from './recognizer.js';
import { translateTranscripts } from './resources.js';
import { VOICE_SOCKET_PATH } from './routes.js';
import { type VoiceSession, voiceSessions } from './sessions.js';
import { synthesize } from './speech.js';
import { applySpokenTerms } from './terms.js';

/** Close codes besides 1000 (done): see docs/voice.md. */
export const CLOSE_CODES = {
  /** Token unknown, used, expired, or its session already streaming. */
  policy: 1008,
  /** A text frame other than end_of_source_media. */
  unsupportedData: 1003,
  /** Audio that cannot be decoded, or the recognizer failed. */
  serverError: 1011,
  /** No frame for `IDLE_MS`. */
  idle: 4008,
  /** Audio beyond `MAX_SECONDS`. */
  tooLong: 4009,
  /** A chunk of audio beyond the description's limits (`chunkLimitError`): RFC 6455's "message too big". */
  chunkTooBig: 1009,
  /** The server is shutting down (after `end_of_stream`, or an `error` when it could not finish). */
  goingAway: 1001,
} as const;

export const IDLE_MS = 30_000;
export const MAX_SECONDS = 3 * 60 * 60;
const MAX_FRAME_BYTES = 1024 * 1024;
/** How long a closing server waits for an open stream's last transcripts before cutting it. */
export const SHUTDOWN_GRACE_MS = 5_000;

const send = (socket: WebSocket, message: OutgoingMessage, format: MessageFormat = 'json') => {
  if (socket.readyState === socket.OPEN) socket.send(encodeMessage(message, format));
};

const fail = (socket: WebSocket, code: number, message: string, format: MessageFormat = 'json') => {
  send(socket, { type: 'error', message }, format);
  if (socket.readyState === socket.OPEN) socket.close(code, message.slice(0, 120));
};

const bufferOf = (data: RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Buffer.concat([data].flat() as Buffer[]);

/** How long an unknown token's refusal waits for the client's first frame to learn its format. */
export const FORMAT_WAIT_MS = 3_000;

/**
 * Refuses an unknown token (1008) in the client's format. No session says it (`message_format` is given
 * when a session is requested; the connect URL carries only the token), but the public description has the
 * client speak it from its first frame: JSON in text frames, MessagePack maps in binary frames. So the
 * refusal waits for that frame (`first`, or the next, at most `FORMAT_WAIT_MS`): a binary frame that is a
 * MessagePack message of the description gets a MessagePack error; a text frame, a binary frame that is not
 * (raw audio, which a JSON session may send here), or no frame in time gets JSON, the default. The close
 * frame's reason carries the message in either case.
 */
function refuseUnknown(socket: WebSocket, first: [RawData, boolean] | undefined): void {
  let timer: NodeJS.Timeout | undefined;
  const refuse = (frame?: [RawData, boolean]) => {
    clearTimeout(timer);
    socket.off('message', next);
    const msgpack = frame?.[1] === true && readFrame(bufferOf(frame[0]), true, 'msgpack').kind !== 'invalid';
    fail(socket, CLOSE_CODES.policy, 'The token is not valid.', msgpack ? 'msgpack' : 'json');
  };
  const next = (data: RawData, isBinary: boolean) => refuse([data, isBinary]);
  if (first) refuse(first);
  else {
    timer = setTimeout(refuse, FORMAT_WAIT_MS);
    socket.on('message', next);
    socket.once('close', () => clearTimeout(timer));
  }
}

/** Registers the WebSocket route on one plan's app. */
export function registerVoiceSocket(app: FastifyInstance, context: ServiceContext): void {
  // Open streams of this app, each with the function that ends it when the server closes.
  const open = new Set<() => Promise<void>>();
  // Registered before the plugin's own preClose (which closes every socket at once), so it runs first.
  app.addHook('preClose', async () => {
    await Promise.all([...open].map((shutdown) => shutdown()));
  });
  app.register(async (scoped) => {
    // In this scope only: the plugin's onRequest and onResponse hooks then run for the voice socket, not
    // around every request of the other routes.
    await scoped.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
    scoped.get(VOICE_SOCKET_PATH, { websocket: true }, (socket, request) => {
      const token = new URLSearchParams(request.url.split('?')[1] ?? '').get('token') ?? '';
      // Frames that arrive while the token is checked (on a fleet, in the database) wait for the stream.
      const early: [RawData, boolean][] = [];
      const hold = (data: RawData, isBinary: boolean) => early.push([data, isBinary]);
      socket.on('message', hold);
      const sessions = voiceSessions(context);
      sessions.consume(token, request.plan).then(
        (check) => {
          socket.off('message', hold);
          if (!check.ok && check.reason === 'unknown') {
            refuseUnknown(socket, early[0]);
            return;
          }
          if (!check.ok) {
            const why =
              check.reason === 'plan'
                ? `The token belongs to the ${check.plan} plan's base URL; connect there.`
                : {
                    used: 'The token was already used; request a new session or reconnect.',
                    expired: 'The token expired; request a new session or reconnect.',
                    streaming: 'The session is already streaming.',
                  }[check.reason];
            fail(socket, CLOSE_CODES.policy, why, check.format);
            return;
          }
          const logError = (error: unknown) =>
            request.log.error({ err: error, session: check.session.id }, 'voice session failed');
          if (socket.readyState !== socket.OPEN) {
            // Gone while the token was checked: the session is free again.
            sessions.release(check.session).catch(logError);
            return;
          }
          const shutdown = stream(socket, check.session, context, logError);
          open.add(shutdown);
          socket.once('close', () => open.delete(shutdown));
          for (const [data, isBinary] of early) socket.emit('message', data, isBinary);
        },
        (error: unknown) => {
          socket.off('message', hold);
          request.log.error({ err: error }, 'voice token check failed');
          fail(socket, CLOSE_CODES.serverError, 'The token could not be checked; try again.');
        },
      );
    });
  });
}

const withTimeout = <T>(promise: Promise<T>, ms: number, message: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

/** Runs one stream; returns the function a closing server calls to end it. */
function stream(
  socket: WebSocket,
  session: VoiceSession,
  context: ServiceContext,
  logError: (error: unknown) => void,
): () => Promise<void> {
  const { config } = session;
  const format: MessageFormat = config.messageFormat === 'msgpack' ? 'msgpack' : 'json';
  const sessions = voiceSessions(context);
  // streaming: audio comes in; finishing: the audio ended, last transcripts on their way; ended: closed.
  let phase: 'streaming' | 'finishing' | 'ended' = 'streaming';
  let finishing: Promise<void> | undefined;
  let segment = 0;
  // Translations go out in order, one utterance after the other.
  let queue: Promise<void> = Promise.resolve();
  const recognizer = startRecognizer({
    inputType: config.inputType,
    words: config.pronunciations,
    onPartial: (raw) => {
      if (phase === 'ended') return;
      send(
        socket,
        { type: 'partial', segment_id: segment, text: applySpokenTerms(raw, config.spokenTerms) },
        format,
      );
    },
    onUtterance: (raw) => {
      if (phase === 'ended') return;
      const id = segment++;
      const text = punctuate(raw, {
        language: config.source,
        terms: [...config.spokenTerms, ...config.glossaryTerms],
      });
      send(socket, { type: 'transcript', segment_id: id, text, language: config.source }, format);
      queue = queue
        .then(() => (phase === 'ended' ? undefined : translate(socket, context, session, id, text)))
        .catch((error: unknown) => {
          if (phase === 'ended') return;
          logError(error);
          end(CLOSE_CODES.serverError, 'Translation failed.');
        });
    },
  });
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => end(CLOSE_CODES.idle, `No audio for ${IDLE_MS / 1000} seconds.`), IDLE_MS);
  };
  touch();
  let billed = false;
  const bill = async () => {
    if (billed) return;
    billed = true;
    const minutes = recognizer.seconds / 60;
    if (minutes <= 0) return;
    await context.storage.recordUsage({
      accountId: session.accountId,
      keyId: session.keyId,
      // A session that speaks its translations is speech-to-speech; otherwise speech-to-text.
      product: session.config.speech ? 'speech_to_speech' : 'speech_to_text',
      units: minutes,
      customTag: session.customTag,
      day: utcDay(new Date()),
    });
  };
  /** Stops everything at once (a failure or a dropped connection); false when already ended. */
  const stop = () => {
    if (phase === 'ended') return false;
    phase = 'ended';
    clearTimeout(idle);
    recognizer.abort();
    sessions.release(session).catch(logError);
    bill().catch(logError);
    return true;
  };
  const end = (code: number, message: string) => {
    if (stop()) fail(socket, code, message, format);
  };
  /** The audio ended: last transcripts and translations, end_of_stream, then a close with `code`. */
  const finish = (code: number, reason: string, graceMs?: number) => {
    phase = 'finishing';
    clearTimeout(idle);
    const finished = recognizer.finish().then(() => queue);
    finishing = (graceMs === undefined ? finished : withTimeout(finished, graceMs, 'Shutdown grace over.'))
      .then(async () => {
        if (phase === 'ended') return;
        phase = 'ended';
        await sessions.release(session);
        await bill();
        send(socket, { type: 'end_of_stream' }, format);
        if (socket.readyState === socket.OPEN) socket.close(code, reason);
      })
      .catch((error: unknown) => {
        if (phase === 'ended') return;
        const decode = error instanceof Error && error.message.startsWith('The audio could not be decoded');
        if (!decode && graceMs === undefined) logError(error);
        if (graceMs !== undefined) end(CLOSE_CODES.goingAway, 'The server is shutting down.');
        else end(CLOSE_CODES.serverError, decode ? (error as Error).message : 'Transcription failed.');
      });
    return finishing;
  };

  socket.on('message', (data, isBinary) => {
    if (phase !== 'streaming') return;
    touch();
    const frame = readFrame(bufferOf(data), isBinary, format);
    if (frame.kind === 'audio') {
      const tooBig = chunkLimitError(frame.bytes.length, config.mediaType);
      if (tooBig) {
        end(CLOSE_CODES.chunkTooBig, tooBig);
        return;
      }
      // Backpressure: stop reading the socket while the recognizer's input is full.
      if (!recognizer.write(frame.bytes)) {
        socket.pause();
        void recognizer.drained().then(() => socket.resume());
      }
      if (recognizer.seconds > MAX_SECONDS)
        end(CLOSE_CODES.tooLong, `Audio is limited to ${MAX_SECONDS / 3600} hours.`);
      return;
    }
    if (frame.kind === 'invalid') {
      end(CLOSE_CODES.unsupportedData, frame.message);
      return;
    }
    void finish(1000, 'end of stream');
  });
  // A dropped connection stops the processes and frees the session at once.
  socket.on('close', () => {
    stop();
  });
  return async () => {
    // Frames that still arrive are dropped (the socket keeps reading, so the close handshake completes).
    if (phase === 'streaming') {
      await finish(CLOSE_CODES.goingAway, 'The server is shutting down.', SHUTDOWN_GRACE_MS);
    } else await finishing;
  };
}

/** The translation of one final transcript into each target (with the session's glossary), and its speech. */
async function translate(
  socket: WebSocket,
  context: ServiceContext,
  session: VoiceSession,
  id: number,
  text: string,
): Promise<void> {
  const { config } = session;
  const format: MessageFormat = config.messageFormat === 'msgpack' ? 'msgpack' : 'json';
  for (const target of config.targets) {
    // The session's formality where the target has formality, the default elsewhere.
    const formality = context.languages.supportsFormality(target) ? config.formality : 'default';
    const [translated = ''] = await translateTranscripts(
      context,
      session.caller,
      { source: config.source, target, formality, glossaryId: config.glossaryId },
      [text],
    );
    send(socket, { type: 'translation', segment_id: id, target_language: target, text: translated }, format);
    if (config.speech && config.speechTargets.includes(target) && translated.trim()) {
      const audio = await encodeSpeech(
        await synthesize(translated, target),
        TARGET_MEDIA_CONTENT_TYPES[config.speech] ?? [],
      );
      send(
        socket,
        { type: 'speech', segment_id: id, target_language: target, content_type: config.speech, audio },
        format,
      );
    }
  }
}
