/**
 * POST /v2/translate (pseudo engine; 1 text, 50 texts) through haproxy, in one run: one instance on SQLite,
 * one instance on PostgreSQL + Redis, two instances on PostgreSQL + Redis. Instances are `glossa-server`
 * processes from the sources (tsx), the same for every case; CPU per request is the instances' own CPU
 * time (prom-client's process_cpu_seconds_total from /metrics) over the requests answered, which load from
 * elsewhere on a shared machine disturbs less than req/s. Rate limit off, output cache on (the default).
 * The load is 10 keep-alive fetch loops in this process (on the same machine: its CPU is not counted).
 *
 * Run: npx tsx --conditions @glossa/source bench/fleet.ts   (needs postgresql, redis-server, haproxy)
 */
import { type Fleet, startFleet } from '../test/fleet.js';
import { startPostgres, startRedis } from '../test/services.js';

const DEV_KEY = 'bench-dev-key-000000';
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 10;

async function cpuSeconds(fleet: Fleet): Promise<number> {
  let total = 0;
  for (const instance of fleet.instances) {
    const text = await (await fetch(`http://127.0.0.1:${instance.port}/metrics`)).text();
    total += Number(/^glossa_process_process_cpu_seconds_total (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
  }
  return total;
}

/** CONNECTIONS loops of fetch (keep-alive) for DURATION_S: requests answered, latency p50/p99 in ms. */
async function load(
  url: string,
  key: string,
  texts: number,
): Promise<{ requests: number; p50: number; p99: number }> {
  const body = JSON.stringify({
    text: Array.from({ length: texts }, (_, index) => `Hello world, this is sentence number ${index}.`),
    target_lang: 'en-XA',
    source_lang: 'en',
  });
  const headers = { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' };
  const latencies: number[] = [];
  const end = performance.now() + DURATION_S * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const response = await fetch(`${url}/v2/translate`, { method: 'POST', headers, body });
        const answer = await response.text();
        if (response.status !== 200) throw new Error(`answered ${response.status}: ${answer}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))]! * 10) / 10;
  return { requests: latencies.length, p50: at(0.5), p99: at(0.99) };
}

const cluster = await startPostgres();
const redis = await startRedis();
const rows: string[] = [];
try {
  const cases: [string, () => Promise<Fleet>][] = [
    ['SQLite, 1 instance', () => startFleet({ size: 1, devKey: DEV_KEY, flags: ['--rate-limit', 'off'] })],
    [
      'PostgreSQL + Redis, 1 instance',
      async () =>
        startFleet({
          size: 1,
          databaseUrl: await cluster.createDatabase(),
          redisUrl: redis.url,
          devKey: DEV_KEY,
          flags: ['--rate-limit', 'off'],
        }),
    ],
    [
      'PostgreSQL + Redis, 2 instances',
      async () =>
        startFleet({
          size: 2,
          databaseUrl: await cluster.createDatabase(),
          redisUrl: redis.url,
          devKey: DEV_KEY,
          flags: ['--rate-limit', 'off'],
        }),
    ],
  ];
  for (const [name, start] of cases) {
    const fleet = await start();
    try {
      // The development account (limit 10^12 characters), the same key in every case.
      const key = DEV_KEY;
      await load(fleet.url, key, 1); // warm-up
      for (const texts of [1, 50]) {
        const before = await cpuSeconds(fleet);
        const result = await load(fleet.url, key, texts);
        const cpu = (await cpuSeconds(fleet)) - before;
        rows.push(
          `| ${name} | ${texts} | ${Math.round(result.requests / DURATION_S)} | ${result.p50} | ${result.p99} | ${((cpu / result.requests) * 1e6).toFixed(0)} |`,
        );
        console.log(rows.at(-1));
      }
    } finally {
      await fleet.stop();
    }
  }
} finally {
  await redis.stop();
  await cluster.stop();
}
console.log(
  `\n| case | texts | req/s | p50 ms | p99 ms | instance CPU µs/request |\n| --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}`,
);
