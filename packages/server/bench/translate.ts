/**
 * POST /v2/translate throughput with the pseudo engine (1 text; 50 texts) against a bare Fastify route
 * that parses the same JSON body and returns the same JSON response, measured in the same run with the
 * same load: autocannon over loopback, in a child process. Target: Glossa / bare ≥ 0.5.
 *
 * Each server runs in a process of its own (bench/translate-peer.mjs, plain Node): Glossa as built
 * (dist/, what `glossa-server` and the embedded default run; tsx would add its own wrappers to every
 * function the sources create per request), so `pnpm bench` builds first. The machine is shared, so runs
 * alternate bare and Glossa in rounds and report, per case, the best req/s of each and the median over
 * rounds of the ratio within a round, and the CPU time each server process spent per request, which other
 * load on the machine disturbs much less than req/s. Measured with the engine output cache on (the
 * default: a repeated unit is not translated again) and off (every request runs the engine).
 *
 * Run: pnpm --filter @glossa/server bench   (or, after `pnpm build`: npx tsx bench/translate.ts)
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 1);
const CONNECTIONS = 10;
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const PEER = fileURLToPath(new URL('./translate-peer.mjs', import.meta.url));

/** The benchmark measures the build: refuse a dist/ older than the sources it was built from. */
function checkBuild(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
        entry.isDirectory() ? newest(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
      ),
    );
  let built = 0;
  try {
    built = statSync(join(root, 'dist', 'index.js')).mtimeMs;
  } catch {}
  if (built < newest(join(root, 'src'))) {
    throw new Error(
      'dist/ is missing or older than src/: run `pnpm build` first (the benchmark measures the build).',
    );
  }
}

interface Peer {
  readonly url: string;
  readonly key?: string;
  /** CPU time the peer process has spent so far, µs. */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

async function startPeer(args: string[]): Promise<Peer> {
  // execArgv: [] so the peer runs on plain Node, without this process's tsx loader.
  const child: ChildProcess = fork(PEER, args, {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // One question at a time: the next message answers it; an exit before that fails it.
  let waiting: { resolve(message: Record<string, unknown>): void; reject(error: Error): void } | undefined;
  child.on('message', (message) => waiting?.resolve(message as Record<string, unknown>));
  child.on('exit', (code) => waiting?.reject(new Error(`translate-peer ${args[0]} exited with ${code}`)));
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      waiting = { resolve, reject };
    });
  const ready = (await next()) as { url: string; key?: string };
  return {
    ...ready,
    async cpu() {
      const answer = next();
      child.send('cpu');
      return (await answer).cpu as number;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      waiting = undefined;
      child.send('stop');
      await exited;
    },
  };
}

interface Run {
  /** Requests per second over loopback. */
  rate: number;
  /** CPU time of the server process per request, µs. */
  cpuPerRequest: number;
}

/** autocannon in a child process against one peer. */
async function load(peer: Peer, body: string): Promise<Run> {
  const headers = ['-H', 'content-type=application/json'];
  if (peer.key) headers.push('-H', `authorization=Service-Auth-Key ${peer.key}`);
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
  const before = await peer.cpu();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [...args, '-b', body, `${peer.url}/v2/translate`]);
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(stdout));
  });
  const cpu = (await peer.cpu()) - before;
  const result = JSON.parse(output) as {
    requests: { average: number; total: number };
    non2xx: number;
    errors: number;
  };
  if (result.non2xx + result.errors > 0)
    throw new Error(`${peer.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rate: result.requests.average, cpuPerRequest: cpu / result.requests.total };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

checkBuild();
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-bench-'));

const cases = [
  { name: '1 text', texts: ['Save your changes before you close the window.'] },
  {
    name: '50 texts',
    texts: Array.from({ length: 50 }, (_, i) => `Item ${i}: save your changes before you close the window.`),
  },
];

const rows: string[] = [];
for (const [label, cacheEntries] of [
  ['on (default)', 'default'],
  ['off', 0],
] as const) {
  const server = await startPeer(['glossa', mkdtempSync(join(dataDir, 'server-')), String(cacheEntries)]);
  for (const { name, texts } of cases) {
    const body = JSON.stringify({ text: texts, target_lang: 'en-XA', source_lang: 'EN' });
    const sample = await fetch(`${server.url}/v2/translate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Service-Auth-Key ${server.key}` },
      body,
    });
    const response = await sample.text();
    if (sample.status !== 200) throw new Error(`translate answered ${sample.status}: ${response}`);
    const responseFile = join(dataDir, 'response.json');
    writeFileSync(responseFile, response);
    const bare = await startPeer(['bare', responseFile]);

    await load(bare, body);
    await load(server, body);
    const glossa: Run[] = [];
    const baseline: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await load(bare, body));
      glossa.push(await load(server, body));
    }
    await bare.stop();
    const ratio = median(glossa.map((run, round) => run.rate / baseline[round]!.rate));
    const cpuGlossa = median(glossa.map((run) => run.cpuPerRequest));
    const cpuBare = median(baseline.map((run) => run.cpuPerRequest));
    rows.push(
      `| ${name} | ${label} | ${Math.max(...glossa.map((run) => run.rate)).toFixed(0)} | ${Math.max(...baseline.map((run) => run.rate)).toFixed(0)} | ${ratio.toFixed(2)} | ${cpuGlossa.toFixed(0)} | ${cpuBare.toFixed(0)} | ${(cpuBare / cpuGlossa).toFixed(2)} |`,
    );
  }
  await server.stop();
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
