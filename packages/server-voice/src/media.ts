/**
 * The media types of the public description, decoded and encoded with Debian's `ffmpeg`:
 * - `SOURCE_MEDIA_CONTENT_TYPES`: the 19 values `source_media_content_type` of a real-time session accepts,
 *   each with the ffmpeg input options that read it (`null`: raw 16 kHz s16le, the recognizer's own format);
 * - `TARGET_MEDIA_CONTENT_TYPES`: the 16 values of `target_media_content_type` (synthesized speech);
 * - `JOB_SOURCE_CONTENT_TYPES` / `JOB_TARGET_TYPES`: the source file types and the result types of an
 *   asynchronous voice translation job (`/v1/jobs/voice/translate`).
 * Types are matched on their base and parameters, case, spaces and parameter order aside.
 */
import { spawn } from 'node:child_process';

/** ffmpeg options before `-i` for each declared source type. */
export const SOURCE_MEDIA_CONTENT_TYPES: Readonly<Record<string, readonly string[] | null>> = {
  // Probed: FLAC, Matroska/WebM, MPEG (MP3, M4A), Ogg, and whatever else ffmpeg recognizes.
  'audio/auto': [],
  'audio/flac': ['-f', 'flac'],
  // MP3 or M4A: the container is probed.
  'audio/mpeg': [],
  'audio/ogg': ['-f', 'ogg'],
  'audio/webm': ['-f', 'matroska'],
  'audio/x-matroska': ['-f', 'matroska'],
  'audio/ogg;codecs=flac': ['-f', 'ogg'],
  'audio/ogg;codecs=opus': ['-f', 'ogg'],
  'audio/pcm;encoding=alaw;rate=8000': ['-f', 'alaw', '-ar', '8000', '-ac', '1'],
  'audio/pcm;encoding=ulaw;rate=8000': ['-f', 'mulaw', '-ar', '8000', '-ac', '1'],
  'audio/pcm;encoding=s16le;rate=8000': ['-f', 's16le', '-ar', '8000', '-ac', '1'],
  'audio/pcm;encoding=s16le;rate=16000': null,
  'audio/pcm;encoding=s16le;rate=44100': ['-f', 's16le', '-ar', '44100', '-ac', '1'],
  'audio/pcm;encoding=s16le;rate=48000': ['-f', 's16le', '-ar', '48000', '-ac', '1'],
  'audio/webm;codecs=opus': ['-f', 'matroska'],
  'audio/x-matroska;codecs=aac': ['-f', 'matroska'],
  'audio/x-matroska;codecs=flac': ['-f', 'matroska'],
  'audio/x-matroska;codecs=mp3': ['-f', 'matroska'],
  'audio/x-matroska;codecs=opus': ['-f', 'matroska'],
};

/**
 * Source types accepted besides the declared ones: WAV, which the interface's own wire checks
 * (`shared/acceptance/voice.mjs`) and earlier clients send. ffmpeg reads its header.
 */
export const WAV_SOURCE_CONTENT_TYPES: Readonly<Record<string, readonly string[]>> = {
  'audio/wav': ['-f', 'wav'],
  'audio/x-wav': ['-f', 'wav'],
};

const OPUS = ['-c:a', 'libopus', '-b:a', '32k', '-ar', '24000'];
const FLAC = ['-c:a', 'flac', '-ar', '24000'];
const AAC = ['-c:a', 'aac', '-b:a', '70k', '-ar', '24000'];

/** ffmpeg output options for each declared speech type (as the description's table sets them). */
export const TARGET_MEDIA_CONTENT_TYPES: Readonly<Record<string, readonly string[]>> = {
  'audio/flac': ['-f', 'flac', ...FLAC],
  'video/mp2t;codecs=aac': ['-f', 'mpegts', ...AAC],
  'video/mp2t;codecs=opus': ['-f', 'mpegts', ...OPUS],
  'audio/ogg': ['-f', 'ogg', ...OPUS],
  'audio/ogg;codecs=flac': ['-f', 'ogg', ...FLAC],
  'audio/ogg;codecs=opus': ['-f', 'ogg', ...OPUS],
  // No container named: Ogg Opus (RFC 7845), the usual `.opus` file.
  'audio/opus': ['-f', 'opus', ...OPUS],
  'audio/pcm;encoding=alaw;rate=8000': ['-f', 'alaw', '-c:a', 'pcm_alaw', '-ar', '8000'],
  'audio/pcm;encoding=ulaw;rate=8000': ['-f', 'mulaw', '-c:a', 'pcm_mulaw', '-ar', '8000'],
  'audio/pcm;encoding=s16le;rate=16000': ['-f', 's16le', '-c:a', 'pcm_s16le', '-ar', '16000'],
  'audio/pcm;encoding=s16le;rate=24000': ['-f', 's16le', '-c:a', 'pcm_s16le', '-ar', '24000'],
  'audio/webm': ['-f', 'webm', ...OPUS],
  'audio/webm;codecs=opus': ['-f', 'webm', ...OPUS],
  'audio/x-matroska;codecs=aac': ['-f', 'matroska', ...AAC],
  'audio/x-matroska;codecs=flac': ['-f', 'matroska', ...FLAC],
  'audio/x-matroska;codecs=opus': ['-f', 'matroska', ...OPUS],
};

/** The speech type when `target_media_languages` is given without `target_media_content_type`. */
export const DEFAULT_TARGET_MEDIA_CONTENT_TYPE = 'audio/webm;codecs=opus';

/** Source file types of a voice translation job; all probed by ffmpeg from the whole file. */
export const JOB_SOURCE_CONTENT_TYPES = [
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/flac',
  'audio/mp4',
  'audio/webm',
] as const;

/** Result types of a voice translation job: text, subtitles, or the translation spoken. */
export const JOB_TARGET_TYPES: Readonly<Record<string, readonly string[] | 'text' | 'subrip'>> = {
  'text/plain': 'text',
  'application/x-subrip': 'subrip',
  'audio/opus': TARGET_MEDIA_CONTENT_TYPES['audio/opus']!,
  'audio/flac': TARGET_MEDIA_CONTENT_TYPES['audio/flac']!,
  'audio/pcm;encoding=s16le;rate=16000': TARGET_MEDIA_CONTENT_TYPES['audio/pcm;encoding=s16le;rate=16000']!,
  'audio/pcm;encoding=s16le;rate=24000': TARGET_MEDIA_CONTENT_TYPES['audio/pcm;encoding=s16le;rate=24000']!,
  'audio/pcm;encoding=ulaw;rate=8000': TARGET_MEDIA_CONTENT_TYPES['audio/pcm;encoding=ulaw;rate=8000']!,
  'audio/pcm;encoding=alaw;rate=8000': TARGET_MEDIA_CONTENT_TYPES['audio/pcm;encoding=alaw;rate=8000']!,
  'audio/x-matroska;codecs=aac': TARGET_MEDIA_CONTENT_TYPES['audio/x-matroska;codecs=aac']!,
  'audio/x-matroska;codecs=flac': TARGET_MEDIA_CONTENT_TYPES['audio/x-matroska;codecs=flac']!,
  'audio/x-matroska;codecs=opus': TARGET_MEDIA_CONTENT_TYPES['audio/x-matroska;codecs=opus']!,
  'audio/x-matroska;codecs=pcm_s16le;rate=16000': ['-f', 'matroska', '-c:a', 'pcm_s16le', '-ar', '16000'],
  'audio/x-matroska;codecs=pcm_s16le;rate=24000': ['-f', 'matroska', '-c:a', 'pcm_s16le', '-ar', '24000'],
  'video/mp2t;codecs=aac': TARGET_MEDIA_CONTENT_TYPES['video/mp2t;codecs=aac']!,
  'video/mp2t;codecs=opus': TARGET_MEDIA_CONTENT_TYPES['video/mp2t;codecs=opus']!,
  'audio/ogg;codecs=flac': TARGET_MEDIA_CONTENT_TYPES['audio/ogg;codecs=flac']!,
  'audio/ogg;codecs=opus': TARGET_MEDIA_CONTENT_TYPES['audio/ogg;codecs=opus']!,
  'audio/webm;codecs=opus': TARGET_MEDIA_CONTENT_TYPES['audio/webm;codecs=opus']!,
};

/** `audio/pcm; rate=16000;encoding=S16LE` → `audio/pcm;encoding=s16le;rate=16000` (parameters sorted). */
export function normalizeMediaType(value: string): string {
  const [base = '', ...parameters] = value.split(';').map((part) => part.trim().toLowerCase());
  const sorted = parameters
    .filter(Boolean)
    .map((parameter) => parameter.replace(/\s*=\s*/, '='))
    .sort();
  return [base, ...sorted].join(';');
}

/** The declared spelling of `value` among `declared` (compared normalized), or undefined. */
export function declaredMediaType(value: string, declared: Iterable<string>): string | undefined {
  const wanted = normalizeMediaType(value);
  for (const type of declared) if (normalizeMediaType(type) === wanted) return type;
  return undefined;
}

/** ffmpeg reading `input` options from stdin and writing raw 16 kHz mono s16le to stdout, as it arrives. */
export function decoderArgs(input: readonly string[]): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    // Start decoding after little input: a stream's first transcripts should not wait for probing. (Not
    // `-fflags nobuffer`: it drops the packets read while probing, the first seconds of speech.)
    ...['-probesize', '32768', '-analyzeduration', '0'],
    ...input,
    ...['-i', 'pipe:0', '-vn', '-ac', '1', '-ar', '16000', '-f', 's16le', '-flush_packets', '1', 'pipe:1'],
  ];
}

/** Runs ffmpeg on `input` (stdin) with `args`; resolves with its stdout, rejects with its last error line. */
export function runFfmpeg(args: readonly string[], input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let errors = '';
    child.stdout.on('data', (data: Buffer) => out.push(data));
    child.stderr.on('data', (data: Buffer) => {
      errors = (errors + data.toString()).slice(-2000);
    });
    child.on('error', reject);
    child.stdin.on('error', () => {});
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`ffmpeg exited ${code}: ${errors.trim().split('\n').at(-1) ?? ''}`));
    });
    child.stdin.end(input);
  });
}

/** Speech (a WAV file from espeak-ng) encoded as `args` say (an entry of `TARGET_MEDIA_CONTENT_TYPES`). */
export function encodeSpeech(wav: Buffer, args: readonly string[]): Promise<Buffer> {
  return runFfmpeg(['-f', 'wav', '-i', 'pipe:0', '-vn', '-ac', '1', ...args, 'pipe:1'], wav);
}

/** A whole audio file (any container ffmpeg probes: WAV, MP3, M4A, Ogg, FLAC, WebM...) as 16 kHz mono s16le. */
export async function decodeFile(path: string): Promise<Buffer> {
  try {
    return await runFfmpeg(
      ['-i', path, '-vn', '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1'],
      Buffer.alloc(0),
    );
  } catch (error) {
    throw new Error(`The audio could not be decoded: ${(error as Error).message}`);
  }
}
