/**
 * The worker threads that evaluate quality-evaluation jobs, so that the server's event loop keeps answering
 * while a job runs (a job at the input limits is seconds to tens of seconds of checks). Each backend
 * (sqlite-jobs.ts, pg-jobs.ts) has its own pool and runs at most its `concurrency` jobs at once, so a pool
 * has at most that many threads: one per running job, started when needed, kept `IDLE_MS` after its job for
 * the next one, then stopped (a thread that checked English holds some 100 MB of dictionaries).
 *
 * A thread that fails (an uncaught error, out of memory) fails its job with an `evaluation_failed` report,
 * and the next job gets a new thread. `close` stops every thread at once: their jobs get no report (they
 * stay `running`, and are run again as after a kill: at the next start, or by another instance).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { failedReport, type QualityRequest, utf8Json } from './evaluate.js';
import { checkWithHunspell } from './spelling.js';

/** How long an idle thread waits for another job before it stops. */
const IDLE_MS = 30_000;

/**
 * A finished evaluation: the report's status, and the report as JSON in UTF-8 (what the backends store),
 * serialized and encoded in the worker thread and handed over without a copy.
 */
export interface EvaluatedJob {
  readonly status: 'done' | 'error';
  readonly json: Uint8Array;
}

/** What the main thread sends a worker: a job, or the answer to its words' check. */
export type ToWorker =
  | { readonly type: 'evaluate'; readonly id: string; readonly request: QualityRequest }
  | {
      readonly type: 'checked';
      readonly check: number;
      readonly correct?: boolean[];
      readonly error?: string;
    };

/** What a worker sends: words to check with Hunspell, or the report of its job. */
export type FromWorker =
  | {
      readonly type: 'check';
      readonly check: number;
      readonly dictionary: string;
      readonly words: readonly string[];
    }
  | ({ readonly type: 'report' } & EvaluatedJob);

export interface EvaluationPool {
  /** Evaluates a job on a thread: its report, or undefined when the pool was closed before it finished. */
  evaluate(id: string, request: QualityRequest): Promise<EvaluatedJob | undefined>;
  /** Stops every thread; running jobs resolve undefined. */
  close(): Promise<void>;
}

/** The worker's entry: compiled `worker.js` when built; from the sources, a bootstrap that loads `worker.ts` with tsx. */
function workerEntry(): { url: URL; execArgv: string[] } {
  const compiled = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { url: compiled, execArgv: [] };
  return {
    url: new URL('./worker-source.mjs', import.meta.url),
    execArgv: ['--conditions', '@glossa/source'],
  };
}

/** One worker thread, one job at a time. */
class EvaluationThread {
  readonly worker: Worker;
  /** Ends the running job with its result (undefined: no report), or undefined when idle. */
  private settle: ((result: EvaluatedJob | undefined) => void) | undefined;
  private jobId = '';
  idleTimer: NodeJS.Timeout | undefined;
  /** Failed or stopped: it takes no more jobs. */
  dead = false;

  constructor(onExit: (thread: EvaluationThread) => void, resourceLimits: ResourceLimits) {
    const entry = workerEntry();
    this.worker = new Worker(entry.url, { execArgv: entry.execArgv, resourceLimits });
    // Only a thread with a job keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (message: FromWorker) => {
      if (message.type === 'check') void this.check(message.check, message.dictionary, message.words);
      else this.finish({ status: message.status, json: message.json });
    });
    this.worker.on('error', (error) => {
      this.dead = true;
      this.fail(error.message);
    });
    this.worker.on('exit', (code) => {
      this.dead = true;
      this.fail(`its worker thread stopped (exit code ${code}).`);
      onExit(this);
    });
  }

  run(id: string, request: QualityRequest): Promise<EvaluatedJob | undefined> {
    return new Promise((resolve) => {
      this.jobId = id;
      this.settle = resolve;
      this.worker.ref();
      this.post({ type: 'evaluate', id, request });
    });
  }

  /** Terminates the thread; its job, if any, resolves undefined. */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.finish(undefined);
    await this.worker.terminate();
  }

  private finish(result: EvaluatedJob | undefined): void {
    const settle = this.settle;
    this.settle = undefined;
    this.worker.unref();
    settle?.(result);
  }

  private fail(reason: string): void {
    this.finish({ status: 'error', json: utf8Json(failedReport(this.jobId, reason)) });
  }

  /** Checks words with this (the main) thread's Hunspell processes for the worker. */
  private async check(check: number, dictionary: string, words: readonly string[]): Promise<void> {
    try {
      this.post({ type: 'checked', check, correct: await checkWithHunspell(dictionary, words) });
    } catch (error) {
      this.post({ type: 'checked', check, error: (error as Error).message });
    }
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }
}

/** A pool of evaluation threads; `resourceLimits` applies to each (default: Node's, as for the main thread). */
export function startEvaluationPool(resourceLimits: ResourceLimits = {}): EvaluationPool {
  const threads = new Set<EvaluationThread>();
  const idle: EvaluationThread[] = [];
  let closed = false;

  const forget = (thread: EvaluationThread) => {
    threads.delete(thread);
    if (idle.includes(thread)) idle.splice(idle.indexOf(thread), 1);
  };

  return {
    async evaluate(id, request) {
      if (closed) return undefined;
      let thread = idle.pop();
      if (thread) clearTimeout(thread.idleTimer);
      else {
        thread = new EvaluationThread(forget, resourceLimits);
        threads.add(thread);
      }
      const result = await thread.run(id, request);
      if (!closed && !thread.dead) {
        idle.push(thread);
        const waiting = thread;
        waiting.idleTimer = setTimeout(() => {
          forget(waiting);
          void waiting.stop();
        }, IDLE_MS);
        waiting.idleTimer.unref();
      }
      return result;
    },
    async close() {
      closed = true;
      await Promise.all([...threads].map((thread) => thread.stop()));
      threads.clear();
      idle.length = 0;
    },
  };
}
