/**
 * Streaming speech recognition with Debian's `pocketsphinx_continuous` (English, 16 kHz mono s16le) as a
 * long-lived child process reading raw audio on stdin; it prints one line per utterance (voice activity
 * detection splits the stream) as soon as the utterance ends. Audio in other containers (WAV, FLAC, Ogg) is
 * converted on the fly by a `sox` process piped in front of it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** 16 kHz × 2 bytes: PCM bytes per second of audio. */
export const PCM_BYTES_PER_SECOND = 32_000;

/** Media types a session accepts and the `sox` input type of each (`null`: already raw 16 kHz s16le). */
const MEDIA_TYPES: Record<string, string | null> = {
  'audio/pcm': null,
  'audio/l16': null,
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/ogg': 'ogg',
};

export const SUPPORTED_MEDIA_TYPES = Object.keys(MEDIA_TYPES);

/**
 * The `sox` input type for a media type, `null` for raw PCM, `undefined` when unsupported. Raw PCM must be
 * 16 kHz mono (parameters other than `rate=16000`, `channels=1` are refused).
 */
export function soxInputType(mediaType: string): string | null | undefined {
  const [base = '', ...parameters] = mediaType.split(';').map((part) => part.trim().toLowerCase());
  if (!(base in MEDIA_TYPES)) return undefined;
  const type = MEDIA_TYPES[base] ?? null;
  if (type === null) {
    for (const parameter of parameters) {
      if (parameter !== 'rate=16000' && parameter !== 'channels=1' && parameter !== 'encoding=s16le')
        return undefined;
    }
  }
  return type;
}

export interface RecognizerOptions {
  /** From `soxInputType`. */
  readonly inputType: string | null;
  /** A pronunciation dictionary to use instead of the model's (spoken terms add words to it). */
  readonly dictionary?: string;
  /** Called with each recognized utterance, in order. */
  readonly onUtterance: (text: string) => void;
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
  // `-infile /dev/stdin` must be a pipe (Node's stdio pipes are sockets, which /dev/stdin cannot reopen): a
  // `cat` in front provides one. The shell leads its own process group so `abort` kills both at once.
  const recognizer = spawn(
    'bash',
    [
      '-c',
      'cat | pocketsphinx_continuous -infile /dev/stdin -logfn /dev/null "$@"',
      'pocketsphinx',
      ...(options.dictionary ? ['-dict', options.dictionary] : []),
    ],
    { stdio: ['pipe', 'pipe', 'ignore'], detached: true },
  );
  const converter =
    options.inputType === null
      ? undefined
      : spawn(
          'sox',
          [
            '-q',
            '--buffer',
            '4096',
            '-t',
            options.inputType,
            '-',
            '-t',
            'raw',
            '-r',
            '16000',
            '-c',
            '1',
          ].concat(['-b', '16', '-e', 'signed-integer', '-L', '-']),
          { stdio: ['pipe', 'pipe', 'pipe'] },
        );
  let pcmBytes = 0;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
  };
  recognizer.on('error', fail);
  recognizer.stdin.on('error', () => {});
  const lines = createInterface({ input: recognizer.stdout });
  lines.on('line', (line) => {
    const text = line.trim();
    if (text) options.onUtterance(text);
  });
  let converterErrors = '';
  if (converter) {
    converter.on('error', fail);
    converter.stdin.on('error', () => {});
    converter.stderr.on('data', (data: Buffer) => {
      converterErrors += data.toString();
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
      if (converter) return converter.stdin.write(chunk);
      pcmBytes += chunk.length;
      return recognizer.stdin.write(chunk);
    },
    drained() {
      const input = converter ? converter.stdin : recognizer.stdin;
      if (!input.writableNeedDrain || input.destroyed) return Promise.resolve();
      return new Promise((resolve) => {
        input.once('drain', resolve);
        input.once('close', resolve);
      });
    },
    async finish() {
      if (converter) {
        converter.stdin.end();
        const code = await exited(converter);
        if (code !== 0) {
          killQuietly(recognizer, true);
          throw new Error(
            `The audio could not be decoded: ${converterErrors.trim() || `sox exited ${code}`}`,
          );
        }
      } else recognizer.stdin.end();
      const [code] = await recognizerDone;
      if (failure) throw failure;
      if (code !== 0) throw new Error(`The speech recognizer failed (exit ${code}).`);
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
