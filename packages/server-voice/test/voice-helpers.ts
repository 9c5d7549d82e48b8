import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';

/** English speech from Debian's flite (voice kal16: 16 kHz mono WAV), made at test time. */
export function fliteWav(text: string): Buffer {
  const file = join(mkdtempSync(join(tmpdir(), 'glossa-voice-')), 'speech.wav');
  execFileSync('flite', ['-voice', 'kal16', '-t', text, '-o', file]);
  return readFileSync(file);
}

/** WAVs with 44-byte headers (as flite writes them) joined into one, its header giving the summed size. */
export function joinWavs(...wavs: Buffer[]): Buffer {
  const header = Buffer.from(wavs[0]!.subarray(0, 44));
  const data = Buffer.concat(wavs.map((wav) => wav.subarray(44)));
  header.writeUInt32LE(36 + data.length, 4);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** POST /v3/voice/jobs with multipart `fields` and an audio `file` part; the reply's status and JSON. */
export async function uploadVoiceJob(
  baseUrl: string,
  key: string,
  fields: [string, string][],
  file: Buffer | undefined,
  name = 'speech.wav',
): Promise<{ status: number; data: Message }> {
  const form = new FormData();
  for (const [field, value] of fields) form.append(field, value);
  if (file) form.append('file', new Blob([file]), name);
  const reply = await fetch(`${baseUrl}/v3/voice/jobs`, {
    method: 'POST',
    headers: { authorization: `Service-Auth-Key ${key}` },
    body: form,
  });
  return { status: reply.status, data: await reply.json() };
}

/** Word error rate: word-level edit distance over the reference length. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const a = words(reference);
  const b = words(hypothesis);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]! / a.length;
}

// biome-ignore lint/suspicious/noExplicitAny: server messages are read as JSON
export type Message = any;

export interface StreamResult {
  messages: Message[];
  closeCode: number;
}

/**
 * Streams audio in chunks (`pauseMs` apart), then end_of_source_media; resolves with every JSON message and
 * the close code.
 */
export async function streamAudio(
  url: string,
  audio: Buffer,
  chunk = 8192,
  pauseMs = 2,
): Promise<StreamResult> {
  const socket = new WebSocket(url);
  const messages: Message[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data, isBinary) => {
    if (!isBinary) messages.push(JSON.parse(data.toString()));
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  for (let i = 0; i < audio.length && socket.readyState === socket.OPEN; i += chunk) {
    socket.send(audio.subarray(i, i + chunk));
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ type: 'end_of_source_media' }));
  return { messages, closeCode: await closed };
}

/** Opens a socket and waits for its close, collecting messages (for refused tokens). */
export async function openAndWait(url: string): Promise<StreamResult> {
  const socket = new WebSocket(url);
  const messages: Message[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
  const closeCode = await new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return { messages, closeCode };
}

/** Recognizer helpers (`glossa-asr`, see src/voice/recognizer-script.ts) descended from this process. */
export function recognizers(): string[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/));
  const ours = new Set([String(process.pid)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid = '', ppid = ''] of rows)
      if (ours.has(ppid) && !ours.has(pid)) {
        ours.add(pid);
        grew = true;
      }
  }
  return rows
    .filter(([pid = '', , comm = '']) => ours.has(pid) && comm === 'glossa-asr')
    .map((row) => row[0]!);
}

/** `audio` (any container ffmpeg reads, on stdin) converted with ffmpeg's output `args` (to stdout). */
export function ffmpegConvert(audio: Buffer, args: readonly string[], input: readonly string[] = []): Buffer {
  return execFileSync(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-nostdin', ...input, '-i', 'pipe:0', ...args, 'pipe:1'],
    { input: audio, maxBuffer: 64 * 1024 * 1024 },
  );
}

export interface Probed {
  /** ffprobe's format name (`ogg`, `matroska,webm`, `mpegts`, `flac`...). */
  format: string;
  codec: string;
  sampleRate: number;
  channels: number;
  /** Seconds, from the decoded samples. */
  seconds: number;
}

/** What ffprobe sees in `audio` (`input`: options for headerless PCM), and its length decoded. */
export function probeAudio(audio: Buffer, input: readonly string[] = []): Probed {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-probe-'));
  const file = join(dir, 'audio');
  writeFileSync(file, audio);
  const info = JSON.parse(
    execFileSync(
      'ffprobe',
      [
        '-v',
        'error',
        ...input,
        '-show_entries',
        'format=format_name:stream=codec_name,sample_rate,channels',
        '-of',
        'json',
        file,
      ],
      { encoding: 'utf8' },
    ),
  );
  const stream = info.streams?.[0] ?? {};
  const pcm = execFileSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      ...input,
      '-i',
      file,
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      '16000',
      'pipe:1',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  rmSync(dir, { recursive: true, force: true });
  return {
    format: info.format?.format_name ?? '',
    codec: stream.codec_name ?? '',
    sampleRate: Number(stream.sample_rate),
    channels: Number(stream.channels),
    seconds: pcm.length / 32_000,
  };
}
