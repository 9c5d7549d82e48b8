/**
 * POST /v2/translate throughput with the pseudo engine (1 text; 50 texts) against a bare Fastify route
 * that parses the same JSON body and returns the same JSON response, measured in the same run with the
 * same load: autocannon over loopback, in a worker thread. Target: Glossa / bare ≥ 0.5.
 *
 * The machine is shared, so runs alternate bare and Glossa in rounds and report, per case, the best req/s
 * of each and the median over rounds of the ratio within a round. Measured with the engine output cache
 * on (the default: a repeated unit is not translated again) and off (every request runs the engine).
 *
 * Run: pnpm --filter @glossa/server bench   (or: npx tsx --conditions @glossa/source bench/translate.ts)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { createPseudoEngine } from '../src/engines/pseudo.js';
import { type GlossaServer, startServer } from '../src/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 2);
const CONNECTIONS = 10;

async function requestsPerSecond(url: string, body: string, key?: string): Promise<number> {
  const result = await autocannon({
    url: `${url}/v2/translate`,
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Service-Auth-Key ${key}` } : {}),
    },
    connections: CONNECTIONS,
    duration: DURATION_S,
    workers: 1,
  });
  if (result.non2xx + result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dataDir = mkdtempSync(join(tmpdir(), 'glossa-bench-'));
const start = (engineCacheEntries: number | undefined) =>
  startServer({
    dataDir: mkdtempSync(join(dataDir, 'server-')),
    port: 0,
    freePort: 0,
    logger: false,
    rateLimit: false,
    engines: [createPseudoEngine()],
    ...(engineCacheEntries === undefined ? {} : { engineCacheEntries }),
  });

const cases = [
  { name: '1 text', texts: ['Save your changes before you close the window.'] },
  {
    name: '50 texts',
    texts: Array.from({ length: 50 }, (_, i) => `Item ${i}: save your changes before you close the window.`),
  },
];

const rows: string[] = [];
for (const [label, cacheEntries] of [
  ['on (default)', undefined],
  ['off', 0],
] as const) {
  const server: GlossaServer = await start(cacheEntries);
  for (const { name, texts } of cases) {
    const body = JSON.stringify({ text: texts, target_lang: 'en-XA', source_lang: 'EN' });
    const sample = await fetch(`${server.url}/v2/translate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Service-Auth-Key ${server.devKey}` },
      body,
    });
    const response = await sample.text();
    if (sample.status !== 200) throw new Error(`translate answered ${sample.status}: ${response}`);
    const bare = Fastify({ logger: false });
    bare.post('/v2/translate', async (_request, reply) => reply.type('application/json').send(response));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const address = bare.server.address();
    const bareUrl = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';

    await requestsPerSecond(bareUrl, body);
    await requestsPerSecond(server.url, body, server.devKey);
    const glossa: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await requestsPerSecond(bareUrl, body));
      glossa.push(await requestsPerSecond(server.url, body, server.devKey));
    }
    await bare.close();
    const ratio = median(glossa.map((value, round) => value / baseline[round]!));
    rows.push(
      `| ${name} | ${label} | ${Math.max(...glossa).toFixed(0)} | ${Math.max(...baseline).toFixed(0)} | ${ratio.toFixed(2)} | ${ratio >= 0.5 ? 'met' : 'missed'} |`,
    );
  }
  await server.close();
}
rmSync(dataDir, { recursive: true, force: true });

console.log(
  `POST /v2/translate, pseudo engine, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s, ${cpus().length} cores`,
);
console.log(
  '| body | engine output cache | Glossa req/s (best) | bare Fastify req/s (best) | median ratio | target ≥ 0.5 |',
);
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
