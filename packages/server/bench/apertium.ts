/**
 * Apertium en→es throughput: segments/s through the engine (and through the HTTP server when it is
 * available) against the raw null-flush pipeline, on the same 1,000 sentences (bench/apertium-sentences.txt).
 * Target: engine / raw ≥ 0.8. Rounds interleave all variants on warm pipelines; each line prints the best
 * segments/s and the median over rounds of (raw time / variant time) within the same round.
 *
 * Run: pnpm --filter @glossa/server bench   (or: npx tsx --conditions @glossa/source bench/apertium.ts)
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createApertiumEngine } from '../src/engines/apertium.js';
import { encodeSegment } from '../src/engines/apertium-format.js';
import { startBenchServer } from './bench-server.js';

const ROUNDS = 7;
const BATCH = 50;
const sentences = readFileSync(new URL('./apertium-sentences.txt', import.meta.url), 'utf8')
  .trim()
  .split('\n');

/** The raw pipeline: the same mode, escaped input written at once, outputs counted by NUL. */
async function rawPipeline(): Promise<{ run: () => Promise<number>; stop: () => void }> {
  const script = execFileSync('apertium-wblank-mode', ['-z', '/usr/share/apertium/modes/eng-spa.mode'], {
    encoding: 'utf8',
  });
  const child = spawn('bash', ['-c', script, 'apertium', '-g', ''], { detached: true, stdio: 'pipe' });
  child.stdout.setEncoding('utf8');
  let waiting: { left: number; done: () => void } | undefined;
  child.stdout.on('data', (chunk: string) => {
    if (!waiting) return;
    for (const ch of chunk) if (ch === '\0') waiting.left--;
    if (waiting.left <= 0) waiting.done();
  });
  const payload = (texts: string[]) => texts.map((t) => `${encodeSegment(t, false).stream}\n\0`).join('');
  const translate = (texts: string[]) =>
    new Promise<void>((resolve) => {
      waiting = { left: texts.length, done: resolve };
      child.stdin.write(payload(texts));
    });
  await translate(['Warm up.']);
  return {
    run: async () => {
      const start = performance.now();
      await translate(sentences);
      return performance.now() - start;
    },
    stop: () => process.kill(-child.pid!, 'SIGKILL'),
  };
}

const perSecond = (ms: number) => (sentences.length / ms) * 1000;
const chunks = Array.from({ length: Math.ceil(sentences.length / BATCH) }, (_, i) =>
  sentences.slice(i * BATCH, (i + 1) * BATCH),
);

const raw = await rawPipeline();
const engine = createApertiumEngine();
const call = (texts: string[]) =>
  engine.translate({ texts, source: 'en', target: 'es', markup: true, formality: 'default' });
await call(['Warm up.']);
// The engine behind a real server: JSON over loopback HTTP, with the translate pipeline around it. The
// server's engine-output cache is off, so every round really translates.
const server = await startBenchServer({ engineCacheEntries: 0 });
const post = async (texts: string[]) => {
  const { status, data } = await server.call('/v2/translate', {
    json: { text: texts, source_lang: 'EN', target_lang: 'ES' },
  });
  if (status !== 200) throw new Error(`server answered ${status}: ${JSON.stringify(data)}`);
  if (data.translations.length !== texts.length) throw new Error('wrong number of translations');
};
await post(['Warm up.']);
const timed = async (work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};
const variants = {
  raw: raw.run,
  oneCall: () => timed(() => call(sentences)),
  concurrent: () => timed(() => Promise.all(chunks.map((chunk) => call(chunk)))),
  sequential: () =>
    timed(async () => {
      for (const chunk of chunks) await call(chunk);
    }),
  httpOne: () => timed(() => post(sentences)),
  httpConcurrent: () => timed(() => Promise.all(chunks.map((chunk) => post(chunk)))),
};
// Rounds interleave the variants, so load from other work on the machine hits them alike.
type Variant = keyof typeof variants;
const times = Object.fromEntries(Object.keys(variants).map((name) => [name, [] as number[]])) as Record<
  Variant,
  number[]
>;
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(variants) as [Variant, () => Promise<number>][]) {
    times[name].push(await run());
  }
}
raw.stop();
await engine.close();
await server.close();
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
/** Best figure, and the median over rounds of the ratio to the raw run of the same round. */
const row = (name: string, variant: Variant) => {
  const best = Math.min(...times[variant]);
  const ratio = median(times[variant].map((ms, round) => times.raw[round]! / ms));
  return `${name.padEnd(46)} ${perSecond(best).toFixed(0).padStart(6)} seg/s  ratio ${ratio.toFixed(2)}`;
};
console.log(
  `Apertium en→es, ${sentences.length} sentences, ${ROUNDS} interleaved rounds, ${cpus().length} CPUs`,
);
console.log(row('raw pipeline (baseline)', 'raw'));
console.log(row('engine, 1 call × 1000 texts', 'oneCall'));
console.log(row(`engine, ${chunks.length} concurrent calls × ${BATCH} texts`, 'concurrent'));
console.log(row(`engine, ${chunks.length} sequential calls × ${BATCH} texts`, 'sequential'));
console.log(row('server, 1 request × 1000 texts', 'httpOne'));
console.log(row(`server, ${chunks.length} concurrent requests × ${BATCH} texts`, 'httpConcurrent'));
