/**
 * POST /v2/translate throughput with the pseudo engine (1 text; 50 texts) against a bare Fastify route
 * that parses the same JSON body and returns the same JSON response, measured in the same run with the
 * same load: autocannon over loopback, in a child process. Target: Glossa / bare ≥ 0.5.
 *
 * The machine is shared, so runs alternate bare and Glossa in rounds and report, per case, the best req/s
 * of each and the median over rounds of the ratio within a round, and the CPU time this process (the
 * servers) spent per request, which other load on the machine disturbs much less than req/s. Measured with the engine output cache
 * on (the default: a repeated unit is not translated again) and off (every request runs the engine).
 *
 * Run: pnpm --filter @glossa/server bench   (or: npx tsx --conditions @glossa/source bench/translate.ts)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createPseudoEngine } from '../src/engines/pseudo.js';
import { type GlossaServer, startServer } from '../src/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 2);
const CONNECTIONS = 10;
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Run {
  /** Requests per second over loopback. */
  rate: number;
  /** CPU time of this process (the servers only: the load generator is another process) per request, µs. */
  cpuPerRequest: number;
}

/** autocannon in a child process, so the CPU this process spends is the server's alone. */
async function load(url: string, body: string, key?: string): Promise<Run> {
  const headers = ['-H', 'content-type=application/json'];
  if (key) headers.push('-H', `authorization=Service-Auth-Key ${key}`);
  const args = [
    AUTOCANNON,
    '-j',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(DURATION_S),
    '-m',
    'POST',
    ...headers,
  ];
  const before = process.cpuUsage();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [...args, '-b', body, `${url}/v2/translate`]);
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(stdout));
  });
  const cpu = process.cpuUsage(before);
  const result = JSON.parse(output) as {
    requests: { average: number; total: number };
    non2xx: number;
    errors: number;
  };
  if (result.non2xx + result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rate: result.requests.average, cpuPerRequest: (cpu.user + cpu.system) / result.requests.total };
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

    await load(bareUrl, body);
    await load(server.url, body, server.devKey);
    const glossa: Run[] = [];
    const baseline: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await load(bareUrl, body));
      glossa.push(await load(server.url, body, server.devKey));
    }
    await bare.close();
    const ratio = median(glossa.map((run, round) => run.rate / baseline[round]!.rate));
    const cpuGlossa = median(glossa.map((run) => run.cpuPerRequest));
    const cpuBare = median(baseline.map((run) => run.cpuPerRequest));
    rows.push(
      `| ${name} | ${label} | ${Math.max(...glossa.map((run) => run.rate)).toFixed(0)} | ${Math.max(...baseline.map((run) => run.rate)).toFixed(0)} | ${ratio.toFixed(2)} | ${cpuGlossa.toFixed(0)} | ${cpuBare.toFixed(0)} | ${(cpuBare / cpuGlossa).toFixed(2)} |`,
    );
  }
  await server.close();
}
rmSync(dataDir, { recursive: true, force: true });

console.log(
  `POST /v2/translate, pseudo engine, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s, ${cpus().length} cores`,
);
console.log(
  '| body | engine output cache | Glossa req/s (best) | bare req/s (best) | req/s ratio (median) | Glossa CPU µs/req | bare CPU µs/req | CPU ratio bare/Glossa |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
