/**
 * The worker pool for CPU work (parsing and serializing files): a `tinypool` of worker threads that run
 * any exported function of any module, so adapters need no worker file of their own.
 *
 * ```ts
 * const pool = createWorkerPool({ maxThreads: 2 });
 * const { segments } = await pool.run(new URL('./extract.js', import.meta.url), 'extract', { text });
 * ```
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Tinypool from 'tinypool';
import type { WorkerTask } from './worker.js';

export interface WorkerPoolOptions {
  /** Threads at most. Default: available parallelism − 1, at least 1. */
  readonly maxThreads?: number;
  /** Threads kept alive when idle. Default 0. */
  readonly minThreads?: number;
  /** Milliseconds before an idle thread exits. Default 10,000. */
  readonly idleTimeout?: number;
}

export interface WorkerPool {
  /** Runs `module`'s export `name` with `input` on a worker thread. `input` and the result are cloned. */
  run<T = unknown>(
    module: string | URL,
    name: string,
    input: unknown,
    options?: { signal?: AbortSignal },
  ): Promise<T>;
  readonly threads: number;
  destroy(): Promise<void>;
}

/** The worker entry: compiled `worker.js` when published; in the workspace a bootstrap that loads `worker.ts` through tsx. */
function workerEntry(): { filename: string; execArgv: string[] } {
  const compiled = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { filename: compiled.href, execArgv: [] };
  return {
    filename: new URL('./worker-source.mjs', import.meta.url).href,
    execArgv: ['--conditions', '@glossa/source'],
  };
}

export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const maxThreads = options.maxThreads ?? Math.max(1, availableParallelism() - 1);
  if (!Number.isInteger(maxThreads) || maxThreads < 1) {
    throw new RangeError(`Expected \`maxThreads\` to be a positive integer, got ${maxThreads}`);
  }
  const entry = workerEntry();
  const pool = new Tinypool({
    filename: entry.filename,
    execArgv: entry.execArgv,
    maxThreads,
    minThreads: Math.min(options.minThreads ?? 0, maxThreads),
    idleTimeout: options.idleTimeout ?? 10_000,
  });
  return {
    threads: maxThreads,
    run(module, name, input, runOptions) {
      const href =
        module instanceof URL
          ? module.href
          : module.startsWith('file:')
            ? module
            : pathToFileURL(module).href;
      const task: WorkerTask = { module: href, name, input };
      return pool.run(task, runOptions?.signal ? { signal: runOptions.signal } : {}) as Promise<never>;
    },
    destroy: () => pool.destroy(),
  };
}
