/**
 * A voice job's audio recognized in chunks, with a checkpoint after each one (issue 32): a job taken over
 * (its instance killed, or restarted) recognizes only the chunks its last attempt had not saved.
 *
 * The chunks are cut where the audio is quietest, deterministically: from a chunk's start, the next cut is
 * the middle of the quietest 100 ms frame between half the chunk length and the whole of it (the first such
 * frame on a tie). Each chunk is recognized by a recognizer of its own, so an attempt that resumes at a cut
 * recognizes the rest exactly as an uninterrupted attempt does: the result is the same, byte for byte.
 */
import { type RecognizerOptions, startRecognizer, type UtteranceSpan } from './recognizer.js';

/** 16 kHz × 2 bytes. */
const BYTES_PER_SECOND = 32_000;
/** 100 ms of 16 kHz s16le. */
const FRAME_BYTES = 3_200;
/** Seconds of audio per chunk by default (`voiceFeature({ jobChunkSeconds })`). */
export const DEFAULT_CHUNK_SECONDS = 60;

/** An utterance of a job, its span in seconds from the start of the whole audio. */
export interface JobUtterance {
  readonly text: string;
  readonly span: UtteranceSpan;
}

/** What a voice job saves after each chunk: where the next chunk starts, and what was recognized before. */
export interface VoiceCheckpoint {
  /** Byte offset of the next chunk in the job's 16 kHz s16le audio. */
  readonly offset: number;
  /** Chunks recognized so far (by every attempt). */
  readonly chunks: number;
  readonly utterances: readonly JobUtterance[];
}

/** Sum of |sample| of the frame at `start` (`end` exclusive). */
function energy(pcm: Buffer, start: number, end: number): number {
  let sum = 0;
  for (let at = start; at + 1 < end; at += 2) sum += Math.abs(pcm.readInt16LE(at));
  return sum;
}

/** Where the chunk starting at `start` ends (an even byte offset; `pcm.length` for the last one). */
export function chunkEnd(pcm: Buffer, start: number, chunkBytes: number): number {
  if (start + chunkBytes >= pcm.length) return pcm.length;
  const from = start + Math.floor(chunkBytes / 2 / FRAME_BYTES) * FRAME_BYTES;
  let best = -1;
  let bestEnergy = Number.POSITIVE_INFINITY;
  for (let frame = from; frame + FRAME_BYTES <= start + chunkBytes; frame += FRAME_BYTES) {
    const value = energy(pcm, frame, frame + FRAME_BYTES);
    if (value < bestEnergy) {
      bestEnergy = value;
      best = frame;
    }
  }
  return best < 0 ? start + chunkBytes - (chunkBytes % 2) : best + FRAME_BYTES / 2;
}

export interface ChunkedOptions {
  /** The job's audio, 16 kHz mono s16le. */
  readonly pcm: Buffer;
  /** Seconds of audio per chunk (at most; cut where it is quietest in its second half). */
  readonly chunkSeconds: number;
  /** Where the previous attempt stopped (undefined: from the start). */
  readonly from: VoiceCheckpoint | undefined;
  readonly words?: RecognizerOptions['words'];
  /** Cancelled, or this instance closing: the recognizer stops, and the attempt with it. */
  readonly signal: AbortSignal;
  /** Called after each chunk with the checkpoint to save (a throw, e.g. superseded, stops the attempt). */
  readonly saved: (checkpoint: VoiceCheckpoint) => Promise<void>;
}

/** Every utterance of the audio, in order, recognizing only the chunks after `from`. */
export async function recognizeInChunks(options: ChunkedOptions): Promise<JobUtterance[]> {
  const { pcm, signal } = options;
  const chunkBytes = Math.max(FRAME_BYTES * 2, Math.round(options.chunkSeconds * BYTES_PER_SECOND));
  let checkpoint: VoiceCheckpoint = options.from ?? { offset: 0, chunks: 0, utterances: [] };
  while (checkpoint.offset < pcm.length) {
    signal.throwIfAborted();
    const start = checkpoint.offset;
    const end = chunkEnd(pcm, start, chunkBytes);
    const startSeconds = start / BYTES_PER_SECOND;
    const found: JobUtterance[] = [];
    const recognizer = startRecognizer({
      inputType: null,
      ...(options.words ? { words: options.words } : {}),
      onUtterance: (text, span) =>
        found.push({
          text,
          span: { start: startSeconds + span.start, end: startSeconds + span.end },
        }),
    });
    const stop = () => recognizer.abort();
    signal.addEventListener('abort', stop);
    try {
      recognizer.write(pcm.subarray(start, end));
      await recognizer.finish();
    } finally {
      signal.removeEventListener('abort', stop);
    }
    signal.throwIfAborted();
    checkpoint = {
      offset: end,
      chunks: checkpoint.chunks + 1,
      utterances: [...checkpoint.utterances, ...found],
    };
    await options.saved(checkpoint);
  }
  return [...checkpoint.utterances];
}

/** Seconds of 16 kHz s16le audio in `pcm` (what a job's minutes count). */
export const secondsOfPcm = (pcm: Buffer): number => pcm.length / BYTES_PER_SECOND;
