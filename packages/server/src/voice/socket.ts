/**
 * The voice WebSocket (`/v3/voice/realtime/connect?token=`): binary frames carry audio, the client ends with
 * the text message {"type":"end_of_source_media"}; the server sends `VoiceServerMessage` JSON texts: one
 * `transcript` per utterance as soon as the recognizer closes it, a `translation` per target after it, then
 * `end_of_stream` and a 1000 close. Failures: an `error` message, then a close whose code says why.
 */

import websocket from '@fastify/websocket';
import type { VoiceStreamMessage } from '@glossa/protocol';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { ServiceContext } from '../context.js';
import { utcDay } from '../translate/billing-period.js';
import { runVoiceJobs } from './jobs.js';
import { startRecognizer } from './recognizer.js';
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
} as const;

export const IDLE_MS = 30_000;
export const MAX_SECONDS = 3 * 60 * 60;
const MAX_FRAME_BYTES = 1024 * 1024;

const send = (socket: WebSocket, message: VoiceStreamMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

const fail = (socket: WebSocket, code: number, message: string) => {
  send(socket, { type: 'error', message });
  if (socket.readyState === socket.OPEN) socket.close(code, message.slice(0, 120));
};

/** Registers the WebSocket route on one plan's app. */
export function registerVoiceSocket(app: FastifyInstance, context: ServiceContext): void {
  app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
  // Voice jobs a stopped server left queued or processing run again once it listens.
  app.addHook('onReady', async () =>
    runVoiceJobs(context, (error) => app.log.error({ err: error }, 'voice job failed')),
  );
  app.register(async (scoped) => {
    scoped.get(VOICE_SOCKET_PATH, { websocket: true }, (socket, request) => {
      const token = new URLSearchParams(request.url.split('?')[1] ?? '').get('token') ?? '';
      const check = voiceSessions(context).consume(token);
      if (!check.ok) {
        const why = {
          unknown: 'The token is not valid.',
          used: 'The token was already used; request a new session or reconnect.',
          expired: 'The token expired; request a new session or reconnect.',
          streaming: 'The session is already streaming.',
        }[check.reason];
        fail(socket, CLOSE_CODES.policy, why);
        return;
      }
      stream(socket, check.session, context, (error) =>
        request.log.error({ err: error, session: check.session.id }, 'voice session failed'),
      );
    });
  });
}

function stream(
  socket: WebSocket,
  session: VoiceSession,
  context: ServiceContext,
  logError: (error: unknown) => void,
): void {
  const { config } = session;
  let segment = 0;
  let done = false;
  let failed = false;
  // Transcripts and their translations go out in order, one utterance after the other.
  let queue: Promise<void> = Promise.resolve();
  const recognizer = startRecognizer({
    inputType: config.inputType,
    onUtterance: (raw) => {
      const id = segment++;
      const text = applySpokenTerms(raw, config.spokenTerms);
      queue = queue
        .then(() => (failed ? undefined : deliver(socket, context, session, id, text)))
        .catch((error: unknown) => {
          if (failed) return;
          failed = true;
          logError(error);
          recognizer.abort();
          fail(socket, CLOSE_CODES.serverError, 'Translation failed.');
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
  const end = (code: number, message: string) => {
    if (done) return;
    done = true;
    clearTimeout(idle);
    recognizer.abort();
    voiceSessions(context).release(session);
    bill().catch(logError);
    fail(socket, code, message);
  };

  socket.on('message', (data, isBinary) => {
    if (done) return;
    touch();
    const chunk = Buffer.isBuffer(data) ? data : Buffer.concat([data].flat() as Buffer[]);
    if (isBinary) {
      // Backpressure: stop reading the socket while the recognizer's input is full.
      if (!recognizer.write(chunk)) {
        socket.pause();
        void recognizer.drained().then(() => socket.resume());
      }
      if (recognizer.seconds > MAX_SECONDS)
        end(CLOSE_CODES.tooLong, `Audio is limited to ${MAX_SECONDS / 3600} hours.`);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(chunk.toString('utf8'));
    } catch {
      message = undefined;
    }
    if ((message as { type?: unknown } | undefined)?.type !== 'end_of_source_media') {
      end(
        CLOSE_CODES.unsupportedData,
        'Text frames must be {"type":"end_of_source_media"}; send audio as binary frames.',
      );
      return;
    }
    done = true;
    clearTimeout(idle);
    recognizer
      .finish()
      .then(() => queue)
      .then(async () => {
        voiceSessions(context).release(session);
        await bill();
        if (failed) return;
        send(socket, { type: 'end_of_stream' });
        if (socket.readyState === socket.OPEN) socket.close(1000, 'end of stream');
      })
      .catch((error: unknown) => {
        recognizer.abort();
        voiceSessions(context).release(session);
        bill().catch(logError);
        const decode = error instanceof Error && error.message.startsWith('The audio could not be decoded');
        if (!decode) logError(error);
        fail(socket, CLOSE_CODES.serverError, decode ? (error as Error).message : 'Transcription failed.');
      });
  });
  // A dropped connection (or a server shutdown) stops the processes and frees the session.
  socket.on('close', () => {
    if (done) return;
    done = true;
    clearTimeout(idle);
    recognizer.abort();
    voiceSessions(context).release(session);
    bill().catch(logError);
  });
}

async function deliver(
  socket: WebSocket,
  context: ServiceContext,
  session: VoiceSession,
  id: number,
  text: string,
): Promise<void> {
  const { config } = session;
  send(socket, { type: 'transcript', segment_id: id, text, language: config.source });
  for (const target of config.targets) {
    const choice = context.engines.select(config.source, target);
    if (!choice) throw new Error(`No engine for ${config.source} → ${target}.`);
    const [translated = ''] = await choice.engine.translate({
      texts: [text],
      source: choice.pair.source,
      target: choice.pair.target,
      markup: false,
      formality: config.formality,
    });
    send(socket, { type: 'translation', segment_id: id, target_language: target, text: translated });
    if (config.speech && translated.trim()) {
      const audio = await synthesize(translated, target);
      send(socket, {
        type: 'speech',
        segment_id: id,
        target_language: target,
        content_type: config.speech,
        audio: audio.toString('base64'),
      });
    }
  }
}
