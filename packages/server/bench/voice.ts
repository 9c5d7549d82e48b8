/**
 * Voice benchmark: real-time factor of a session (audio streamed as fast as the socket takes it, until
 * end_of_stream) against pocketsphinx_continuous run directly on the same raw file (the baseline, measured in
 * the same run), and the latency from the end of an utterance to its final transcript when audio is streamed
 * at real-time pace (100 ms chunks every 100 ms, 1.5 s of silence after each utterance).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { startServer } from '../src/index.js';

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

// Baseline: the recognizer alone on the file.
let start = process.hrtime.bigint();
spawnSync('bash', ['-c', `pocketsphinx_continuous -infile ${join(dir, 'all.raw')} -logfn /dev/null`]);
const baselineMs = ms(start);

const server = await startServer({ dataDir: dir, port: 0, freePort: 0, host: '127.0.0.1', logger: false });
const open = async (targets: string[]) => {
  const reply = await fetch(`${server.url}/v3/voice/realtime`, {
    method: 'POST',
    headers: { authorization: `Service-Auth-Key ${server.devKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source_media_content_type: 'audio/pcm;rate=16000', target_languages: targets }),
  });
  const { streaming_url } = (await reply.json()) as { streaming_url: string };
  const socket = new WebSocket(streaming_url);
  await new Promise((resolve) => socket.once('open', resolve));
  return socket;
};

// Real-time factor: as fast as possible, with a Spanish translation per utterance.
const fast = await open(['es']);
start = process.hrtime.bigint();
const fastDone = new Promise<void>((resolve) => fast.on('close', () => resolve()));
for (let i = 0; i < audio.length; i += 8192) fast.send(audio.subarray(i, i + 8192));
fast.send(JSON.stringify({ type: 'end_of_source_media' }));
await fastDone;
const sessionMs = ms(start);

// Latency at real-time pace.
const paced = await open([]);
const latencies: number[] = [];
let speechEnd = process.hrtime.bigint();
paced.on('message', (data) => {
  const message = JSON.parse(data.toString()) as { type: string };
  if (message.type === 'transcript') latencies.push(ms(speechEnd));
});
const chunk = 3200;
const sleep = (time: number) => new Promise((resolve) => setTimeout(resolve, time));
for (const utterance of utterances) {
  for (let i = 0; i < utterance.length; i += chunk) {
    paced.send(utterance.subarray(i, i + chunk));
    await sleep(100);
  }
  speechEnd = process.hrtime.bigint();
  for (let i = 0; i < silence.length; i += chunk) {
    paced.send(silence.subarray(i, i + chunk));
    await sleep(100);
  }
}
const pacedDone = new Promise<void>((resolve) => paced.on('close', () => resolve()));
paced.send(JSON.stringify({ type: 'end_of_source_media' }));
await pacedDone;
await server.close();
rmSync(dir, { recursive: true, force: true });

const sorted = [...latencies].sort((a, b) => a - b);
console.log(`voice: ${SENTENCES.length} flite utterances, ${audioSeconds.toFixed(1)} s of audio`);
console.log(
  `  pocketsphinx alone (baseline): ${baselineMs.toFixed(0)} ms, RTF ${(baselineMs / 1000 / audioSeconds).toFixed(3)}`,
);
console.log(
  `  session (WebSocket + pocketsphinx + Apertium es): ${sessionMs.toFixed(0)} ms, RTF ${(sessionMs / 1000 / audioSeconds).toFixed(3)}, ` +
    `${(sessionMs / baselineMs).toFixed(2)}× the baseline`,
);
console.log(
  `  end of utterance → final transcript at real-time pace: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, ` +
    `max ${sorted.at(-1)?.toFixed(0)} ms (${latencies.length}/${SENTENCES.length} utterances)`,
);
