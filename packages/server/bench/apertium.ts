/**
 * Apertium en→es throughput: segments/s through the engine (and through the HTTP server when it is
 * available) against the raw null-flush pipeline, on the same 1,000 sentences (bench/apertium-sentences.txt).
 * Target: engine / raw ≥ 0.8. Each figure is the best of ROUNDS runs on a warm pipeline.
 *
 * Run: pnpm --filter @glossa/server bench   (or: npx tsx --conditions @glossa/source bench/apertium.ts)
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createApertiumEngine } from '../src/engines/apertium.js';
import { encodeSegment } from '../src/engines/apertium-format.js';

const ROUNDS = 5;
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
};
// Rounds interleave the variants, so load from other work on the machine hits them alike.
const fastest = { raw: Infinity, oneCall: Infinity, concurrent: Infinity, sequential: Infinity };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(variants) as [keyof typeof variants, () => Promise<number>][]) {
    fastest[name] = Math.min(fastest[name], await run());
  }
}
raw.stop();
await engine.close();
const rawMs = fastest.raw;

const row = (name: string, ms: number) =>
  `${name.padEnd(46)} ${perSecond(ms).toFixed(0).padStart(6)} seg/s  ratio ${(rawMs / ms).toFixed(2)}`;
console.log(`Apertium en→es, ${sentences.length} sentences, best of ${ROUNDS}, ${cpus().length} CPUs`);
console.log(row('raw pipeline (baseline)', rawMs));
console.log(row('engine, 1 call × 1000 texts', fastest.oneCall));
console.log(row(`engine, ${chunks.length} concurrent calls × ${BATCH} texts`, fastest.concurrent));
console.log(row(`engine, ${chunks.length} sequential calls × ${BATCH} texts`, fastest.sequential));
