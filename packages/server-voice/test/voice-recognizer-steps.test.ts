/**
 * The recognizer helper decodes its audio in 100 ms steps at fixed offsets of the audio, whatever its pipe's
 * reads hold: the same audio gives the same utterances, spans included, however it is written (at once, or
 * in uneven pieces the helper reads one by one). A voice job resumed after a kill recognizes its remaining
 * chunks with new helpers: a step grid that followed the reads (the first read is what the helper's
 * settings line left in its buffer) moved a span by up to 0.1 s, and the resumed job's subtitles with it
 * (00:00:07,722 against the uninterrupted 07,700). Real pocketsphinx.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startRecognizer } from '../src/recognizer.js';
import { fliteWav } from './voice-helpers.js';

/** 16 kHz s16le, the flite WAV's 44-byte header dropped. */
const pcmOf = (wav: Buffer) => wav.subarray(44);
let pcm: Buffer;
beforeAll(() => {
  const silence = Buffer.alloc(32_000);
  pcm = Buffer.concat([
    pcmOf(fliteWav('the weather was cold and windy all day.')),
    silence,
    pcmOf(fliteWav('open the settings menu and choose a language.')),
  ]);
});

interface Heard {
  text: string;
  start: number;
  end: number;
}

/** The utterances of `pcm` written in `pieces` (byte lengths, repeated), `pauseMs` apart. */
async function recognize(pieces: readonly number[], pauseMs: number): Promise<Heard[]> {
  const heard: Heard[] = [];
  const recognizer = startRecognizer({
    inputType: null,
    onUtterance: (text, span) => heard.push({ text, ...span }),
  });
  for (let at = 0, index = 0; at < pcm.length; index++) {
    const size = pieces[index % pieces.length]!;
    if (!recognizer.write(pcm.subarray(at, at + size))) await recognizer.drained();
    at += size;
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  await recognizer.finish();
  return heard;
}

/** Whether `seconds` is a whole number of 100 ms steps. */
const onSteps = (seconds: number) => Math.abs(seconds * 10 - Math.round(seconds * 10)) < 1e-9;

describe('the recognizer helper’s steps', () => {
  it('the same utterances and spans whether the audio is written at once or in uneven pieces, its spans on the 100 ms steps of the audio', async () => {
    const atOnce = await recognize([pcm.length], 0);
    expect(atOnce.map((utterance) => utterance.text)).toEqual([
      expect.stringMatching(/^the weather was cold/),
      expect.stringMatching(/^open the settings menu/),
    ]);
    // An utterance opens at a step (0.1 s back) and closes after one, or at the end of the audio.
    for (const { start, end } of atOnce) {
      expect(onSteps(start), `start ${start}`).toBe(true);
      expect(onSteps(end) || end === pcm.length / 32_000, `end ${end}`).toBe(true);
    }
    // Pieces that are no whole steps, each read on its own (the pause) or several in one read.
    expect(await recognize([1_000, 4_410, 704], 5)).toEqual(atOnce);
    expect(await recognize([33_333, 1_602], 0)).toEqual(atOnce);
  }, 60_000);
});
