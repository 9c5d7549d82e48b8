/**
 * Streaming speech recognition with Debian's pocketsphinx (English, 16 kHz mono s16le) used as a library by
 * a long-lived Python helper per stream (`recognizer-script.ts`): it reports partial hypotheses while an
 * utterance is open and a final transcript as soon as voice activity detection closes it. Audio in other
 * containers and encodings (FLAC, MP3, Ogg, WebM, Matroska, A-law...) is converted on the fly by an `ffmpeg`
 * process piped in front of it (`media.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  declaredMediaType,
  decoderArgs,
  SOURCE_MEDIA_CONTENT_TYPES,
  WAV_SOURCE_CONTENT_TYPES,
} from './media.js';
import { RECOGNIZER_SCRIPT } from './recognizer-script.js';

/** 16 kHz × 2 bytes: PCM bytes per second of audio. */
export const PCM_BYTES_PER_SECOND = 32_000;

/** The source types a session accepts: the declared ones and WAV, with their ffmpeg input options. */
const ACCEPTED_SOURCE_TYPES = { ...SOURCE_MEDIA_CONTENT_TYPES, ...WAV_SOURCE_CONTENT_TYPES };
const ACCEPTED_TYPES = Object.keys(ACCEPTED_SOURCE_TYPES);

/**
 * The ffmpeg input options for a session's `source_media_content_type` (`null`: raw 16 kHz s16le, read as
 * is), `undefined` when the type is neither declared by the public description nor WAV.
 */
export function decoderInput(mediaType: string): readonly string[] | null | undefined {
  const declared = declaredMediaType(mediaType, ACCEPTED_TYPES);
  return declared === undefined ? undefined : ACCEPTED_SOURCE_TYPES[declared];
}

/** Debian's python3 (the `python3-pocketsphinx` module is installed for it, not for other Pythons on PATH). */
export const PYTHON = '/usr/bin/python3';
/** The US English model of Debian's pocketsphinx-en-us. */
export const ENGLISH_MODEL = {
  hmm: '/usr/share/pocketsphinx/model/en-us/en-us',
  lm: '/usr/share/pocketsphinx/model/en-us/en-us.lm.bin',
  dict: '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict',
} as const;

/** Seconds from the start of the audio. */
export interface UtteranceSpan {
  readonly start: number;
  readonly end: number;
}

export interface RecognizerOptions {
  /** From `decoderInput`: ffmpeg's input options, or `null` for raw 16 kHz s16le. */
  readonly inputType: readonly string[] | null;
  /** Words to add to the dictionary (and the language model) with their ARPAbet phones; known words keep theirs. */
  readonly words?: readonly (readonly [word: string, phones: string])[];
  /** Called whenever the hypothesis of the open utterance changes. */
  readonly onPartial?: (text: string) => void;
  /** Called with each recognized utterance, in order (empty ones are skipped), and when it was said. */
  readonly onUtterance: (text: string, span: UtteranceSpan) => void;
}

export interface Recognizer {
  /** False when the input buffer is full: wait for `drained()` before writing more. */
  write(chunk: Buffer): boolean;
  drained(): Promise<void>;
  /** Ends the audio and resolves once every utterance has been reported. */
  finish(): Promise<void>;
  /** Kills the processes (a dropped connection); idempotent. */
  abort(): void;
  /** Seconds of 16 kHz audio the recognizer has received. */
  readonly seconds: number;
}

const killQuietly = (child: ChildProcess, group = false) => {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    if (group) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // Already gone.
  }
};

export function startRecognizer(options: RecognizerOptions): Recognizer {
  // Its own process group (detached), so `abort` kills it and anything it started at once.
  const recognizer = spawn(PYTHON, ['-c', RECOGNIZER_SCRIPT], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  recognizer.stdin.write(`${JSON.stringify({ ...ENGLISH_MODEL, words: options.words ?? [] })}\n`);
  const converter =
    options.inputType === null
      ? undefined
      : spawn('ffmpeg', decoderArgs(options.inputType), { stdio: ['pipe', 'pipe', 'pipe'] });
  let pcmBytes = 0;
  let inputBytes = 0;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
  };
  recognizer.on('error', fail);
  recognizer.stdin.on('error', () => {});
  let recognizerErrors = '';
  recognizer.stderr.on('data', (data: Buffer) => {
    recognizerErrors = (recognizerErrors + data.toString()).slice(-2000);
  });
  const lines = createInterface({ input: recognizer.stdout });
  lines.on('line', (line) => {
    let message: { type?: string; text?: string; start?: number; end?: number };
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    const text = message.text?.trim() ?? '';
    if (message.type === 'partial' && text) options.onPartial?.(text);
    else if (message.type === 'final' && text)
      options.onUtterance(text, { start: message.start ?? 0, end: message.end ?? 0 });
  });
  let converterErrors = '';
  if (converter) {
    converter.on('error', fail);
    converter.stdin.on('error', () => {});
    converter.stderr.on('data', (data: Buffer) => {
      converterErrors = (converterErrors + data.toString()).slice(-2000);
    });
    converter.stdout.on('data', (data: Buffer) => {
      pcmBytes += data.length;
    });
    converter.stdout.pipe(recognizer.stdin);
  }
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('close', (code) => resolve(code));
    });
  const recognizerDone = Promise.all([exited(recognizer), new Promise((r) => lines.once('close', r))]);

  return {
    write(chunk) {
      inputBytes += chunk.length;
      if (converter) return converter.stdin.write(chunk);
      pcmBytes += chunk.length;
      return recognizer.stdin.write(chunk);
    },
    drained() {
      const input = converter ? converter.stdin : recognizer.stdin;
      if (!input.writableNeedDrain || input.destroyed) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          input.off('drain', done);
          input.off('close', done);
          resolve();
        };
        input.once('drain', done);
        input.once('close', done);
      });
    },
    async finish() {
      if (converter && inputBytes === 0) {
        // No audio at all: nothing to decode (ffmpeg would fail on an empty container), nothing to report.
        killQuietly(converter);
        converter.stdout.unpipe(recognizer.stdin);
        recognizer.stdin.end();
      } else if (converter) {
        converter.stdin.end();
        const code = await exited(converter);
        if (code !== 0) {
          killQuietly(recognizer, true);
          throw new Error(
            `The audio could not be decoded: ${converterErrors.trim() || `ffmpeg exited ${code}`}`,
          );
        }
      } else recognizer.stdin.end();
      const [code] = await recognizerDone;
      if (failure) throw failure;
      if (code !== 0) {
        const detail = recognizerErrors.trim().split('\n').at(-1) ?? '';
        throw new Error(`The speech recognizer failed (exit ${code})${detail ? `: ${detail}` : ''}.`);
      }
    },
    abort() {
      if (converter) killQuietly(converter);
      killQuietly(recognizer, true);
    },
    get seconds() {
      return pcmBytes / PCM_BYTES_PER_SECOND;
    },
  };
}
