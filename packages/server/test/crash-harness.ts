/**
 * The crash tests' harness, shared by the spine's (memory-crash, jobs-crash) and the features' (documents,
 * quality, voice): start a child process that a test (or the child itself, at a crash point) kills with
 * SIGKILL, kill it and see it die of that, and poll until a job is done after the restart. A feature's crash
 * server is one script for every feature, `crash-serve.ts` (`startCrashServer`): the test names the feature
 * module, its options and the crash point to arm. Node runs a child with tsx as a loader (not the tsx
 * wrapper), so that a SIGKILL ends the server process itself and `exited` reports it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect } from 'vitest';

/** The children still running; killed after the file's tests, so that a failed test leaves no process behind. */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

export interface CrashChild {
  /** What the `ready` pattern captured (a server's URL, a runner's owner id). */
  readonly ready: string;
  /** Resolves with the signal that ended the child (`'SIGKILL'` after a kill), else its exit code. */
  readonly exited: Promise<string | number | null>;
  /** All the child has written so far (stdout and stderr), for failure messages. */
  output(): string;
  readonly child: ChildProcess;
}

/**
 * Starts `script` (TypeScript, run by node with tsx) with `args` and waits until its output (stdout or
 * stderr) matches `ready` (its first group is `ready`); rejects with what the child wrote when it exits first.
 */
export async function startChild(
  script: string,
  args: readonly string[],
  options: { readonly ready?: RegExp; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<CrashChild> {
  const pattern = options.ready ?? /ready (\S+)\n/;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions', '@glossa/source', script, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env },
  );
  running.add(child);
  const exited = new Promise<string | number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(signal ?? code);
    }),
  );
  let output = '';
  const ready = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`${script} exited before it was ready:\n${output}`)));
  });
  return { ready, exited, output: () => output, child };
}

/** Kills the child with SIGKILL and expects it to die of it. */
export async function killHard(child: Pick<CrashChild, 'child' | 'exited' | 'output'>): Promise<void> {
  child.child.kill('SIGKILL');
  expect(await child.exited, child.output()).toBe('SIGKILL');
}

/**
 * Calls `read` every `intervalMs` until `done` holds for what it returned, and returns that; throws with the
 * last value read after `timeoutMs`.
 */
export async function pollUntil<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  options: { readonly timeoutMs?: number; readonly intervalMs?: number; readonly what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `${options.what ?? 'the condition'} did not hold within ${options.timeoutMs ?? 120_000} ms: ${JSON.stringify(value)}`,
      );
    await sleep(options.intervalMs ?? 50);
  }
}

/** What `crash-serve.ts` starts: one feature's server, with a crash point armed or not. */
export interface CrashServerConfig {
  readonly dataDir: string;
  readonly devKey: string;
  readonly databaseUrl?: string | undefined;
  /** The feature: the module's path (its `src/index.ts`), the factory it exports and the factory's options. */
  readonly feature: { readonly module: string; readonly factory: string; readonly options?: object };
  /** An Apertium engine (the real one, on `modesDir` when given) in place of the server's default engines. */
  readonly apertium?: { readonly modesDir?: string };
  /** More `startServer` options (JSON), e.g. `{ rateLimit: false, jobs: { sweepMs: 200 } }`. */
  readonly server?: object;
  /**
   * The crash point to arm: `hooks` (an object the module exports, e.g. `crashPoints`) gets `point`, which
   * kills the process with SIGKILL: after `delayMs` when given, and only once its argument `atLeast[0]` is
   * at least `atLeast[1]` when given.
   */
  readonly crash?: {
    readonly module: string;
    readonly hooks: string;
    readonly point: string;
    readonly delayMs?: number;
    readonly atLeast?: readonly [number, number];
  };
}

export interface CrashServer extends CrashChild {
  /** The base URL of the server in the child. */
  readonly url: string;
}

const SERVE = new URL('./crash-serve.ts', import.meta.url).pathname;

/** Starts a feature's server in a child process (`crash-serve.ts`) and waits for it to listen. */
export async function startCrashServer(config: CrashServerConfig): Promise<CrashServer> {
  const child = await startChild(SERVE, [JSON.stringify(config)]);
  return { ...child, url: child.ready };
}
