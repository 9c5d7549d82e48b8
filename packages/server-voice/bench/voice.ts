/**
 * Voice benchmark, on four flite kal16 utterances with 1.5 s of silence after each:
 * - real-time factor (processing time / audio duration) of the recognizer helper alone (pocketsphinx as a
 *   library, with partial hypotheses) against `pocketsphinx_continuous` on the same raw audio (the previous
 *   path, measured in the same run), and of a whole session (WebSocket + recognizer + Apertium es);
 * - at real-time pace (100 ms chunks every 100 ms), the latency from the end of each utterance to its final
 *   transcript, for a session and for `pocketsphinx_continuous` fed the same way, and the delay from the
 *   start of speech to the first partial transcript; the same with 48 kHz PCM, which goes through ffmpeg.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startServer } from '@glossa/server';
import { WebSocket } from 'ws';
import { voiceFeature } from '../src/index.js';
import { startRecognizer } from '../src/recognizer.js';

const SENTENCES = [
  'The weather is nice today and I would like to go for a walk in the park.',
  'Please send me the report before the meeting tomorrow morning.',
  'The train to the airport leaves at nine from the central station.',
  'We need to buy some bread, milk and eggs for breakfast.',
];
const dir = mkdtempSync(join(tmpdir(), 'glossa-voice-bench-'));
const pcm = (text: string) => {
  const wav = join(dir, 'sentence.wav');
  execFileSync('flite', ['-voice', 'kal16', '-t', text, '-o', wav]);
  return readFileSync(wav).subarray(44);
};
const utterances = SENTENCES.map(pcm);
const silence = Buffer.alloc(32_000 * 1.5);
const audio = Buffer.concat(utterances.flatMap((u) => [u, silence]));
const audioSeconds = audio.length / 32_000;
writeFileSync(join(dir, 'all.raw'), audio);

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const sleep = (time: number) => new Promise((resolve) => setTimeout(resolve, time));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const rtf = (milliseconds: number) => (milliseconds / 1000 / audioSeconds).toFixed(3);

// 1. Batch real-time factors: the previous path, then the helper alone.
let start = process.hrtime.bigint();
spawnSync('bash', ['-c', `pocketsphinx_continuous -infile ${join(dir, 'all.raw')} -logfn /dev/null`]);
const continuousMs = ms(start);

start = process.hrtime.bigint();
let helperFinals = 0;
const helper = startRecognizer({ inputType: null, onUtterance: () => helperFinals++ });
helper.write(audio);
await helper.finish();
const helperMs = ms(start);

// 2. A whole session as fast as the socket takes it, with a Spanish translation per utterance.
const server = await startServer({
  dataDir: dir,
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  features: [voiceFeature()],
});
const open = async (targets: string[], type = 'audio/pcm;encoding=s16le;rate=16000') => {
  const reply = await fetch(`${server.url}/v3/voice/realtime`, {
    method: 'POST',
    headers: { authorization: `Service-Auth-Key ${server.devKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source_media_content_type: type, target_languages: targets }),
  });
  const { streaming_url } = (await reply.json()) as { streaming_url: string };
  const socket = new WebSocket(streaming_url);
  await new Promise((resolve) => socket.once('open', resolve));
  return socket;
};
const fast = await open(['es']);
start = process.hrtime.bigint();
const fastDone = new Promise<void>((resolve) => fast.on('close', () => resolve()));
for (let i = 0; i < audio.length; i += 8192) fast.send(audio.subarray(i, i + 8192));
fast.send(JSON.stringify({ type: 'end_of_source_media' }));
await fastDone;
const sessionMs = ms(start);

/** Feeds the utterances at real-time pace; `speechEnd`/`speechStart` mark the moments being measured. */
const marks = { speechStart: 0n, speechEnd: 0n };
/** 48 kHz s16le copies: a declared type that goes through ffmpeg, with the same timing. */
const to48k = (raw: Buffer) =>
  execFileSync(
    'ffmpeg',
    [
      '-loglevel',
      'error',
      '-f',
      's16le',
      '-ar',
      '16000',
      '-ac',
      '1',
      '-i',
      'pipe:0',
      '-f',
      's16le',
      '-ar',
      '48000',
      'pipe:1',
    ],
    { input: raw },
  );
const at48k = { utterances: utterances.map(to48k), silence: to48k(silence) };
async function paced(send: (chunk: Buffer) => void, rate: 16 | 48 = 16): Promise<void> {
  const chunk = rate * 200;
  const source = rate === 16 ? { utterances, silence } : at48k;
  for (const utterance of source.utterances) {
    marks.speechStart = process.hrtime.bigint();
    for (let i = 0; i < utterance.length; i += chunk) {
      send(utterance.subarray(i, i + chunk));
      await sleep(100);
    }
    marks.speechEnd = process.hrtime.bigint();
    for (let i = 0; i < source.silence.length; i += chunk) {
      send(source.silence.subarray(i, i + chunk));
      await sleep(100);
    }
  }
}

// 3. Latency at real-time pace through a session (no translation): 16 kHz PCM straight to the recognizer,
// then 48 kHz PCM through ffmpeg.
async function pacedSession(rate: 16 | 48) {
  const session = await open([], `audio/pcm;encoding=s16le;rate=${rate}000`);
  const latencies: number[] = [];
  const partials: number[] = [];
  let waitingForPartial = true;
  session.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string };
    if (message.type === 'partial' && waitingForPartial) {
      partials.push(ms(marks.speechStart));
      waitingForPartial = false;
    }
    if (message.type === 'transcript') {
      latencies.push(ms(marks.speechEnd));
      waitingForPartial = true;
    }
  });
  const done = new Promise<void>((resolve) => session.on('close', () => resolve()));
  await paced((chunk) => session.send(chunk), rate);
  session.send(JSON.stringify({ type: 'end_of_source_media' }));
  await done;
  return { latencies, partials };
}
const { latencies: sessionLatencies, partials: firstPartials } = await pacedSession(16);
const ffmpegPath = await pacedSession(48);
await server.close();

// 4. The same for pocketsphinx_continuous (behind `cat`, as the previous server ran it).
const continuous: ChildProcess = spawn(
  'bash',
  ['-c', 'cat | pocketsphinx_continuous -infile /dev/stdin -logfn /dev/null'],
  { stdio: ['pipe', 'pipe', 'ignore'] },
);
const continuousLatencies: number[] = [];
createInterface({ input: continuous.stdout! }).on('line', (line) => {
  if (line.trim()) continuousLatencies.push(ms(marks.speechEnd));
});
const continuousDone = new Promise((resolve) => continuous.once('close', resolve));
await paced((chunk) => continuous.stdin!.write(chunk));
continuous.stdin!.end();
await continuousDone;
rmSync(dir, { recursive: true, force: true });

console.log(`voice: ${SENTENCES.length} flite utterances, ${audioSeconds.toFixed(1)} s of audio`);
console.log(
  `  pocketsphinx_continuous (baseline, previous path): ${continuousMs.toFixed(0)} ms, RTF ${rtf(continuousMs)}`,
);
console.log(
  `  recognizer helper (library, partials): ${helperMs.toFixed(0)} ms, RTF ${rtf(helperMs)}, ` +
    `${(helperMs / continuousMs).toFixed(2)}× the baseline (${helperFinals} finals)`,
);
console.log(
  `  session (WebSocket + helper + Apertium es): ${sessionMs.toFixed(0)} ms, RTF ${rtf(sessionMs)}, ` +
    `${(sessionMs / continuousMs).toFixed(2)}× the baseline`,
);
const sessionMedian = median(sessionLatencies);
const continuousMedian = median(continuousLatencies);
console.log(
  `  end of utterance → final transcript at real-time pace: session median ${sessionMedian.toFixed(0)} ms, ` +
    `max ${Math.max(...sessionLatencies).toFixed(0)} ms (${sessionLatencies.length}/${SENTENCES.length}); ` +
    `pocketsphinx_continuous median ${continuousMedian.toFixed(0)} ms ` +
    `(${continuousLatencies.length}/${SENTENCES.length}); ratio ${(sessionMedian / continuousMedian).toFixed(2)}`,
);
console.log(
  `  start of speech → first partial: median ${median(firstPartials).toFixed(0)} ms ` +
    `(${firstPartials.length}/${SENTENCES.length} utterances)`,
);
console.log(
  `  through ffmpeg (48 kHz PCM): end of utterance → final transcript median ${median(ffmpegPath.latencies).toFixed(0)} ms, ` +
    `max ${Math.max(...ffmpegPath.latencies).toFixed(0)} ms (${ffmpegPath.latencies.length}/${SENTENCES.length}); ` +
    `start of speech → first partial median ${median(ffmpegPath.partials).toFixed(0)} ms`,
);
