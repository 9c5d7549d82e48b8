/**
 * Word error rate of the voice recognizer on real recorded English speech (bench/real-speech: 25 sentences
 * read by people, 20 from LJ Speech, 5 from LibriVox). Each recording goes through the recognizer helper the
 * server runs (`startRecognizer`: ffmpeg decodes the FLAC, pocketsphinx as a library) and, as the baseline,
 * through `pocketsphinx_continuous` with the same en-us model on the same 16 kHz audio: the engine run as its
 * own command-line tool. Prints the WER per sentence, per source and over the corpus (edits / reference words),
 * the real-time factors, and the ratios against the baseline.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decoderInput, ENGLISH_MODEL, startRecognizer } from '../src/recognizer.js';
import { wordErrorRate } from '../test/voice-helpers.js';

const corpus = new URL('./real-speech/', import.meta.url);
const sentences = readFileSync(new URL('transcripts.tsv', corpus), 'utf8')
  .trim()
  .split('\n')
  .map((line) => {
    const [id, reference] = line.split('\t') as [string, string];
    return { id, reference, flac: readFileSync(new URL(`${id}.flac`, corpus)) };
  });
const scratch = mkdtempSync(join(tmpdir(), 'glossa-wer-'));
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function throughRecognizer(flac: Buffer): Promise<string> {
  const utterances: string[] = [];
  const recognizer = startRecognizer({
    inputType: decoderInput('audio/flac')!,
    onUtterance: (text) => utterances.push(text),
  });
  recognizer.write(flac);
  await recognizer.finish();
  return utterances.join(' ');
}

function throughContinuous(flac: Buffer): string {
  const raw = join(scratch, 'sentence.raw');
  writeFileSync(
    raw,
    execFileSync(
      'ffmpeg',
      ['-loglevel', 'error', '-i', 'pipe:0', '-f', 's16le', '-ar', '16000', '-ac', '1', 'pipe:1'],
      {
        input: flac,
      },
    ),
  );
  const run = spawnSync(
    'pocketsphinx_continuous',
    [
      '-hmm',
      ENGLISH_MODEL.hmm,
      '-lm',
      ENGLISH_MODEL.lm,
      '-dict',
      ENGLISH_MODEL.dict,
      '-infile',
      raw,
      '-logfn',
      '/dev/null',
    ],
    { encoding: 'utf8' },
  );
  return run.stdout.split('\n').join(' ');
}

interface Tally {
  edits: number;
  words: number;
  ms: number;
}
const tally = (): Tally => ({ edits: 0, words: 0, ms: 0 });
const ours = { all: tally(), ljspeech: tally(), librivox: tally() };
const baseline = { all: tally(), ljspeech: tally(), librivox: tally() };
let audioSeconds = 0;

console.log('sentence        words  WER ours  WER baseline  transcript (ours)');
for (const { id, reference, flac } of sentences) {
  const source = id.startsWith('LJ') ? 'ljspeech' : 'librivox';
  const words = reference.split(/\s+/).length;
  // 16 kHz s16le: the recognizer's input, to know the audio's length.
  audioSeconds +=
    execFileSync(
      'ffmpeg',
      ['-loglevel', 'error', '-i', 'pipe:0', '-f', 's16le', '-ar', '16000', '-ac', '1', 'pipe:1'],
      {
        input: flac,
        maxBuffer: 64 << 20,
      },
    ).length / 32_000;

  let start = process.hrtime.bigint();
  const hypothesis = await throughRecognizer(flac);
  const oursMs = ms(start);
  start = process.hrtime.bigint();
  const baselineHypothesis = throughContinuous(flac);
  const baselineMs = ms(start);

  const oursWer = wordErrorRate(reference, hypothesis);
  const baselineWer = wordErrorRate(reference, baselineHypothesis);
  for (const [totals, wer, time] of [
    [ours, oursWer, oursMs],
    [baseline, baselineWer, baselineMs],
  ] as const) {
    for (const key of ['all', source] as const) {
      totals[key].edits += wer * words;
      totals[key].words += words;
      totals[key].ms += time;
    }
  }
  console.log(
    `${id.padEnd(15)} ${String(words).padStart(5)}  ${oursWer.toFixed(3).padStart(8)}  ${baselineWer.toFixed(3).padStart(12)}  ${hypothesis}`,
  );
}
rmSync(scratch, { recursive: true, force: true });

const wer = (t: Tally) => t.edits / t.words;
console.log(
  `\n${sentences.length} real recordings, ${ours.all.words} words, ${audioSeconds.toFixed(1)} s of audio`,
);
for (const key of ['ljspeech', 'librivox', 'all'] as const) {
  console.log(
    `  WER ${key.padEnd(8)}: recognizer ${wer(ours[key]).toFixed(3)}, pocketsphinx_continuous (baseline) ${wer(baseline[key]).toFixed(3)}, ratio ${(wer(ours[key]) / wer(baseline[key])).toFixed(2)}`,
  );
}
console.log(
  `  real-time factor: recognizer ${(ours.all.ms / 1000 / audioSeconds).toFixed(3)}, baseline ${(baseline.all.ms / 1000 / audioSeconds).toFixed(3)}, ratio ${(ours.all.ms / baseline.all.ms).toFixed(2)}`,
);
