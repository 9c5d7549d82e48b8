/**
 * Cold start of the language tools (issue 31, item 3): the first write, detect and quality request of a
 * fresh server process, and what other clients see meanwhile. Each mode starts a new process
 * (bench/cold-start-server.ts) on this machine:
 *
 * - lazy (the baseline, the behaviour before: `warmUp: false`): `/ready` is 200 at once; the first requests
 *   load what they need;
 * - warm-up (now, the default): the models load at start (worker threads, child processes) and `/ready`
 *   answers 503 until they are loaded; then the first requests are timed.
 *
 * For each: time to `/ready` 200, latency of the first rephrase (en-US), detect and quality evaluation
 * (`/v3/quality/evaluate`, en → es), then of 10 more of each (the warm process: the baseline of "as fast as
 * later ones"), the worst `/health` latency seen by another client polling every 20 ms from this process
 * (the server's event loop stalls), and the RSS of the server process and of its helper processes.
 * Run: pnpm bench (or npx tsx --conditions @glossa/source bench/cold-start.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const script = fileURLToPath(new URL('./cold-start-server.ts', import.meta.url));
const LATER = 10;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** RSS of the helper processes (Hunspell, Grammalecte) whose parent is `pid`. */
function childrenRss(pid: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) === pid) total += rssOf(Number(entry));
    } catch {}
  }
  return total;
}

/** Polls `url` every 20 ms until stopped: the worst latency seen. */
function probe(url: string): { stop(): Promise<number> } {
  let worst = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(url)).text();
      worst = Math.max(worst, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return worst;
    },
  };
}

interface Result {
  readyMs: number;
  first: Record<string, number>;
  later: Record<string, number>;
  stallMs: number;
  idleMs: number;
  serverRss: number;
  helpersRss: number;
}

const REQUESTS: Record<string, { path: string; body: unknown }> = {
  write: {
    path: '/v2/write/rephrase',
    body: {
      text: ['I recieved teh package yesterday and it were broken, which is not a good colour.'],
      target_lang: 'en-US',
      writing_style: 'business',
    },
  },
  detect: { path: '/v3/detect/language', body: { text: ['Das ist ein ganz normaler deutscher Satz.'] } },
  quality: {
    path: '/v3/quality/evaluate',
    body: {
      source_lang: 'en',
      target_lang: 'es',
      segments: [
        { source: 'Keep 25 files in the folder.', translation: 'Conserve 52 archivos en la carpeta.' },
      ],
    },
  },
};

async function run(mode: 'lazy' | 'warm'): Promise<Result> {
  const started = performance.now();
  const child: ChildProcess = spawn(tsx, ['--conditions', '@glossa/source', script, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { url, key, pid } = await new Promise<{ url: string; key: string; pid: number }>(
    (resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk;
        if (output.includes('\n')) resolve(JSON.parse(output.split('\n')[0]!));
      });
      child.on('exit', (code) => reject(new Error(`server exited (${code})`)));
    },
  );
  const stall = probe(`${url}/health`);
  for (;;) {
    const reply = await fetch(`${url}/ready`);
    await reply.text();
    if (reply.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const readyMs = performance.now() - started;
  const call = async (name: string) => {
    const { path, body } = REQUESTS[name]!;
    const at = performance.now();
    const reply = await fetch(url + path, {
      method: 'POST',
      headers: { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await reply.text();
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${text}`);
    return performance.now() - at;
  };
  const first: Record<string, number> = {};
  for (const name of Object.keys(REQUESTS)) first[name] = await call(name);
  const stallMs = await stall.stop();
  // Other clients once the server is warm: the same probe, 5 s.
  const idle = probe(`${url}/health`);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const idleMs = await idle.stop();
  const later: Record<string, number> = {};
  for (const name of Object.keys(REQUESTS)) {
    const times: number[] = [];
    for (let i = 0; i < LATER; i++) times.push(await call(name));
    later[name] = Math.max(...times);
  }
  const result = {
    readyMs,
    first,
    later,
    stallMs,
    idleMs,
    serverRss: rssOf(pid),
    helpersRss: childrenRss(pid),
  };
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return result;
}

const lazy = await run('lazy');
const warm = await run('warm');
console.log('cold start of the language tools (a new server process each, same machine, same run)');
for (const [name, result] of [
  ['lazy (before: load on first use)', lazy],
  ['warm-up at start (now)', warm],
] as const) {
  console.log(`${name}:`);
  console.log(`  /ready 200 after ${ms(result.readyMs)} from the process start`);
  for (const request of Object.keys(REQUESTS))
    console.log(
      `  first ${request} after /ready: ${ms(result.first[request]!)}; slowest of the next ${LATER}: ${ms(result.later[request]!)}; ratio ${(result.first[request]! / result.later[request]!).toFixed(1)}`,
    );
  console.log(
    `  worst /health latency of another client, from the start to the end of the first requests: ${ms(result.stallMs)}; over 5 s once warm: ${ms(result.idleMs)}`,
  );
  console.log(`  RSS after: server ${mib(result.serverRss)}, helper processes ${mib(result.helpersRss)}`);
}
const worstFirst = (result: Result) => Math.max(...Object.values(result.first));
console.log(
  `slowest first request after /ready: ${ms(worstFirst(warm))} now vs ${ms(worstFirst(lazy))} before (ratio ${(worstFirst(warm) / worstFirst(lazy)).toFixed(3)}); target <= 1000 ms: ${worstFirst(warm) <= 1000 ? 'met' : 'NOT met'}`,
);
console.log(
  `worst stall for other clients: ${ms(warm.stallMs)} now vs ${ms(lazy.stallMs)} before (ratio ${(warm.stallMs / lazy.stallMs).toFixed(3)})`,
);
