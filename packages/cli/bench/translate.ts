/**
 * `glossa translate` of examples/markdown-docs (es with Apertium, en-XA) in-process against a real
 * @glossa/server peer, against a baseline measured in the same run: the same texts sent straight
 * through GlossaClient (one request per locale, no files, no cache, no lock). Rounds are interleaved;
 * medians are reported.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GlossaClient } from '@glossa/client';
import { extract } from '@glossa/remark';
import { startServer } from '@glossa/server';
import { runCli } from '../src/index.js';

const ROUNDS = 7;
const example = resolve(import.meta.dirname, '../../../examples/markdown-docs');
const silent = { out: () => {}, err: () => {}, isTTY: false };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const server = await startServer({
  dataDir: await mkdtemp(join(tmpdir(), 'glossa-bench-')),
  port: 0,
  freePort: 0,
  host: '127.0.0.1',
  logger: false,
  engineCacheEntries: 0,
});
const env = { ...process.env, GLOSSA_SERVER_URL: server.url, GLOSSA_API_KEY: server.devKey };
const client = new GlossaClient({ authKey: server.devKey, serverUrl: server.url });
const { readFile } = await import('node:fs/promises');
const texts = [
  ...extract(await readFile(join(example, 'docs/index.md'), 'utf8')).segments,
  ...extract(await readFile(join(example, 'docs/guide/install.md'), 'utf8')).segments,
].map((s) => s.source);

async function baseline(): Promise<number> {
  const start = performance.now();
  for (const targetLang of ['es', 'en-XA']) {
    await client.translateText(texts, {
      targetLang,
      sourceLang: 'en',
      tagHandling: 'xml',
      ignoreTags: ['x'],
    });
  }
  return performance.now() - start;
}

async function cli(): Promise<{ cold: number; warm: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'glossa-bench-project-'));
  await cp(join(example, 'docs'), join(dir, 'docs'), { recursive: true });
  const args = ['translate', 'docs', '--to', 'es,en-XA', '--out', 'out'];
  let start = performance.now();
  if ((await runCli(args, { cwd: dir, env, io: silent })) !== 0) throw new Error('translate failed');
  const cold = performance.now() - start;
  start = performance.now();
  if ((await runCli(args, { cwd: dir, env, io: silent })) !== 0) throw new Error('translate failed');
  const warm = performance.now() - start;
  await rm(dir, { recursive: true, force: true });
  return { cold, warm };
}

await baseline(); // start the Apertium processes
await cli();
const b: number[] = [];
const cold: number[] = [];
const warm: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  b.push(await baseline());
  const r = await cli();
  cold.push(r.cold);
  warm.push(r.warm);
}
await server.close();
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(`segments: ${texts.length} × 2 locales, ${ROUNDS} interleaved rounds, medians`);
console.log(`baseline (GlossaClient, 2 requests):           ${fmt(median(b))}`);
console.log(
  `glossa translate, fresh project (2 requests):  ${fmt(median(cold))}  ratio ${(median(cold) / median(b)).toFixed(2)}`,
);
console.log(
  `glossa translate, second run (0 requests):     ${fmt(median(warm))}  ratio ${(median(warm) / median(b)).toFixed(2)}`,
);
