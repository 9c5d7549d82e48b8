/**
 * What the endpoint growth benchmarks share (issue 31): `growth-endpoints.ts` (the spine) and
 * packages/server-full/bench/growth-features.ts (documents, quality, write, voice). A server runs in a child
 * process (a script that prints `ready {…}` once listening) and is driven over HTTP; per size, the wall time
 * (median of `repeat`) and the peak RSS of the measured process above its RSS before (VmHWM after resetting
 * it through /proc/<pid>/clear_refs); per dimension, the fitted exponents of time and of peak memory
 * (`growthExponent`, log-log least squares; ≤ 1.15 is linear enough). `ONLY=<regexp>` runs only the
 * dimensions whose name it matches.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { growthExponent } from '../../quality/bench/exponent.js';

/** A server started by `startBenchServer`: its process, what it printed after `ready`, and how to stop it. */
export interface BenchServer<Ready> {
  readonly child: ChildProcess;
  readonly ready: Ready;
  stop(): Promise<void>;
}

/**
 * Runs `script` (TypeScript, from sources) in a child process with `config` as JSON as its one argument and
 * waits for its line `ready {…}`. The child is killed when this process exits, however it ends.
 */
export async function startBenchServer<Ready>(script: string, config: unknown): Promise<BenchServer<Ready>> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--conditions', '@glossa/source', script, JSON.stringify(config)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  process.once('exit', () => child.kill('SIGKILL'));
  const ready = await new Promise<Ready>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /ready (\{.*\})\n/.exec(output);
      if (line) resolve(JSON.parse(line[1]!) as Ready);
    });
    child.once('exit', () => reject(new Error(`the server exited before ready:\n${output}`)));
  });
  return {
    child,
    ready,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** A JSON call with a key: the parsed answer; a status of 300 or more throws with the start of the body. */
export function jsonClient(url: string, key: string) {
  return async function call(path: string, body?: unknown, method = 'POST') {
    const response = await fetch(url + path, {
      method,
      headers: {
        authorization: `Service-Auth-Key ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** Polls `check` every `everyMs` until it returns a value other than undefined. */
export async function until<T>(check: () => Promise<T | undefined>, everyMs = 20): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One measured dimension: its sizes, the time (ms) and the peak RSS above the start (bytes) of each. */
export interface GrowthRow {
  readonly dimension: string;
  readonly sizes: number[];
  readonly ms: number[];
  readonly peak: number[];
}

/**
 * Measures dimensions of a process (`measured()`: a pid, or `'self'`, read at each measurement) and prints
 * each size as it comes and, at the end, the table of exponents.
 */
export class GrowthRun {
  readonly rows: GrowthRow[] = [];
  constructor(private readonly measured: () => number | 'self') {}

  private kb(field: string): number {
    const status = readFileSync(`/proc/${this.measured()}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  }

  /**
   * Runs `work` and returns its time (ms) and the process's peak RSS above its RSS at the start (bytes).
   * A server child is first asked to collect its garbage (SIGUSR2, see `growth-server.ts`), so that what
   * an earlier size left in its heap does not hide this size's growth.
   */
  async measure(work: () => Promise<void>): Promise<{ ms: number; peak: number }> {
    const pid = this.measured();
    if (pid !== 'self') {
      process.kill(pid, 'SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const before = this.kb('VmRSS');
    const started = performance.now();
    await work();
    const ms = performance.now() - started;
    return { ms, peak: Math.max(0, this.kb('VmHWM') - before) };
  }

  /** Whether `ONLY` (a regular expression) lets the dimension `name` run. */
  static selected(name: string): boolean {
    return !process.env.ONLY || new RegExp(process.env.ONLY).test(name);
  }

  /**
   * Measures `run` at each size (`repeat` times, the median kept), unless `ONLY` leaves `name` out;
   * `prepare` (not measured) makes a size's input first.
   */
  async dimension(
    name: string,
    sizes: number[],
    run: (size: number) => Promise<void>,
    repeat = 3,
    prepare?: (size: number) => Promise<void>,
  ): Promise<void> {
    if (!GrowthRun.selected(name)) return;
    const row: GrowthRow = { dimension: name, sizes, ms: [], peak: [] };
    console.log(`\n${name}\n     size       ms   peak RSS MiB`);
    for (const size of sizes) {
      await prepare?.(size);
      const runs: { ms: number; peak: number }[] = [];
      for (let k = 0; k < repeat; k++) runs.push(await this.measure(() => run(size)));
      const ms = median(runs.map((one) => one.ms));
      const peak = median(runs.map((one) => one.peak));
      row.ms.push(ms);
      row.peak.push(peak);
      console.log(
        `${String(size).padStart(9)} ${ms.toFixed(1).padStart(8)} ${(peak / 2 ** 20).toFixed(1).padStart(14)}`,
      );
    }
    this.rows.push(row);
  }

  /** Prints the table of the dimensions measured (memory exponents with peaks floored at 1 MiB). */
  printTable(): void {
    console.log(
      '\n| dimension | sizes | time ms (smallest → largest) | time exponent | peak RSS MiB | memory exponent |',
    );
    console.log('| --- | --- | ---: | ---: | ---: | ---: |');
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
    for (const row of this.rows) {
      console.log(
        `| ${row.dimension} | ${row.sizes[0]} → ${row.sizes.at(-1)} | ${row.ms[0]!.toFixed(0)} → ${row.ms.at(-1)!.toFixed(0)} | ${growthExponent(row.sizes, row.ms).toFixed(2)} | ${mib(row.peak[0]!)} → ${mib(row.peak.at(-1)!)} | ${growthExponent(row.sizes, row.peak, 2 ** 20).toFixed(2)} |`,
      );
    }
  }
}
