/**
 * Memory of a running server with the language tools loaded: RSS of the server process after start
 * (baseline, same run), after the English checker (Harper) is loaded by a correct request, after language
 * detection is loaded, and after 300 more write requests (growth would mean a leak). The Hunspell and
 * Grammalecte helper processes are measured separately. Target: the server under 1 GiB with English loaded.
 * Run: pnpm bench (or npx tsx --conditions @glossa/source bench/write-memory.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@glossa/server';
import { BENCH_SERVER_OPTIONS } from '../../server/bench/bench-server.js';
import { languageToolsFeature } from '../src/index.js';

const dataDir = mkdtempSync(join(tmpdir(), 'glossa-bench-memory-'));
const server = await startServer({
  dataDir,
  ...BENCH_SERVER_OPTIONS,
  features: [languageToolsFeature()],
});
const post = async (path: string, json: unknown) => {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Service-Auth-Key ${server.devKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
};
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const rss = () => {
  globalThis.gc?.();
  return process.memoryUsage().rss;
};

/** RSS of this process's child processes (Hunspell, Grammalecte), from /proc. */
function childrenRss(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) !== process.pid) continue;
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {}
  }
  return total;
}

const baseline = rss();
console.log(`server started: ${mib(baseline)} RSS (baseline)`);
await post('/v2/write/correct', {
  text: ['This are a example of a sentence with a error.'],
  target_lang: 'en-US',
});
const english = rss();
console.log(
  `English checker loaded: ${mib(english)} RSS; ratio to baseline ${(english / baseline).toFixed(2)}`,
);
await post('/v3/detect/language', { text: ['Das ist ein ganz normaler deutscher Satz über das Wetter.'] });
const detection = rss();
console.log(`plus language detection: ${mib(detection)} RSS`);
const sentences = [
  'I recieved teh package yesterday and it were broken.',
  'The color of the center is gray.',
  "We don't think it's ready, but it's kind of good.",
  'Their going to the the store after work.',
];
for (let round = 0; round < 300; round++) {
  const text = `${sentences[round % sentences.length]} (${round})`;
  await post(round % 2 ? '/v2/write/rephrase' : '/v2/write/correct', {
    text: [text],
    target_lang: round % 3 ? 'en-US' : 'en-GB',
    ...(round % 2 ? { writing_style: 'business' } : {}),
  });
}
const after = rss();
console.log(`after 300 more write requests: ${mib(after)} RSS (growth ${mib(after - detection)})`);
// Responsiveness: Harper runs in a worker thread, so a 10 KiB correct must not stall other requests.
const usage = async () => {
  const started = performance.now();
  await fetch(`${server.url}/v2/usage`, { headers: { authorization: `Service-Auth-Key ${server.devKey}` } });
  return performance.now() - started;
};
const idle = await usage();
const long = 'The quick brown fox jumps over the lazy dog. I recieved teh package. '
  .repeat(150)
  .slice(0, 10_000);
const started = performance.now();
const inFlight = post('/v2/write/correct', { text: [long], target_lang: 'en-US' });
await new Promise((resolve) => setTimeout(resolve, 200));
const during = await usage();
await inFlight;
console.log(
  `GET /v2/usage during a 10 KiB English correct (${(performance.now() - started).toFixed(0)} ms): ${during.toFixed(1)} ms; idle ${idle.toFixed(1)} ms`,
);
await post('/v2/write/correct', { text: ['Les chat mange la souris.'], target_lang: 'fr' });
await post('/v2/write/correct', { text: ['Ich habe meinen Schirm vergesen.'], target_lang: 'de' });
console.log(`helper processes (Grammalecte, Hunspell de): ${mib(childrenRss())} RSS; server ${mib(rss())}`);
console.log(`target: server with English loaded under 1024 MiB: ${after < 2 ** 30 ? 'met' : 'NOT met'}`);
await server.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
