/**
 * What the abuse tests (abuse.test.ts, packages/server-full/test/abuse-full.test.ts) and bench/body-parse.ts
 * share: a server in a child process (its RSS read from /proc, sampled), calls that keep the status and
 * `Retry-After`, the normal client's latency loop and its figures, and the largest glossary the limits allow.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { MAX_GLOSSARY_BYTES } from '@glossa/protocol';

/** The accounts the child server prints once listening: `ready {"paid":…,"free":…,"freeKey":…,"paidKey":…}`. */
export interface Started {
  paid: string;
  free: string;
  freeKey: string;
  paidKey: string;
}

export interface AbuseServer {
  readonly child: ChildProcess;
  readonly started: Started;
  /** What the child printed so far (stdout and stderr). */
  output(): string;
  /** The child's RSS now, MB. */
  rssMb(): number;
  /** SIGTERM, then SIGKILL after 10 s. */
  close(): Promise<void>;
}

/**
 * Sends the child SIGUSR2 and returns the JSON of the next line it prints as `<name> {…}` (the event-loop
 * probes of the benches answer so).
 */
export async function reportOnSignal<T>(server: AbuseServer, name: string): Promise<T> {
  const seen = server.output().length;
  const line = new RegExp(`${name} (\\{.*\\})\\n`);
  server.child.kill('SIGUSR2');
  for (;;) {
    const found = line.exec(server.output().slice(seen));
    if (found) return JSON.parse(found[1]!) as T;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Node's flags that run a script and the workspace's packages from their TypeScript sources (tsx). */
export const FROM_SOURCES = ['--import', 'tsx', '--conditions', '@glossa/source'];

/**
 * Starts `script` with `config` as JSON, and waits for its `ready` line. `nodeFlags`: from the TypeScript
 * sources by default; `[]` runs a JavaScript script on the packages' built `dist/`. `env`: added to this
 * process's environment.
 */
export async function startAbuseServer(
  script: string,
  config: unknown,
  nodeFlags: readonly string[] = FROM_SOURCES,
  env: Readonly<Record<string, string>> = {},
): Promise<AbuseServer> {
  const child = spawn(process.execPath, [...nodeFlags, script, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  const started = await new Promise<Started>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\{.*\})\n/.exec(output);
      if (ready) resolve(JSON.parse(ready[1]!) as Started);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`the server exited before ready:\n${output}`)));
  });
  return {
    child,
    started,
    output: () => output,
    rssMb: () => rssMb(child.pid!),
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      child.kill('SIGKILL');
    },
  };
}

/** The RSS of process `pid`, MB (/proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Samples `server`'s RSS every 50 ms until `stop()`; `peak()` is the highest seen. */
export function sampleRss(server: AbuseServer): { peak(): number; stop(): void } {
  let peak = server.rssMb();
  const sampler = setInterval(() => {
    if (server.child.exitCode === null) peak = Math.max(peak, server.rssMb());
  }, 50);
  return { peak: () => peak, stop: () => clearInterval(sampler) };
}

export interface Answer {
  what: string;
  status: number;
  retryAfter: string | null;
  text: string;
}

/** A GET (no `body`) or a JSON POST with `key`. */
export async function call(
  what: string,
  base: string,
  key: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(base + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Service-Auth-Key ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    what,
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    text: await response.text(),
  };
}

/** TSV entries as close under the 10 MiB limit as the entry shape allows: about 160,000. */
export function largestGlossary(seed: number): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; ; i++) {
    const line = `${i % 4 === 0 ? `term${seed}x${i.toString(36)} word${i}` : `term${seed}x${i.toString(36)}`}\tobjetivo ${i} ${'largo '.repeat(6)}`;
    if (bytes + line.length + 1 > MAX_GLOSSARY_BYTES - 1024) break;
    lines.push(line);
    bytes += line.length + 1;
  }
  return lines.join('\n');
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** A normal client's pace: 50 requests a second, half the server's default rate limit per key. */
const NORMAL_INTERVAL_MS = 20;

export interface Latencies {
  latencies: number[];
  failures: number;
}

/** A normal client (the paid key): short translations one after another until `until` resolves. */
export async function normalClient(started: Started, until: Promise<unknown>): Promise<Latencies> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  let failures = 0;
  let n = 0;
  while (!done) {
    const start = performance.now();
    const reply = await call('normal', started.paid, started.paidKey, '/v2/translate', {
      text: [`Hello world number ${n++}.`],
      target_lang: 'EN-XA',
    });
    const took = performance.now() - start;
    latencies.push(took);
    if (reply.status !== 200) failures++;
    if (took < NORMAL_INTERVAL_MS)
      await new Promise((resolve) => setTimeout(resolve, NORMAL_INTERVAL_MS - took));
  }
  return { latencies, failures };
}

/** The normal client for `ms` milliseconds. */
export const normalClientFor = (started: Started, ms: number) =>
  normalClient(started, new Promise((resolve) => setTimeout(resolve, ms)));

/** p50, p99 (and max when loaded) of the quiet (unloaded) and loaded latencies. */
export function latencyFigures(quiet: number[], loaded: number[]) {
  return {
    unloaded: { n: quiet.length, p50: percentile(quiet, 50), p99: percentile(quiet, 99) },
    loaded: {
      n: loaded.length,
      p50: percentile(loaded, 50),
      p99: percentile(loaded, 99),
      max: Math.max(...loaded),
    },
  };
}

/** `figures` as JSON with numbers to one decimal. */
export const printable = (figures: unknown) =>
  JSON.stringify(figures, (_, value) => (typeof value === 'number' ? Math.round(value * 10) / 10 : value));
